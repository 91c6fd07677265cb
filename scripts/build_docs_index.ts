/**
 * `deno task docs:index`: rebuilds `generated/docs_index.json`, the search records of `docs/*.md`
 * that ship in the package for `fragment-cli search` offline. Run it after editing docs/ and
 * commit the result (the test suite fails while it is stale).
 *
 * Usage: deno task docs:index [--docs <dir>]   (default: docs)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  renderDocsIndexJson,
} from "./site/docs_index_source.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { docs: { type: "string", default: "docs" } },
});
const records = buildDocsRecords(values.docs);
mkdirSync(dirname(DOCS_INDEX_FILE), { recursive: true });
writeFileSync(DOCS_INDEX_FILE, renderDocsIndexJson(records));
const pages = records.filter((r) => r.type === "page").length;
console.log(
  `Wrote ${DOCS_INDEX_FILE}: ${records.length} records from ${pages} pages of ${values.docs}/`,
);
