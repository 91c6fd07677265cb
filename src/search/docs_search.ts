import MiniSearch, { type SearchOptions } from "minisearch";
import type { SearchHit, SearchRecord } from "./search_record.ts";

/** A full-text index over documentation records. */
export interface DocsSearch {
  /**
   * The hits for `query`, grouped by page in rank order (a page ranks by its best hit): each
   * page's `page` hit, then the hits of its sections, best first (at most
   * {@link MAX_SECTIONS_PER_PAGE}). An empty query finds nothing.
   */
  search(query: string): SearchHit[];
}

// Words too common to say anything about a section; dropped from the index and from queries.
const STOP_WORDS = new Set(
  "a an and are as at be by for from has in is it its of on or that the this to was with"
    .split(" "),
);

/** Sections listed per page, the best first (Fumadocs' search groups at most 8 per page). */
export const MAX_SECTIONS_PER_PAGE = 8;

// A page title says more than a heading, a heading more than a sentence.
const TYPE_BOOST: Record<string, number> = { page: 2, heading: 1.5, text: 1 };

const SEARCH_OPTIONS: SearchOptions = {
  // The page title and enclosing headings of a block help it match every word of a query, but
  // count for less than its own words (and alone never make it a hit, see below).
  boost: { content: 1, context: 0.3 },
  boostDocument: (_id, _term, stored) => TYPE_BOOST[String(stored?.type)] ?? 1,
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
    storeFields: ["page", "type"],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : sStem(lower);
    },
  });
  index.addAll(records);
  const byId = new Map(records.map((record) => [record.id, record]));

  return {
    search(query: string): SearchHit[] {
      if (query.trim() === "") return [];
      const run = (combineWith: "AND" | "OR") =>
        index.search(query, { ...SEARCH_OPTIONS, combineWith })
          // A block found only through its headings is that heading's hit, not its own.
          .filter((result) => Object.values(result.match).some((f) => f.includes("content")));
      let results = run("AND");
      if (results.length === 0) results = run("OR");
      // Group by page, pages in the order of their best hit (results come best first).
      const groups = new Map<string, SearchRecord[]>();
      for (const result of results) {
        const record = byId.get(result.id)!;
        const group = groups.get(record.page) ?? [];
        if (record.type !== "page" && group.length < MAX_SECTIONS_PER_PAGE) group.push(record);
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

/**
 * Harman's S-stemmer: plurals to singular ("invitations" → "invitation", "queries" → "query"),
 * the same on both sides of the index, so a plural finds the singular at full weight.
 */
function sStem(term: string): string {
  if (term.length <= 3) return term;
  if (term.endsWith("ies") && !/[ae]ies$/.test(term)) return `${term.slice(0, -3)}y`;
  if (term.endsWith("es") && !/[aeo]es$/.test(term)) return term.slice(0, -1);
  if (term.endsWith("s") && !/(us|ss)$/.test(term)) return term.slice(0, -1);
  return term;
}

function toHit({ id, type, content, url, breadcrumbs }: SearchRecord): SearchHit {
  return breadcrumbs && breadcrumbs.length > 0
    ? { id, type, content, url, breadcrumbs }
    : { id, type, content, url };
}
