// Scheduled hooks across processes on the PostgreSQL server (PGlite is single-process): two
// processes whose clocks say the same time both insert the same eleven slots at once; each slot
// gets one occurrence and runs once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { planMigration } from "../../src/migrate/mod.ts";
import { postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { withHookTable } from "../../src/hooks/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const schema = defineSchema("cron_xproc", (s) =>
  withHookTable(
    s.createTable("runs", {
      id: column.bigint().identity().primaryKey(),
      occurrence_id: column.bigint(),
      scheduled_for: column.text(),
      pid: column.integer(),
    }),
  ));

const WORKER = fileURLToPath(new URL("../fixtures/cron_worker.ts", import.meta.url));

describe("scheduled hooks across processes (PostgreSQL)", {
  skip: !enabledAdapters().includes("postgres"),
}, () => {
  let database: TestDatabase;
  let db: SqlAdapter;
  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it("two processes run exactly one occurrence per slot", { timeout: 120_000 }, async () => {
    const namespace = "cron_xproc";
    const plan = planMigration(schema, { from: 0, namespace });
    await db.transaction(async (tx) => {
      for (const step of plan.steps) for (const sql of step.statements) await tx.query(sql);
    });
    const clock = "2026-01-10T09:00:30Z";
    const results = await Promise.all([
      runScript(WORKER, [database.url, namespace, clock]),
      runScript(WORKER, [database.url, namespace, clock]),
    ]);
    for (const result of results) assert.equal(result.code, 0, result.stderr);

    const occurrences = await db.query<{ key: string; status: string; attempts: number }>(
      `SELECT key, status, attempts FROM "${namespace}".hook_occurrences ORDER BY key`,
    );
    const expected = Array.from({ length: 11 }, (_, i) => `cron:2026-01-10T08:${50 + i}Z`)
      .map((key) => key.replace("08:60", "09:00"));
    assert.deepEqual(occurrences.map((row) => row.key), expected);
    assert.ok(occurrences.every((row) => row.status === "done" && row.attempts === 1));
    const runs = await db.query<{ scheduled_for: string; n: number }>(
      `SELECT scheduled_for, count(*)::int4 AS n FROM "${namespace}".runs
        GROUP BY scheduled_for ORDER BY scheduled_for`,
    );
    assert.equal(runs.length, 11);
    assert.ok(runs.every((row) => row.n === 1), JSON.stringify(runs));
  });
});
