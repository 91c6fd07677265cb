// withHookPartialKeyIndex on PGlite and the PostgreSQL server: it refuses a schema without the
// hook table and adds two versions (three after a hand-off); the unique index then holds keyed
// occurrences only, and every way of enqueueing (one, a batch, an ordered batch through
// hook_enqueue_ordered(), a fragment in the caller's statement, a scheduled slot) still
// deduplicates by (name, key) and runs what it stored.
import { it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  withHookCompletionById,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookPartialKeyIndex,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const items = () => ({ id: column.integer().primaryKey() });
const handOffSteps = defineSchema(
  "key_index_test",
  (s) =>
    withHookCompletionById(withHookHandOffLookup(withHookHandOff(withHookFunctions(
      withHookOrdering(withHookTable(s.createTable("items", items()))),
    )))),
);
const schema = defineSchema("key_index_test", (s) =>
  withHookPartialKeyIndex(
    withHookCompletionById(withHookHandOffLookup(withHookHandOff(withHookFunctions(
      withHookOrdering(withHookTable(s.createTable("items", items()))),
    )))),
  ));

it("withHookPartialKeyIndex refuses a schema without the hook table; adds 2 versions, 3 after a hand-off", () => {
  assert.throws(
    () => defineSchema("no_table", (s) => withHookPartialKeyIndex(s)),
    /needs the hook table/,
  );
  const table = defineSchema("v", (s) => withHookTable(s.createTable("items", items())));
  const partial = defineSchema(
    "v",
    (s) => withHookPartialKeyIndex(withHookTable(s.createTable("items", items()))),
  );
  assert.equal(partial.version, table.version + 2);
  assert.equal(schema.version, handOffSteps.version + 3);
});

forEachAdapter((adapterName, getAdapter) => {
  let count = 0;
  async function setUp() {
    const namespace = `key_index_${adapterName}_${++count}`;
    const db = getAdapter();
    // Occurrences stored before the step keep their keys' uniqueness through it.
    await migrate(db, handOffSteps, { namespace });
    const before = durableHooks({ adapter: db, namespace, hooks: { probe: () => {} } });
    await before.enqueue(db, { name: "probe", key: "kept", payload: { n: 0 } });
    await before.enqueue(db, { name: "probe", payload: { n: 1 } });
    await migrate(db, schema, { namespace });
    return { db, namespace, table: `"${namespace}".hook_occurrences` };
  }

  it("the unique index holds keyed occurrences only, and the full one is gone", async () => {
    const { db, namespace } = await setUp();
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = $1 AND tablename = 'hook_occurrences' AND indexdef LIKE '%(name, key)%'`,
      [namespace],
    );
    assert.equal(indexes.length, 1);
    assert.equal(indexes[0].indexname, "hook_occurrences_keyed_idx");
    assert.match(indexes[0].indexdef, /^CREATE UNIQUE INDEX .* WHERE \(key IS NOT NULL\)$/);
  });

  it("enqueue, enqueueMany, ordered batches and enqueueSql deduplicate by (name, key)", async () => {
    const { db, namespace, table } = await setUp();
    const ran: unknown[] = [];
    const hooks = durableHooks({
      adapter: db,
      namespace,
      hooks: { probe: (payload) => void ran.push(payload), other: () => {} },
    });
    const kept = await hooks.enqueue(db, { name: "probe", key: "kept", payload: { n: 2 } });
    assert.equal(kept.duplicate, true);
    // The same key under another hook name is another occurrence.
    assert.equal((await hooks.enqueue(db, { name: "other", key: "kept" })).duplicate, false);
    const batch = await hooks.enqueueMany(db, [
      { name: "probe", key: "a", payload: { n: 3 } },
      { name: "probe", key: "a", payload: { n: 4 } },
      { name: "probe", payload: { n: 5 } },
      { name: "probe", payload: { n: 6 } },
    ]);
    assert.deepEqual(batch.map((r) => r.duplicate), [false, true, false, false]);
    assert.equal(batch[1].id, batch[0].id);
    // An ordered batch goes through hook_enqueue_ordered(), created again by the step.
    const ordered = await hooks.enqueueMany(db, [
      { name: "probe", key: "b", orderKey: "chat-1", payload: { n: 7 } },
      { name: "probe", key: "b", orderKey: "chat-1", payload: { n: 8 } },
      { name: "probe", key: "kept", orderKey: "chat-1", payload: { n: 9 } },
      { name: "probe", orderKey: "chat-1", payload: { n: 10 } },
    ]);
    assert.deepEqual(ordered.map((r) => r.duplicate), [false, true, true, false]);
    // The fragment in the caller's own statement, run twice with one key.
    for (let round = 0; round < 2; round++) {
      const fragment = hooks.enqueueSql({ name: "probe", key: "c", payload: { n: 11 + round } });
      await db.query(`WITH hook AS (${fragment.sql}) SELECT id FROM hook`, fragment.params);
    }
    const [{ keyed, unkeyed }] = await db.query<{ keyed: number; unkeyed: number }>(
      `SELECT count(*) FILTER (WHERE key IS NOT NULL)::int AS keyed,
              count(*) FILTER (WHERE key IS NULL)::int AS unkeyed
       FROM ${table} WHERE name = 'probe'`,
    );
    assert.deepEqual({ keyed, unkeyed }, { keyed: 4, unkeyed: 4 });
    await hooks.drain();
    assert.deepEqual(
      ran.map((p) => (p as { n: number }).n).sort((a, b) => a - b),
      [0, 1, 3, 5, 6, 7, 10, 11],
    );
  });

  it("a scheduled hook's slot is stored and run once by two workers", async () => {
    const { db, namespace, table } = await setUp();
    let now = Date.parse("2026-01-05T10:00:30Z");
    let runs = 0;
    const worker = () =>
      durableHooks({
        adapter: db,
        namespace,
        now: () => new Date(now),
        hooks: { tick: { schedule: "* * * * *", handler: () => void runs++ } },
      });
    const [a, b] = [worker(), worker()];
    // Both insert the 10:00 slot (within the minute of grace), then the 10:01 one.
    await Promise.all([a.drain(), b.drain()]);
    now = Date.parse("2026-01-05T10:01:00.500Z");
    await Promise.all([a.drain(), b.drain()]);
    const rows = await db.query<{ key: string }>(
      `SELECT key FROM ${table} WHERE name = 'tick' ORDER BY key`,
    );
    assert.deepEqual(rows.map((r) => r.key), ["cron:2026-01-05T10:00Z", "cron:2026-01-05T10:01Z"]);
    assert.equal(runs, 2);
  });
});
