import type { SearchRecord } from "../../src/search/mod.ts";
import { loadDocs } from "./load_docs.ts";

/**
 * The file `deno task docs:index` writes: the offline index of `fragment-cli search`, data that
 * `src/search/docs_index.ts` imports as a JSON module. Committed, so a fresh clone searches
 * offline; the npm build writes its own copy from docs/ (scripts/build_npm.ts).
 */
export const DOCS_INDEX_FILE = "generated/docs_index.json";

/** The command that rebuilds {@link DOCS_INDEX_FILE}, as the staleness test tells it. */
export const DOCS_INDEX_TASK = "npx -y deno@2 task docs:index";

/** The shape of {@link DOCS_INDEX_FILE}: JSON has no comments, so the notice is a field. */
export interface DocsIndexFile {
  $comment: string;
  records: SearchRecord[];
}

/** The search records of every page under `docsDir`, in page order. */
export function buildDocsRecords(docsDir: string): SearchRecord[] {
  return loadDocs(docsDir).flatMap((page) => page.records);
}

/**
 * The text of {@link DOCS_INDEX_FILE} for `records`: one field per line, so a docs change shows
 * as a readable diff, and already in `deno fmt`'s layout.
 */
export function renderDocsIndexJson(records: readonly SearchRecord[]): string {
  const file: DocsIndexFile = {
    $comment: "Generated from docs/ by `deno task docs:index` (scripts/build_docs_index.ts): " +
      "do not edit. tests/search/docs_index.test.ts fails while it is stale.",
    records: [...records],
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
