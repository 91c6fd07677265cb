/**
 * renderMigrationFile(): a file applied by hand (psql, or PGlite's exec) records exactly what
 * migrate() records, and refuses a database that is not at the file's starting version.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { migrate, migrationStatus, renderMigrationFile } from "../../src/migrate/mod.ts";
import { pgliteAdapter, postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";

const schema = defineSchema(
  "ledger",
  (s) =>
    s.createTable("entries", { id: column.integer().primaryKey(), amount: column.bigint() })
      .addColumn("entries", "memo", column.text().nullable())
      .addIndex("entries", "entries_amount_idx", ["amount"]),
);

const slow = { timeout: 120_000 };

for (const name of enabledAdapters()) {
  describe(`renderMigrationFile() on ${name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "fragment-migration-file-"));
    let database: TestDatabase | undefined;
    /** Runs SQL text as one script, the way a user applies a file by hand. */
    const applyByHand = async (sql: string): Promise<void> => {
      if (database) {
        const file = join(dir, "migration.sql");
        writeFileSync(file, sql);
        execFileSync(
          "psql",
          ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", database.url, "-f", file],
          {
            stdio: "pipe",
          },
        );
        return;
      }
      const pg = await PGlite.create(join(dir, "pglite"));
      try {
        await pg.exec(sql);
      } finally {
        await pg.close();
      }
    };
    const open = (): SqlAdapter =>
      database
        ? postgresAdapter(database.url, { max: 2 })
        : pgliteAdapter({ dataDir: join(dir, "pglite") });

    before(async () => {
      if (name === "postgres") database = await createTestDatabase();
    }, slow);
    after(async () => {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("records the same versions and fingerprints as migrate(), in two steps", slow, async () => {
      await applyByHand(renderMigrationFile(schema, { namespace: "by_hand", from: 0, to: 2 }));
      await applyByHand(renderMigrationFile(schema, { namespace: "by_hand", from: 2 }));
      const db = open();
      try {
        await migrate(db, schema, { namespace: "by_runner" });
        const statuses = await migrationStatus(db, [
          { schema, namespace: "by_hand" },
          { schema, namespace: "by_runner" },
        ]);
        assert.deepEqual(statuses.map((s) => [s.namespace, s.databaseVersion, s.status, s.drift]), [
          ["by_hand", 3, "up-to-date", null],
          ["by_runner", 3, "up-to-date", null],
        ]);
        const steps = await db.query<
          { namespace: string; version: number; fingerprint: string; description: string }
        >(
          `SELECT namespace, version, fingerprint, description FROM fragment_internal.applied_steps
           WHERE namespace IN ('by_hand', 'by_runner') ORDER BY namespace, version`,
        );
        const of = (ns: string) =>
          steps.filter((s) => s.namespace === ns).map(({ namespace: _, ...rest }) => rest);
        assert.equal(of("by_hand").length, 3);
        // The namespace is part of each statement, hence of the fingerprint: compare descriptions
        // and check the runner finds no drift (above) instead.
        assert.deepEqual(
          of("by_hand").map((s) => s.description),
          of("by_runner").map((s) => s.description),
        );
        const result = await migrate(db, schema, { namespace: "by_hand" });
        assert.equal(result.status, "up-to-date");
      } finally {
        await db.close();
      }
    });

    it(
      "refuses, changing nothing, a database not at the file's starting version",
      slow,
      async () => {
        await assert.rejects(
          applyByHand(renderMigrationFile(schema, { namespace: "by_hand", from: 1 })),
          /Namespace "by_hand" is at version 3, this file migrates it from version 1; nothing applied/,
        );
        const db = open();
        try {
          const [status] = await migrationStatus(db, [{ schema, namespace: "by_hand" }]);
          assert.deepEqual([status.databaseVersion, status.status], [3, "up-to-date"]);
        } finally {
          await db.close();
        }
      },
    );
  });
}
