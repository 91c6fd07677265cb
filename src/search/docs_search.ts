import MiniSearch, { type SearchOptions } from "minisearch";
import type { SearchHit, SearchRecord } from "./search_record.ts";

/** A full-text index over documentation records. */
export interface DocsSearch {
  /**
   * The hits for `query`, grouped by page in rank order (a page ranks by its best hit): each
   * page's `page` hit, then the hits of its sections, best first. An empty query finds nothing.
   */
  search(query: string): SearchHit[];
}

// Words too common to say anything about a section; dropped from the index and from queries.
const STOP_WORDS = new Set(
  "a an and are as at be by for from has in is it its of on or that the this to was with"
    .split(" "),
);

const SEARCH_OPTIONS: SearchOptions = {
  // Headings and page titles are short, so BM25 already favours them; the page title and
  // enclosing headings of a text block count for less than its own words.
  boost: { content: 2, context: 1 },
  // "migr" finds "migrate" and "migration"; one typo is forgiven in longer words.
  prefix: (term) => term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
};

/**
 * Indexes documentation records with MiniSearch (BM25 ranking, prefix and fuzzy matching). A
 * query first looks for records holding every word (in their text or their headings); when none
 * does, for records holding any of them.
 *
 * @example
 * ```ts
 * import { createDocsSearch } from "./docs_search.ts";
 *
 * const search = createDocsSearch([
 *   { id: "cli", page: "cli", type: "page", content: "CLI", url: "/docs/cli", context: "" },
 *   {
 *     id: "cli#search-1",
 *     page: "cli",
 *     type: "text",
 *     content: "Searches the reference site.",
 *     url: "/docs/cli#search",
 *     context: "CLI › search",
 *   },
 * ]);
 * console.log(search.search("reference").map((hit) => hit.url));
 * // ["/docs/cli", "/docs/cli#search"]
 * ```
 */
export function createDocsSearch(records: readonly SearchRecord[]): DocsSearch {
  const index = new MiniSearch<SearchRecord>({
    fields: ["content", "context"],
    storeFields: ["page"],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
  });
  index.addAll(records);
  const byId = new Map(records.map((record) => [record.id, record]));

  return {
    search(query: string): SearchHit[] {
      if (query.trim() === "") return [];
      let results = index.search(query, { ...SEARCH_OPTIONS, combineWith: "AND" });
      if (results.length === 0) {
        results = index.search(query, { ...SEARCH_OPTIONS, combineWith: "OR" });
      }
      // Group by page, pages in the order of their best hit (results come best first).
      const groups = new Map<string, SearchRecord[]>();
      for (const result of results) {
        const record = byId.get(result.id)!;
        const group = groups.get(record.page) ?? [];
        if (record.type !== "page") group.push(record);
        groups.set(record.page, group);
      }
      const hits: SearchHit[] = [];
      for (const [page, sections] of groups) {
        const pageRecord = byId.get(page);
        if (pageRecord) hits.push(toHit(pageRecord));
        hits.push(...sections.map(toHit));
      }
      return hits;
    },
  };
}

function toHit({ id, type, content, url, breadcrumbs }: SearchRecord): SearchHit {
  return breadcrumbs && breadcrumbs.length > 0
    ? { id, type, content, url, breadcrumbs }
    : { id, type, content, url };
}
