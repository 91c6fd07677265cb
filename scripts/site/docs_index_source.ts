import type { SearchRecord } from "../../src/search/mod.ts";
import { loadDocs } from "./load_docs.ts";

/** The file `deno task docs:index` writes: the offline index shipped in the package. */
export const DOCS_INDEX_FILE = "src/search/docs_index.ts";

/** The command that rebuilds {@link DOCS_INDEX_FILE}, as the staleness test tells it. */
export const DOCS_INDEX_TASK = "npx -y deno@2 task docs:index";

/** The search records of every page under `docsDir`, in page order. */
export function buildDocsRecords(docsDir: string): SearchRecord[] {
  return loadDocs(docsDir).flatMap((page) => page.records);
}

/** The TypeScript source of {@link DOCS_INDEX_FILE} for `records` (before `deno fmt`). */
export function renderDocsIndexModule(records: readonly SearchRecord[]): string {
  return [
    `// Generated from docs/ by \`deno task docs:index\` (scripts/build_docs_index.ts): do not edit.`,
    `// tests/search/docs_index.test.ts fails when docs/ changed and this file was not rebuilt.`,
    `import type { SearchRecord } from "./search_record.ts";`,
    ``,
    `/**`,
    ` * The search records of this package's own docs (\`docs/*.md\`), prebuilt so that`,
    ` * \`fragment-cli search\` works offline.`,
    ` *`,
    ` * @example`,
    ` * \`\`\`ts`,
    ` * import { createDocsSearch, DOCS_INDEX } from "./mod.ts";`,
    ` *`,
    ` * console.log(createDocsSearch(DOCS_INDEX).search("serve").length > 0); // true`,
    ` * \`\`\``,
    ` */`,
    `export const DOCS_INDEX: readonly SearchRecord[] = ${JSON.stringify(records, null, 2)};`,
    ``,
  ].join("\n");
}
