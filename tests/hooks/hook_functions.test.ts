// The hook worker's SQL functions (withHookFunctions) on PGlite and the PostgreSQL server: claims
// and completions are one statement each, no transaction; an ordering key's next occurrence is
// handed to the worker that finished the one before it, without a claim; a batch whose key is
// busy completes the others at once and waits for that key alone; the functions carry the
// planner settings of the worker's statements. Every case runs twice: with the functions of
// withHookFunctions, and with its completion replaced by withHookCompletionById's.
import { it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  type DurableHooksOptions,
  withHookCompletionById,
  withHookFunctions,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate, type PlannableSchema } from "../../src/migrate/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const items = () => ({ id: column.integer().primaryKey() });
const orderedSchema = defineSchema(
  "functions_test",
  (s) => withHookFunctions(withHookOrdering(withHookTable(s.createTable("items", items())))),
);
/** The functions without ordering keys: the claim's branch without `order_key`. */
const plainSchema = defineSchema(
  "functions_test",
  (s) => withHookFunctions(withHookTable(s.createTable("items", items()))),
);

const VARIANTS = [
  ["", plainSchema, orderedSchema],
  [
    ", by id",
    defineSchema(
      "functions_test",
      (s) =>
        withHookCompletionById(withHookFunctions(withHookTable(s.createTable("items", items())))),
    ),
    defineSchema("functions_test", (s) =>
      withHookCompletionById(
        withHookFunctions(withHookOrdering(withHookTable(s.createTable("items", items())))),
      )),
  ],
] as const;

/** The adapter, counting the statements that call each of the two functions. */
function counting(
  db: SqlAdapter,
): { adapter: SqlAdapter; calls: { claim: number; complete: number } } {
  const calls = { claim: 0, complete: 0 };
  const adapter = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver);
      return (sql: string, params?: readonly unknown[]) => {
        if (/"hook_claim"\(/.test(sql)) calls.claim++;
        if (/"hook_complete"\(/.test(sql)) calls.complete++;
        return target.query(sql, params);
      };
    },
  });
  return { adapter, calls };
}

for (const [variant, plainSchema, orderedSchema] of VARIANTS) {
  forEachAdapter((adapterName, getAdapter) => {
    const name = `${adapterName}${variant}`;
    let count = 0;
    async function setUp(
      schema: PlannableSchema,
      handler: (payload: unknown) => void | Promise<void>,
      options: Partial<DurableHooksOptions> = {},
    ) {
      const namespace = `functions_${adapterName}${variant === "" ? "" : "_by_id"}_${++count}`;
      await migrate(getAdapter(), schema, { namespace });
      const { adapter, calls } = counting(getAdapter());
      const hooks = durableHooks({
        adapter,
        namespace,
        hooks: { work: handler },
        onError: (error) => console.error(error),
        concurrency: 8,
        ...options,
      });
      return { namespace, hooks, calls };
    }

    it(`${name}: claims and completions are single statements, in no transaction`, async () => {
      const db = getAdapter();
      let ran = 0;
      const { hooks, calls } = await setUp(plainSchema, () => void ran++);
      await hooks.enqueueMany(db, Array.from({ length: 300 }, () => ({ name: "work" })));
      const before = { ...db.stats };
      assert.deepEqual(await hooks.drain(), { done: 300, retried: 0, failed: 0 });
      assert.equal(ran, 300);
      assert.equal(db.stats.transactions - before.transactions, 0, "no BEGIN … COMMIT");
      assert.ok(calls.claim >= 1 && calls.complete >= 1);
      // Batched: far fewer statements than one claim and one completion per occurrence.
      assert.ok(db.stats.queries - before.queries < 100, `${db.stats.queries - before.queries}`);
    });

    it(`${name}: a finished key's next occurrence is handed to the same worker, without a claim`, async () => {
      const db = getAdapter();
      const runs: { key: string; seq: number }[] = [];
      const { hooks, calls } = await setUp(orderedSchema, (payload) => {
        runs.push(payload as { key: string; seq: number });
      });
      const keys = ["a", "b", "c"];
      const depth = 30;
      await db.transaction(async (tx) => {
        for (let seq = 0; seq < depth; seq++) {
          for (const key of keys) {
            await hooks.enqueue(tx, { name: "work", orderKey: key, payload: { key, seq } });
          }
        }
      });
      assert.deepEqual(await hooks.drain(), { done: 90, retried: 0, failed: 0 });
      for (const key of keys) {
        assert.deepEqual(
          runs.filter((r) => r.key === key).map((r) => r.seq),
          Array.from({ length: depth }, (_, i) => i),
          `key ${key} ran in enqueue order`,
        );
      }
      // Without the hand-off each of the 90 needs a claim that finds it pending: here a claim at
      // the start, one when each key runs out, and the last look.
      assert.ok(calls.claim <= 10, `${calls.claim} claims for 90 ordered occurrences`);
      const counts = await hooks.counts();
      assert.deepEqual([counts.pending, counts.running, counts.blocked], [0, 0, 0]);
    });

    it(`${name}: a hand-off respects retries: a failing occurrence holds its key back`, async () => {
      const db = getAdapter();
      const runs: string[] = [];
      let failures = 0;
      const { hooks } = await setUp(orderedSchema, (payload) => {
        const { seq } = payload as { seq: number };
        runs.push(`${seq}`);
        if (seq === 1 && failures++ < 2) throw new Error("not yet");
      }, { retryDelayMs: 5, maxRetryDelayMs: 10, onError: () => {} });
      for (const seq of [0, 1, 2]) {
        await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq } });
      }
      assert.deepEqual(await hooks.drain({ waitForScheduled: true }), {
        done: 3,
        retried: 2,
        failed: 0,
      });
      assert.deepEqual(runs, ["0", "1", "1", "1", "2"]);
    });

    it(`${name}: both functions run with sequential scans, sorts and JIT turned off`, async () => {
      const { namespace } = await setUp(orderedSchema, () => {});
      const rows = await getAdapter().query<{ proname: string; proconfig: string[] }>(
        `SELECT proname, proconfig FROM pg_proc
       WHERE pronamespace = to_regnamespace($1) AND proname LIKE 'hook\\_c%' ORDER BY proname`,
        [namespace],
      );
      assert.deepEqual(rows.map((r) => [r.proname, [...r.proconfig].sort()]), [
        ["hook_claim", ["enable_seqscan=off", "enable_sort=off", "jit=off"]],
        ["hook_complete", ["enable_seqscan=off", "enable_sort=off", "jit=off"]],
      ]);
    });

    // PostgreSQL only: PGlite has one connection, so no other transaction can hold a key's lock.
    if (adapterName !== "postgres") return;

    it(`${name}: a batch whose key is busy completes the other keys at once, then waits for it`, async () => {
      const db = getAdapter();
      const started = new Set<string>();
      let bothStarted!: () => void;
      const both = new Promise<void>((resolve) => (bothStarted = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const { namespace, hooks } = await setUp(orderedSchema, async (payload) => {
        started.add((payload as { key: string }).key);
        if (started.size === 2) bothStarted();
        await gate; // both handlers end together: their completions share one statement
      });
      const a = await hooks.enqueue(db, { name: "work", orderKey: "a", payload: { key: "a" } });
      const b = await hooks.enqueue(db, { name: "work", orderKey: "b", payload: { key: "b" } });
      // Another transaction holds key "a" (an enqueue of that key would): the completion of "a"
      // must wait for it, the one of "b" must not.
      let unlock!: () => void;
      const unlocked = new Promise<void>((resolve) => (unlock = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext('a'))", [namespace]);
        locked();
        await unlocked;
      });
      await holding;
      const draining = hooks.drain({ timeoutMs: 30_000 });
      await both;
      release();
      for (let look = 0; (await hooks.get(b.id))?.status !== "done"; look++) {
        assert.ok(look < 1000, "b's completion waited for a's key");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal((await hooks.get(a.id))?.status, "running", "a waits for its key");
      unlock();
      await holder;
      assert.deepEqual(await draining, { done: 2, retried: 0, failed: 0 });
      assert.equal((await hooks.get(a.id))?.status, "done");
    });
  });
}
