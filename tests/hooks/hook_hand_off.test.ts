// The direct hand-off of withHookHandOff on PGlite and the PostgreSQL server: a completion takes
// the finished key's next occurrence from blocked straight to running for the same worker (one
// row version less per ordered step, no per-row trigger), keeps each key in enqueue order, makes
// the next occurrence pending when the worker does not run its hook, and leaves failures to the
// ordering trigger. Every case runs four times: with withHookHandOff's completion function, with
// the one of withHookHandOffLookup (the next occurrence found by a walk of the ordering index),
// and with each of them after withHookCompletionById (every row found by id).
import { it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  type DurableHooksOptions,
  withHookCompletionById,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

type Builder = Parameters<Parameters<typeof defineSchema>[1]>[0];

const handOffSteps = (s: Builder) =>
  withHookHandOff(withHookFunctions(withHookOrdering(
    withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
  )));

const schema = defineSchema("hand_off_test", handOffSteps);

const walkSchema = defineSchema(
  "hand_off_walk_test",
  (s) => withHookHandOffLookup(handOffSteps(s)),
);

const VARIANTS = [
  ["hand-off", schema],
  ["index walk", walkSchema],
  [
    "hand-off by id",
    defineSchema("hand_off_test", (s) => withHookCompletionById(handOffSteps(s))),
  ],
  [
    "index walk by id",
    defineSchema(
      "hand_off_walk_test",
      (s) => withHookCompletionById(withHookHandOffLookup(handOffSteps(s))),
    ),
  ],
] as const;

it("withHookHandOffLookup refuses a schema without withHookHandOff", () => {
  assert.throws(
    () =>
      defineSchema(
        "no_hand_off",
        (s) => withHookHandOffLookup(withHookFunctions(withHookOrdering(withHookTable(s)))),
      ),
    /after it/,
  );
  assert.equal(walkSchema.version, schema.version + 1);
});

it("withHookHandOff refuses a hook table without ordering keys", () => {
  assert.throws(
    () => defineSchema("no_order", (s) => withHookHandOff(withHookFunctions(withHookTable(s)))),
    /after withHookOrdering/,
  );
});

for (const [variant, variantSchema] of VARIANTS) {
  forEachAdapter((adapterName, getAdapter) => {
    const name = `${adapterName}, ${variant}`;
    const prefix = variant.replaceAll(" ", "_").replace("-", "_");
    let count = 0;

    /** A migrated namespace whose status changes are logged (old → new, per occurrence). */
    async function setUp() {
      const namespace = `hand_off_${adapterName}_${prefix}_${++count}`;
      const db = getAdapter();
      await migrate(db, variantSchema, { namespace });
      const table = `"${namespace}"."hook_occurrences"`;
      await db.query(`CREATE TABLE "${namespace}".transitions (
      seq bigint GENERATED ALWAYS AS IDENTITY, id int8, old text, new text)`);
      await db.query(`CREATE FUNCTION "${namespace}".log_transition() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO "${namespace}".transitions (id, old, new) VALUES (NEW.id, OLD.status, NEW.status);
        RETURN NULL; END $$`);
      await db.query(`CREATE TRIGGER zz_log AFTER UPDATE OF status ON ${table} FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION "${namespace}".log_transition()`);
      const transitions = async () =>
        (await db.query<{ id: string; old: string; new: string }>(
          `SELECT id::text AS id, old, new FROM "${namespace}".transitions ORDER BY seq`,
        )).map((t) => `${t.old}>${t.new}`);
      return { namespace, db, transitions };
    }

    function hooksOf(
      namespace: string,
      hooks: DurableHooksOptions["hooks"],
      options: Partial<DurableHooksOptions> = {},
    ) {
      return durableHooks({
        adapter: getAdapter(),
        namespace,
        hooks,
        onError: () => {},
        concurrency: 8,
        ...options,
      });
    }

    it(`${name}: a key's next occurrence goes from blocked to running, in key order`, async () => {
      const { namespace, db, transitions } = await setUp();
      const runs: { key: string; seq: number }[] = [];
      const hooks = hooksOf(namespace, {
        work: (payload) => void runs.push(payload as { key: string; seq: number }),
      });
      const keys = ["a", "b", "c"];
      const depth = 20;
      await db.transaction(async (tx) => {
        for (let seq = 0; seq < depth; seq++) {
          for (const key of keys) {
            await hooks.enqueue(tx, { name: "work", orderKey: key, payload: { key, seq } });
          }
        }
      });
      assert.deepEqual(await hooks.drain(), { done: 60, retried: 0, failed: 0 });
      for (const key of keys) {
        assert.deepEqual(
          runs.filter((r) => r.key === key).map((r) => r.seq),
          Array.from({ length: depth }, (_, i) => i),
          `key ${key} ran in enqueue order`,
        );
      }
      const log = await transitions();
      const tally = (t: string) => log.filter((x) => x === t).length;
      // Every occurrence but the three heads was handed on; none went through pending.
      assert.equal(tally("blocked>running"), 57, log.join(" "));
      assert.equal(tally("blocked>pending"), 0);
      assert.equal(tally("pending>running"), 3);
      assert.equal(tally("running>done"), 60);
      assert.equal(log.length, 120, "two row versions per occurrence after its insert");
    });

    it(`${name}: the next occurrence of a hook the worker does not run becomes pending`, async () => {
      const { namespace, db, transitions } = await setUp();
      const order: string[] = [];
      const first = hooksOf(namespace, { work: () => void order.push("work") });
      const second = hooksOf(namespace, { other: () => void order.push("other") });
      await first.enqueue(db, { name: "work", orderKey: "k" });
      await second.enqueue(db, { name: "other", orderKey: "k" });
      await first.enqueue(db, { name: "work", orderKey: "k" });
      assert.deepEqual(await first.drain(), { done: 1, retried: 0, failed: 0 });
      assert.deepEqual(
        await first.drain(),
        { done: 0, retried: 0, failed: 0 },
        "k waits for other",
      );
      assert.deepEqual(await second.drain(), { done: 1, retried: 0, failed: 0 });
      assert.deepEqual(await first.drain(), { done: 1, retried: 0, failed: 0 });
      assert.deepEqual(order, ["work", "other", "work"]);
      const log = await transitions();
      // Each of the two later occurrences was released to pending by a worker that does not run it.
      assert.deepEqual(log, [
        "pending>running",
        "running>done",
        "blocked>pending",
        "pending>running",
        "running>done",
        "blocked>pending",
        "pending>running",
        "running>done",
      ]);
    });

    it(`${name}: enqueueSql({ inOneCall }) stores each key's waiting occurrences blocked at once`, async () => {
      const { namespace, db } = await setUp();
      const runs: string[] = [];
      const hooks = hooksOf(namespace, { work: (payload) => void runs.push(String(payload)) });
      // z1 already ran (key m is free again); x1 is pending (key k is busy).
      await hooks.enqueue(db, { name: "work", key: "z1", orderKey: "m", payload: "z1" });
      assert.deepEqual(await hooks.drain(), { done: 1, retried: 0, failed: 0 });
      await hooks.enqueue(db, { name: "work", key: "x1", orderKey: "k", payload: "x1" });
      const hook = hooks.enqueueSql({ name: "work" }, {
        from: "src",
        keySql: "src.key",
        payloadSql: "to_jsonb(src.key)",
        orderKeySql: "src.order_key",
        inOneCall: true,
      });
      const [row] = await db.query<{ enqueued: string }>(
        `WITH src AS (
         SELECT * FROM (VALUES ('x1', 'k', 1), ('x2', 'k', 2), ('y1', 'j', 3), ('y2', 'j', 4),
           ('u1', NULL, 5), ('z1', 'm', 6), ('z2', 'm', 7)) AS v(key, order_key, n) ORDER BY n
       ), hook AS (${hook.sql})
       SELECT enqueued::text AS enqueued FROM hook`,
        hook.params,
      );
      assert.equal(row.enqueued, "5", "x1 and z1 existed");
      const status = async (key: string) =>
        (await db.query<{ status: string }>(
          `SELECT status FROM "${namespace}".hook_occurrences WHERE key = $1`,
          [key],
        ))[0].status;
      assert.deepEqual(
        await Promise.all(["x1", "x2", "y1", "y2", "u1", "z2"].map(status)),
        // z2 was stored blocked behind z1, which was not inserted: it is released.
        ["pending", "blocked", "pending", "blocked", "pending", "pending"],
      );
      assert.deepEqual(await hooks.drain(), { done: 6, retried: 0, failed: 0 });
      const after = (a: string, b: string) => runs.indexOf(a) < runs.indexOf(b);
      assert.ok(after("x1", "x2") && after("y1", "y2"), runs.join(" "));
    });

    it(`${name}: a final failure still releases the key (the ordering trigger)`, async () => {
      const { namespace, db } = await setUp();
      const runs: number[] = [];
      const hooks = hooksOf(namespace, {
        work: (payload) => {
          const { seq } = payload as { seq: number };
          runs.push(seq);
          if (seq === 0) throw new Error("never");
        },
      }, { maxAttempts: 1 });
      for (const seq of [0, 1, 2]) {
        await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq } });
      }
      assert.deepEqual(await hooks.drain(), { done: 2, retried: 0, failed: 1 });
      assert.deepEqual(runs, [0, 1, 2]);
      const counts = await hooks.counts();
      assert.deepEqual([counts.pending, counts.running, counts.blocked], [0, 0, 0]);
    });
  });
}
