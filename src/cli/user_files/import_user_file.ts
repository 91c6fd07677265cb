import process from "node:process";
import { pathToFileURL } from "node:url";

/**
 * A variable, not a literal, on purpose: Deno follows every literal dynamic import when it builds
 * the module graph, so a literal would make `serve`/`db` on Deno download jiti (which only Node 20
 * uses) and write it into the user's `deno.lock`. tsc rewrites `.ts` to `.js` at run time in the
 * npm build (`--rewriteRelativeImportExtensions`).
 */
const JITI_IMPORT = "./jiti_import.ts";

/** Whether this runtime imports `.ts` files by itself (Deno, Bun, Node with type stripping). */
export function importsTypeScriptNatively(): boolean {
  if ("Deno" in globalThis || "Bun" in globalThis) return true;
  // Node ≥ 22.18 / ≥ 23.6 strips types by default and says so here; older Node has no such flag.
  const features = process.features as { typescript?: string | false };
  return Boolean(features.typescript);
}

/**
 * Imports a user's file (absolute path) and returns its module namespace: natively where the
 * runtime can, through jiti on older Node (the npm build runs on Node 20). jiti is loaded only
 * then, so the other runtimes never pay for it.
 */
export async function importUserFile(path: string): Promise<Record<string, unknown>> {
  const native = importsTypeScriptNatively() || /\.(m|c)?js$/.test(path);
  if (native) return await import(pathToFileURL(path).href);
  const { importWithJiti } = await import(JITI_IMPORT) as typeof import("./jiti_import.ts");
  return await importWithJiti(path);
}
