// Ordering keys of durable hooks (withHookOrdering) on PGlite and the PostgreSQL server: one key's
// occurrences run one at a time in enqueue order while different keys run in parallel; a retry
// holds the key back, a failure (out of attempts) or a cancel hands it on; blocked occurrences are
// visible to operators; a retried failure re-enters its key's chain; a table without the ordering
// steps refuses an orderKey. On both worker paths: the SQL functions of withHookFunctions (with the
// hand-off of a key to the worker that finished its previous occurrence) and the transactions used
// without them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  type DurableHooksOptions,
  hookAdmin,
  type HookHandler,
  withHookFunctions,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate, type PlannableSchema } from "../../src/migrate/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const transactionsSchema = defineSchema(
  "ordering_test",
  (s) =>
    withHookOrdering(withHookTable(s.createTable("items", { id: column.integer().primaryKey() }))),
);
const functionsSchema = defineSchema(
  "ordering_test",
  (s) =>
    withHookFunctions(
      withHookOrdering(
        withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
      ),
    ),
);
const VARIANTS = [["functions", functionsSchema], ["transactions", transactionsSchema]] as const;
const unorderedSchema = defineSchema(
  "ordering_test",
  (s) => withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
);

const quiet = (error: unknown): void => {
  // Failed attempts are expected in these tests; worker errors (a failed write) are not.
  if (!(error instanceof Error && /^(not yet|always|down)$/.test(error.message))) {
    console.error(error);
  }
};

/** One handler run, as the handlers record it. */
interface Run {
  key: string;
  seq: number;
  attempt: number;
  start: number;
  end: number;
}

/**
 * Asserts the ordering contract on recorded runs: per key, runs start in increasing `seq` (a run
 * may repeat its seq: a retry) and none starts before the previous one of its key ended.
 */
function assertOrdered(runs: readonly Run[]): void {
  const byKey = new Map<string, Run[]>();
  for (const run of runs) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  for (const [key, list] of byKey) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const [before, after] = [sorted[i - 1], sorted[i]];
      assert.ok(
        after.seq >= before.seq,
        `key ${key}: seq ${after.seq} started after seq ${before.seq}`,
      );
      assert.ok(
        after.start >= before.end,
        `key ${key}: seq ${after.seq} started before seq ${before.seq} ended (overlap)`,
      );
    }
  }
}

forEachAdapter((adapterName, getAdapter) => {
  let count = 0;
  VARIANTS.forEach(([variant, orderedSchema]) => {
    const name = `${adapterName}, ${variant}`;
    async function setUp(
      handler: HookHandler,
      options: Partial<DurableHooksOptions> = {},
      schema: PlannableSchema = orderedSchema,
    ) {
      const db: SqlAdapter = getAdapter();
      const namespace = `ordering_${adapterName}_${++count}`;
      await migrate(db, schema, { namespace });
      const hooks = durableHooks({
        adapter: db,
        namespace,
        hooks: { work: handler },
        onError: quiet,
        retryDelayMs: 20,
        maxRetryDelayMs: 40,
        pollIntervalMs: 50,
        ...options,
      });
      return { db, namespace, hooks, admin: hookAdmin({ adapter: db, namespace }) };
    }

    it(`${name}: one key's occurrences run one at a time in enqueue order, keys in parallel`, {
      timeout: 60_000,
    }, async () => {
      const runs: Run[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      const { db, hooks } = await setUp(async (payload) => {
        const { key, seq } = payload as { key: string; seq: number };
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 6));
        inFlight--;
        runs.push({ key, seq, attempt: 1, start, end: performance.now() });
      }, { concurrency: 8 });
      // 12 keys × 8 occurrences, enqueued interleaved at random, some while the worker runs.
      const next = new Map<string, number>();
      const order: string[] = [];
      for (let k = 0; k < 12; k++) for (let s = 0; s < 8; s++) order.push(`k${k}`);
      order.sort(() => Math.random() - 0.5);
      await hooks.start();
      try {
        for (let i = 0; i < order.length; i += 12) {
          await db.transaction(async (tx) => {
            for (const key of order.slice(i, i + 12)) {
              const seq = next.get(key) ?? 0;
              next.set(key, seq + 1);
              await hooks.enqueue(tx, { name: "work", orderKey: key, payload: { key, seq } });
            }
          });
          hooks.wake();
        }
        await hooks.drain({ waitForScheduled: true, timeoutMs: 50_000 });
        while (runs.length < order.length) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await hooks.stop();
      }
      assert.equal(runs.length, order.length);
      assertOrdered(runs);
      for (const [key, total] of next) {
        assert.deepEqual(
          runs.filter((r) => r.key === key).map((r) => r.seq),
          Array.from({ length: total }, (_, i) => i),
          `every occurrence of ${key} ran once, in order`,
        );
      }
      assert.ok(maxInFlight > 1, `different keys ran in parallel (at most ${maxInFlight} at once)`);
    });

    it(`${name}: an occurrence enqueued behind an unfinished one of its key is blocked`, async () => {
      const { db, hooks, admin } = await setUp(() => {});
      const ids: string[] = [];
      for (const key of ["a", "a", "b", "a"]) {
        ids.push((await hooks.enqueue(db, { name: "work", orderKey: key })).id);
      }
      const unordered = await hooks.enqueue(db, { name: "work" });
      const statuses = await Promise.all(ids.map(async (id) => (await hooks.get(id))!.status));
      assert.deepEqual(statuses, ["pending", "blocked", "pending", "blocked"]);
      assert.equal((await hooks.get(unordered.id))!.status, "pending");
      assert.equal((await hooks.get(ids[1]))!.orderKey, "a");
      const blocked = await admin.list({ status: "blocked", order: "newest" });
      assert.deepEqual(blocked.occurrences.map((o) => o.id), [ids[3], ids[1]]);
      const counts = await admin.counts();
      assert.equal(counts.blocked, 2);
      assert.equal(counts.pending, 3);
      // Draining runs them all: each key's blocked ones are released as the one before finishes.
      const result = await hooks.drain({ waitForScheduled: true });
      assert.equal(result.done, 5);
      assert.equal((await admin.counts()).blocked, 0);
    });

    it(`${name}: an occurrence waiting for a retry holds its key's later occurrences back`, {
      timeout: 30_000,
    }, async () => {
      const log: string[] = [];
      const { db, hooks } = await setUp((payload, { attempt }) => {
        const { seq } = payload as { seq: number };
        log.push(`${seq}#${attempt}`);
        if (seq === 0 && attempt < 3) throw new Error("not yet");
      }, { maxAttempts: 5 });
      for (let seq = 0; seq < 3; seq++) {
        await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq } });
      }
      await hooks.drain({ waitForScheduled: true, timeoutMs: 20_000 });
      assert.deepEqual(log, ["0#1", "0#2", "0#3", "1#1", "2#1"]);
    });

    it(`${name}: a failure (out of attempts) hands the key on and stays visible as failed`, {
      timeout: 30_000,
    }, async () => {
      const log: string[] = [];
      const { db, hooks, admin } = await setUp((payload, { attempt }) => {
        const { seq } = payload as { seq: number };
        log.push(`${seq}#${attempt}`);
        if (seq === 0) throw new Error("always");
      }, { maxAttempts: 2 });
      const first = await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq: 0 } });
      await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq: 1 } });
      const result = await hooks.drain({ waitForScheduled: true, timeoutMs: 20_000 });
      assert.deepEqual(log, ["0#1", "0#2", "1#1"]);
      assert.deepEqual(result, { done: 1, retried: 1, failed: 1 });
      const failed = await admin.list({ status: "failed", order: "newest" });
      assert.deepEqual(failed.occurrences.map((o) => o.id), [first.id]);
    });

    it(`${name}: cancelling the key's pending occurrence hands the key on; a blocked one is skipped`, async () => {
      const { db, hooks, admin } = await setUp(() => {});
      const later = new Date(Date.now() + 3_600_000);
      const a = await hooks.enqueue(db, { name: "work", orderKey: "k", runAt: later });
      const b = await hooks.enqueue(db, { name: "work", orderKey: "k" });
      const c = await hooks.enqueue(db, { name: "work", orderKey: "k" });
      // Cancelling a blocked one changes nothing for the others.
      assert.deepEqual((await admin.cancel([b.id])).changed, [b.id]);
      assert.equal((await hooks.get(c.id))!.status, "blocked");
      // Cancelling the key's pending one releases the next one still waiting.
      assert.deepEqual((await admin.cancel([a.id])).changed, [a.id]);
      assert.equal((await hooks.get(c.id))!.status, "pending");
      assert.deepEqual(await hooks.drain(), { done: 1, retried: 0, failed: 0 });
    });

    it(
      `${name}: a retried failure re-enters its key: behind the key's unfinished one, else at once`,
      {
        timeout: 30_000,
      },
      async () => {
        const log: string[] = [];
        let failing = true;
        const { db, hooks, admin } = await setUp((payload) => {
          const { seq } = payload as { seq: number };
          log.push(String(seq));
          if (seq === 0 && failing) throw new Error("down");
        }, { maxAttempts: 1 });
        const first = await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq: 0 } });
        await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq: 1 } });
        await hooks.drain({ waitForScheduled: true });
        assert.deepEqual(log, ["0", "1"]);
        // The key moved on. Now it holds a later occurrence (not due yet) and one behind it.
        const held = await hooks.enqueue(db, {
          name: "work",
          orderKey: "k",
          payload: { seq: 2 },
          runAt: new Date(Date.now() + 3_600_000),
        });
        const behind = await hooks.enqueue(db, {
          name: "work",
          orderKey: "k",
          payload: { seq: 3 },
        });
        failing = false;
        assert.deepEqual((await admin.retry([first.id])).changed, [first.id]);
        // It waits behind the key's pending occurrence, ahead of the one enqueued after it.
        assert.equal((await hooks.get(first.id))!.status, "blocked");
        await admin.cancel([held.id]);
        assert.equal((await hooks.get(first.id))!.status, "pending");
        assert.equal((await hooks.get(behind.id))!.status, "blocked");
        await hooks.drain({ waitForScheduled: true });
        assert.deepEqual(log, ["0", "1", "0", "3"]);
        // A retry on an idle key is pending at once.
        failing = true;
        const lone = await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq: 0 } });
        // (The key "k" is free: that one runs and fails.)
        await hooks.drain({ waitForScheduled: true });
        failing = false;
        assert.equal((await hooks.get(lone.id))!.status, "failed");
        assert.deepEqual(await admin.retryFailed(), [lone.id]);
        assert.equal((await hooks.get(lone.id))!.status, "pending");
      },
    );

    it(`${name}: retrying several failures of one key keeps their order`, async () => {
      const log: number[] = [];
      let failing = true;
      const { db, hooks, admin } = await setUp((payload) => {
        const { seq } = payload as { seq: number };
        log.push(seq);
        if (failing) throw new Error("down");
      }, { maxAttempts: 1 });
      const ids: string[] = [];
      for (let seq = 0; seq < 4; seq++) {
        ids.push((await hooks.enqueue(db, { name: "work", orderKey: "k", payload: { seq } })).id);
      }
      await hooks.drain({ waitForScheduled: true });
      assert.deepEqual(log, [0, 1, 2, 3]);
      failing = false;
      // Given in reverse: still re-entered oldest first.
      const retried = await admin.retry([...ids].reverse());
      assert.equal(retried.changed.length, 4);
      const statuses = await Promise.all(ids.map(async (id) => (await hooks.get(id))!.status));
      assert.deepEqual(statuses, ["pending", "blocked", "blocked", "blocked"]);
      await hooks.drain({ waitForScheduled: true });
      assert.deepEqual(log, [0, 1, 2, 3, 0, 1, 2, 3]);
    });

    it(`${name}: enqueueSql() with orderKeySql enqueues a statement's rows in order per key`, async () => {
      const log: string[] = [];
      const { db, namespace, hooks } = await setUp((payload) => {
        log.push((payload as { v: string }).v);
      });
      const hook = hooks.enqueueSql({ name: "work" }, {
        from: "rows",
        firstParam: 1,
        payloadSql: "jsonb_build_object('v', rows.k || rows.n)",
        orderKeySql: "rows.k",
      });
      await db.query(
        `WITH rows AS (
         SELECT * FROM (VALUES ('a', 1), ('b', 1), ('a', 2), ('a', 3), ('b', 2)) AS v(k, n)
         ORDER BY hashtext(k), n
       ), hook AS (${hook.sql})
       SELECT 1`,
        hook.params,
      );
      const rows = await db.query<{ order_key: string; status: string }>(
        `SELECT order_key, status FROM "${namespace}".hook_occurrences ORDER BY order_key, id`,
      );
      assert.deepEqual(rows.map((r) => `${r.order_key}:${r.status}`), [
        "a:pending",
        "a:blocked",
        "a:blocked",
        "b:pending",
        "b:blocked",
      ]);
      await hooks.drain({ waitForScheduled: true });
      assert.deepEqual(log.filter((v) => v.startsWith("a")), ["a1", "a2", "a3"]);
      assert.deepEqual(log.filter((v) => v.startsWith("b")), ["b1", "b2"]);
    });

    it(`${name}: deleting the key's pending occurrence hands the key on`, async () => {
      const { db, namespace, hooks } = await setUp(() => {});
      const a = await hooks.enqueue(db, { name: "work", orderKey: "k" });
      const b = await hooks.enqueue(db, { name: "work", orderKey: "k" });
      await db.query(`DELETE FROM "${namespace}".hook_occurrences WHERE id = $1`, [a.id]);
      assert.equal((await hooks.get(b.id))!.status, "pending");
    });

    it(`${name}: a hook table without the ordering steps refuses an orderKey, runs the others`, async () => {
      const { db, hooks } = await setUp(() => {}, {}, unorderedSchema);
      await assert.rejects(
        hooks.enqueue(db, { name: "work", orderKey: "k" }),
        (e: unknown) => e instanceof TypeError && /withHookOrdering\(\)/.test(e.message),
      );
      const plain = await hooks.enqueue(db, { name: "work", key: "x" });
      assert.equal((await hooks.get(plain.id))!.orderKey, null);
      assert.deepEqual(await hooks.drain(), { done: 1, retried: 0, failed: 0 });
      await assert.rejects(
        hooks.enqueue(db, { name: "work", orderKey: 7 as unknown as string }),
        /orderKey .* must be a string/,
      );
    });
  });
});

describe("withHookOrdering()", () => {
  it("withHookOrdering() appends three steps after the hook table", () => {
    assert.equal(transactionsSchema.version, unorderedSchema.version + 3);
    assert.deepEqual(transactionsSchema.steps.slice(-3).map((s) => s.kind), [
      "addColumn",
      "addIndex",
      "sql",
    ]);
  });

  it("withHookFunctions() appends one step after them", () => {
    assert.equal(functionsSchema.version, transactionsSchema.version + 1);
    assert.deepEqual(functionsSchema.steps.at(-1)?.kind, "sql");
  });
});
