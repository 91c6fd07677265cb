import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DOCS_INDEX } from "../../src/search/mod.ts";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  DOCS_INDEX_TASK,
  renderDocsIndexJson,
} from "../../scripts/site/docs_index_source.ts";

const root = new URL("../../", import.meta.url);
const docsDir = fileURLToPath(new URL("docs", root));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

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
    // The same records could still be laid out by hand: the file is exactly what the task writes.
    const text = readFileSync(new URL(DOCS_INDEX_FILE, root), "utf8");
    assert.ok(
      text === renderDocsIndexJson(fresh),
      `${DOCS_INDEX_FILE}: run \`${DOCS_INDEX_TASK}\``,
    );
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

  it("is published to JSR with the package", () => {
    // src/search/docs_index.ts imports it: a JSR package without it could not search offline.
    // (tests/package/npm_package.test.ts searches through the npm package.)
    const { publish } = JSON.parse(readFileSync(new URL("deno.json", root), "utf8"));
    const covers = (pattern: string) => DOCS_INDEX_FILE.startsWith(pattern.replace(/^\.?\//, ""));
    assert.ok(!(publish?.exclude ?? []).some(covers), "deno.json publish.exclude drops it");
    if (publish?.include) assert.ok(publish.include.some(covers), "publish.include misses it");
  });

  it("lives outside src/, which holds only hand-written code", () => {
    assert.ok(!DOCS_INDEX_FILE.startsWith("src/"), DOCS_INDEX_FILE);
    // A generated file says so at its top (the ORM outputs write such a header further down).
    const generated = sourceFiles(fileURLToPath(new URL("src", root))).filter((file) =>
      /do not edit|@generated/i.test(readFileSync(file, "utf8").slice(0, 400))
    );
    assert.deepEqual(generated, [], "generated files belong in generated/");
  });
});
