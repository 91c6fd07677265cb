/**
 * `deno task docs:index`: rebuilds `src/search/docs_index.ts`, the search records of `docs/*.md`
 * that ship in the package for `fragment-cli search` offline. Run it after editing docs/ and
 * commit the result (the test suite fails while it is stale).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import process from "node:process";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  renderDocsIndexModule,
} from "./site/docs_index_source.ts";

const records = buildDocsRecords("docs");
writeFileSync(DOCS_INDEX_FILE, renderDocsIndexModule(records));
// deno fmt, so the generated file passes `deno fmt --check` (process.execPath is deno here).
const fmt = spawnSync(process.execPath, ["fmt", "--quiet", DOCS_INDEX_FILE], { stdio: "inherit" });
if (fmt.status !== 0) process.exit(fmt.status ?? 1);
const pages = records.filter((r) => r.type === "page").length;
console.log(`Wrote ${DOCS_INDEX_FILE}: ${records.length} records from ${pages} pages of docs/`);
