/**
 * Full-text search over documentation: the records of the reference site, their ranking, and the
 * prebuilt index of this package's own docs that `fragment-cli search` uses offline.
 *
 * @example
 * ```ts
 * import { createDocsSearch, DOCS_INDEX } from "./mod.ts";
 *
 * const hits = createDocsSearch(DOCS_INDEX).search("migrate");
 * console.log(hits[0].type); // "page"
 * ```
 *
 * @module
 */
export type { SearchHit, SearchHitType, SearchRecord } from "./search_record.ts";
export { createDocsSearch, type DocsSearch, MAX_SECTIONS_PER_PAGE } from "./docs_search.ts";
export { DOCS_INDEX } from "./docs_index.ts";
