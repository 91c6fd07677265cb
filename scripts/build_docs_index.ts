/**
 * `deno task docs:index`: rebuilds `src/search/docs_index.ts`, the search records of `docs/*.md`
 * that ship in the package for `fragment-cli search` offline. Run it after editing docs/ and
 * commit the result (the test suite fails while it is stale).
 *
 * Usage: deno task docs:index [--docs <dir>]   (default: docs)
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  renderDocsIndexModule,
} from "./site/docs_index_source.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { docs: { type: "string", default: "docs" } },
});
const records = buildDocsRecords(values.docs);
writeFileSync(DOCS_INDEX_FILE, renderDocsIndexModule(records));
// deno fmt, so the generated file passes `deno fmt --check` (process.execPath is deno here).
const fmt = spawnSync(process.execPath, ["fmt", "--quiet", DOCS_INDEX_FILE], { stdio: "inherit" });
if (fmt.status !== 0) process.exit(fmt.status ?? 1);
const pages = records.filter((r) => r.type === "page").length;
console.log(
  `Wrote ${DOCS_INDEX_FILE}: ${records.length} records from ${pages} pages of ${values.docs}/`,
);
