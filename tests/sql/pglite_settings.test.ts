import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGLITE_DEFAULT_SETTINGS, pgliteAdapter } from "../../src/sql/mod.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "fragment-pglite-settings-"));
after(() => fs.rmSync(root, { recursive: true, force: true }));

describe("pgliteAdapter() settings", () => {
  it(
    "starts PGlite with the default settings, plus those given, in a data directory",
    { timeout: 120_000 },
    async () => {
      const db = pgliteAdapter({ dataDir: path.join(root, "db"), settings: { work_mem: "8MB" } });
      try {
        const rows = await db.query<{ name: string; value: string }>(
          `SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name
           ORDER BY name`,
          [["shared_buffers", "work_mem"]],
        );
        assert.deepEqual(rows, [
          { name: "shared_buffers", value: PGLITE_DEFAULT_SETTINGS.shared_buffers },
          { name: "work_mem", value: "8MB" },
        ]);
        assert.equal(PGLITE_DEFAULT_SETTINGS.shared_buffers, "16MB");
      } finally {
        await db.close();
      }
    },
  );

  it("refuses settings PGlite could not start with, before opening anything", () => {
    assert.throws(
      () => pgliteAdapter({ settings: "shared_buffers=1MB" as unknown as Record<string, string> }),
      /settings must be an object of PostgreSQL settings/,
    );
    assert.throws(
      () => pgliteAdapter({ settings: { "work mem": "8MB" } }),
      /"work mem" is not a PostgreSQL setting name/,
    );
    assert.throws(
      () => pgliteAdapter({ settings: { work_mem: "8MB\n-c fsync=off" } }),
      /setting "work_mem" needs a non-empty one-line value/,
    );
    assert.throws(
      () => pgliteAdapter({ settings: { work_mem: "" } }),
      /setting "work_mem" needs a non-empty one-line value/,
    );
  });
});
