/** What a hit is: a page title, a section heading, or a block of text under a heading. */
export type SearchHitType = "page" | "heading" | "text";

/**
 * One hit of a documentation search, in the shape Fumadocs (Orama) search endpoints answer with
 * and `GET /api/search` of the reference site serves: an array of these, ranked, each page hit
 * followed by the hits of that page.
 *
 * @example
 * ```ts
 * import type { SearchHit } from "./search_record.ts";
 *
 * const hit: SearchHit = {
 *   id: "cli#search",
 *   type: "heading",
 *   content: "search",
 *   url: "/docs/cli#search",
 * };
 * ```
 */
export interface SearchHit {
  id: string;
  type: SearchHitType;
  /** The page title, the heading text or the plain text of the block. */
  content: string;
  /** `/docs/<page>` for a page, `/docs/<page>#<anchor>` for a section. */
  url: string;
  /** Where the page sits in the site, e.g. `["Guides"]`; absent for top-level pages. */
  breadcrumbs?: string[];
}

/**
 * A searchable unit of the docs: a {@link SearchHit} plus what the index needs to rank and group
 * it. The prebuilt index of the package's docs is a list of these.
 *
 * @example
 * ```ts
 * import type { SearchRecord } from "./search_record.ts";
 *
 * const record: SearchRecord = {
 *   id: "cli#search-1",
 *   page: "cli",
 *   type: "text",
 *   content: "Searches the reference site.",
 *   url: "/docs/cli#search",
 *   context: "CLI › search",
 * };
 * ```
 */
export interface SearchRecord extends SearchHit {
  /** The page the record belongs to: the id of that page's `page` record. */
  page: string;
  /** The page title and enclosing headings, indexed with a lower weight than `content`. */
  context: string;
}
