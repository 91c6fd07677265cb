import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { forEachAdapter } from "../helpers/databases.ts";
import { runtimeArgs } from "../helpers/spawn_runtime.ts";
import type { SqlAdapter } from "../../src/sql/adapter.ts";
import { SqlError } from "../../src/sql/adapter_errors.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";
import { migrate, type MigrateResult } from "../../src/migrate/migration_runner.ts";
import { migrationStatus } from "../../src/migrate/migration_status.ts";
import {
  DatabaseAheadError,
  MigrationConflictError,
  MigrationStepError,
  MigrationTargetError,
  SchemaDriftError,
} from "../../src/migrate/migration_errors.ts";
import {
  brokenSchema,
  editedNotesSchema,
  notesSchema,
  olderNotesSchema,
  slowSchema,
} from "../fixtures/migration_schemas.ts";

const child = fileURLToPath(new URL("../fixtures/migrate_child.ts", import.meta.url));

async function versionOf(db: SqlAdapter, namespace: string): Promise<number | null> {
  const rows = await db.query<{ version: number }>(
    `SELECT version FROM fragment_internal.schema_versions WHERE namespace = $1`,
    [namespace],
  );
  return rows[0]?.version ?? null;
}

async function tableExists(db: SqlAdapter, name: string): Promise<boolean> {
  const [row] = await db.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [name]);
  return row.t !== null;
}

function runChild(url: string, namespace: string): Promise<MigrateResult> {
  const proc = spawn(process.execPath, runtimeArgs(child, [url, namespace]), {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (c) => (out += String(c)));
  proc.stderr!.on("data", (c) => (err += String(c)));
  return new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("close", (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split("\n").pop()!));
    });
  });
}

forEachAdapter((name, getAdapter, getUrl) => {
  describe(`${name}: migrate() and migrationStatus()`, () => {
    it("migrationStatus() on a fresh database reads version 0 and creates nothing", async () => {
      const db = getAdapter();
      const [status] = await migrationStatus(db, [notesSchema]);
      assert.deepEqual(status, {
        namespace: "notes",
        schema: "notes",
        codeVersion: 3,
        databaseVersion: 0,
        pendingSteps: [
          { version: 1, description: 'createTable "note"' },
          { version: 2, description: status.pendingSteps[1].description },
          { version: 3, description: status.pendingSteps[2].description },
        ],
        drift: null,
        status: "pending",
      });
      assert.equal(await tableExists(db, "fragment_internal.schema_versions"), false);
    });

    it("applies every step once; a second run changes nothing and says so", async () => {
      const db = getAdapter();
      const first = await migrate(db, notesSchema);
      assert.equal(first.status, "applied");
      assert.equal(first.from, 0);
      assert.equal(first.to, 3);
      assert.deepEqual(first.applied.map((s) => s.version), [1, 2, 3]);
      await db.query(`INSERT INTO notes.note (id, body) VALUES ('a', 'kept')`);
      const second = await migrate(db, notesSchema);
      assert.deepEqual(second, {
        schema: "notes",
        namespace: "notes",
        from: 3,
        to: 3,
        applied: [],
        status: "up-to-date",
      });
      assert.equal(await versionOf(db, "notes"), 3);
      assert.deepEqual(await db.query("SELECT id, pinned FROM notes.note"), [
        { id: "a", pinned: false },
      ]);
      const [status] = await migrationStatus(db, [notesSchema]);
      assert.equal(status.status, "up-to-date");
      assert.deepEqual(status.pendingSteps, []);
    });

    it("migrates step by step with `to`, and refuses to go down or past the code", async () => {
      const db = getAdapter();
      const options = { namespace: "notes_steps" };
      assert.equal((await migrate(db, notesSchema, { ...options, to: 1 })).to, 1);
      assert.equal(await versionOf(db, "notes_steps"), 1);
      const next = await migrate(db, notesSchema, { ...options, to: 2 });
      assert.deepEqual([next.from, next.to], [1, 2]);
      await assert.rejects(migrate(db, notesSchema, { ...options, to: 1 }), MigrationTargetError);
      await assert.rejects(migrate(db, notesSchema, { ...options, to: 4 }), MigrationTargetError);
      assert.equal(await versionOf(db, "notes_steps"), 2);
      const [status] = await migrationStatus(db, [{
        schema: notesSchema,
        namespace: "notes_steps",
      }]);
      assert.deepEqual(status.pendingSteps.map((s) => s.version), [3]);
    });

    it("expectedFrom different from the database fails naming both versions, applying nothing", async () => {
      const db = getAdapter();
      const options = { namespace: "notes_expected" };
      await migrate(db, notesSchema, { ...options, to: 1 });
      await assert.rejects(migrate(db, notesSchema, { ...options, expectedFrom: 0 }), (error) => {
        assert.ok(error instanceof MigrationConflictError);
        assert.equal(error.expectedVersion, 0);
        assert.equal(error.databaseVersion, 1);
        assert.match(error.message, /version 1, expected version 0/);
        return true;
      });
      assert.equal(await versionOf(db, "notes_expected"), 1);
      assert.equal(
        (await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM information_schema.columns
           WHERE table_schema = 'notes_expected' AND column_name = 'pinned'`,
        ))[0].n,
        "0",
      );
      const ok = await migrate(db, notesSchema, { ...options, expectedFrom: 1 });
      assert.equal(ok.to, 3);
    });

    it("a failing statement rolls every step back", async () => {
      const db = getAdapter();
      await assert.rejects(migrate(db, brokenSchema), (error) => {
        assert.ok(error instanceof MigrationStepError);
        assert.equal(error.step, 2);
        assert.ok(error.cause instanceof SqlError);
        assert.equal(error.cause.code, "42601");
        return true;
      });
      assert.equal(await versionOf(db, "broken"), null);
      assert.equal(await tableExists(db, "broken.first"), false, "step 1 rolled back too");
      const [status] = await migrationStatus(db, [brokenSchema]);
      assert.equal(status.databaseVersion, 0);
    });

    it("a database ahead of the code is a clear error", async () => {
      const db = getAdapter();
      await assert.rejects(migrate(db, olderNotesSchema), (error) => {
        assert.ok(error instanceof DatabaseAheadError);
        assert.equal(error.databaseVersion, 3);
        assert.equal(error.codeVersion, 1);
        return true;
      });
      const [status] = await migrationStatus(db, [olderNotesSchema]);
      assert.equal(status.status, "ahead");
    });

    it("an edited, already-applied step is drift naming the step", async () => {
      const db = getAdapter();
      await assert.rejects(migrate(db, editedNotesSchema), (error) => {
        assert.ok(error instanceof SchemaDriftError);
        assert.equal(error.step, 1);
        assert.match(error.message, /step 1 \(createTable "note"\)/);
        return true;
      });
      const [status] = await migrationStatus(db, [editedNotesSchema]);
      assert.equal(status.drift, 1);
      assert.equal(status.status, "drift");
      assert.deepEqual(status.pendingSteps, []);
    });

    it("two runners at once: exactly one applies, the other waits and finds nothing", async () => {
      const db = getAdapter();
      const url = getUrl();
      // PGlite has one connection per process; on PostgreSQL use a second pool.
      const other = url === undefined ? db : postgresAdapter(url);
      try {
        const results = await Promise.all([
          migrate(db, slowSchema, { namespace: "slow_pair" }),
          migrate(other, slowSchema, { namespace: "slow_pair" }),
        ]);
        assert.deepEqual(results.map((r) => r.status).sort(), ["applied", "up-to-date"]);
        assert.deepEqual(
          await db.query("SELECT id FROM slow_pair.item"),
          [{ id: "only once" }],
        );
        assert.equal(await versionOf(db, "slow_pair"), 3);
      } finally {
        if (other !== db) await other.close();
      }
    });

    if (name === "postgres") {
      it("two runner processes at once: exactly one applies", { timeout: 60_000 }, async () => {
        const db = getAdapter();
        const url = getUrl()!;
        const results = await Promise.all([
          runChild(url, "slow_procs"),
          runChild(url, "slow_procs"),
        ]);
        assert.deepEqual(results.map((r) => r.status).sort(), ["applied", "up-to-date"]);
        assert.deepEqual(await db.query("SELECT id FROM slow_procs.item"), [{ id: "only once" }]);
      });
    }

    it("reading the version does not turn errors into version 0", async () => {
      const db = getAdapter();
      await db.query(`ALTER TABLE fragment_internal.schema_versions RENAME COLUMN version TO v`);
      try {
        await assert.rejects(migrate(db, notesSchema), { name: "SqlError", code: "42703" });
        await assert.rejects(migrationStatus(db, [notesSchema]), { code: "42703" });
      } finally {
        await db.query(`ALTER TABLE fragment_internal.schema_versions RENAME COLUMN v TO version`);
      }
      assert.equal((await migrate(db, notesSchema)).status, "up-to-date");
    });

    it("refuses the internal namespace", async () => {
      await assert.rejects(
        migrate(getAdapter(), notesSchema, { namespace: "fragment_internal" }),
        MigrationTargetError,
      );
    });
  });
});
