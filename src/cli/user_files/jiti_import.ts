// A file of its own, imported only on Node without type stripping: the static import keeps jiti
// out of every other runtime's start-up (and lets the npm build see the dependency).
import { createJiti } from "jiti";

/** Imports a TypeScript file on a Node that cannot strip types, as ESM with named exports kept. */
export async function importWithJiti(path: string): Promise<Record<string, unknown>> {
  // Without interopDefault jiti returns the namespace as is: no default-export preference.
  const jiti = createJiti(import.meta.url, { interopDefault: false, moduleCache: true });
  return await jiti.import(path) as Record<string, unknown>;
}
