import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DOCS_INDEX } from "../../src/search/mod.ts";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  DOCS_INDEX_TASK,
} from "../../scripts/site/docs_index_source.ts";

const docsDir = fileURLToPath(new URL("../../docs", import.meta.url));

describe("DOCS_INDEX (the offline index shipped in the package)", () => {
  it("is rebuilt from the current docs/", () => {
    const fresh = buildDocsRecords(docsDir);
    const shipped = DOCS_INDEX.map((record) => JSON.stringify(record));
    const expected = fresh.map((record) => JSON.stringify(record));
    const at = expected.findIndex((record, i) => record !== shipped[i]);
    const where = at === -1 ? shipped.length : at;
    if (at !== -1 || shipped.length !== expected.length) {
      const record = fresh[where] ?? DOCS_INDEX[where];
      assert.fail(
        `${DOCS_INDEX_FILE} is stale (first difference at record ${where}, "${record.id}"): ` +
          `run \`${DOCS_INDEX_TASK}\` and commit it`,
      );
    }
  });

  it("covers every part of the project", () => {
    const pages = DOCS_INDEX.filter((record) => record.type === "page").map((r) => r.id);
    const parts = [
      "getting-started",
      "modules",
      "database",
      "cli",
      "auth",
      "organizations",
      "client",
      "webhook",
      "telegram",
      "search",
    ];
    for (const page of parts) assert.ok(pages.includes(page), `docs/${page}.md is indexed`);
  });
});
