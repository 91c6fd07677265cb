// The records are data in generated/docs_index.json, built from docs/ by `deno task docs:index`
// (and again by the npm build), so src/ holds only hand-written code. A JSON module, not a file
// read: it loads the same from a checkout, the npm package and JSR, where the package's files are
// URLs rather than paths, and only when `search` falls back to it (search_run.ts imports lazily).
import docsIndex from "../../generated/docs_index.json" with { type: "json" };
import type { SearchRecord } from "./search_record.ts";

/**
 * The search records of this package's own docs (`docs/*.md`), prebuilt so that
 * `fragment-cli search` works offline.
 *
 * @example
 * ```ts
 * import { createDocsSearch, DOCS_INDEX } from "./mod.ts";
 *
 * console.log(createDocsSearch(DOCS_INDEX).search("serve").length > 0); // true
 * ```
 */
export const DOCS_INDEX: readonly SearchRecord[] = docsIndex.records as readonly SearchRecord[];
