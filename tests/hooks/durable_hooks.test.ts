// Durable hooks on PGlite and the PostgreSQL server: transactional enqueue, deduplication per
// namespace, retries with backoff, failure after the configured attempts, lease expiry, the
// background worker woken by NOTIFY, listing and re-queueing.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../src/schema/mod.ts";
import {
  type DurableHooks,
  durableHooks,
  type DurableHooksOptions,
  type HookContext,
} from "../../src/hooks/mod.ts";
import { hookRetryDelay } from "../../src/hooks/hook_retry.ts";
import {
  quoteQualified,
  type SqlAdapter,
  type SqlQuerier,
  type SqlTransaction,
} from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { freshNamespaces, hookTestSchema } from "../helpers/hook_schema.ts";

/** Both worker paths: the SQL functions of withHookFunctions, and the transactions without them. */
const VARIANTS = [
  ["functions", hookTestSchema("hooks_test", { functions: true })],
  ["transactions", hookTestSchema("hooks_test")],
] as const;

/** A promise with its resolve function, to wait for a handler without sleeping. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const quiet = (): void => {};

describe("hookRetryDelay()", () => {
  it("hookRetryDelay() doubles per attempt, caps, and jitters within [half, full)", () => {
    const options = { baseMs: 100, maxMs: 1000 };
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => hookRetryDelay(a, options, () => 0)), [
      50,
      100,
      200,
      400,
      500,
    ]);
    assert.equal(hookRetryDelay(3, options, () => 0.999999), 399);
    assert.equal(hookRetryDelay(60, options, () => 0.5), 750);
  });
});

describe("durableHooks() options", () => {
  it("durableHooks() rejects bad namespaces, handlers and settings", () => {
    const adapter = {} as SqlAdapter;
    const base: DurableHooksOptions = { adapter, namespace: "ok", hooks: { a: () => {} } };
    assert.throws(() => durableHooks({ ...base, namespace: "Bad-Name" }), TypeError);
    assert.throws(() => durableHooks({ ...base, hooks: { a: {} as never } }), /needs a handler/);
    assert.throws(() => durableHooks({ ...base, maxAttempts: 0 }), /maxAttempts/);
    assert.throws(() => durableHooks({ ...base, leaseMs: 1.5 }), /leaseMs/);
    assert.throws(
      () => durableHooks({ ...base, hooks: { a: { handler: () => {}, maxAttempts: -1 } } }),
      /hooks\.a\.maxAttempts/,
    );
  });
});

forEachAdapter((adapterName, getAdapter) => {
  VARIANTS.forEach(([variant, schema]) => {
    const name = `${adapterName}, ${variant}`;
    const freshNamespace = freshNamespaces(getAdapter, schema, `hooks_${adapterName}_${variant}`);

    function makeHooks(
      namespace: string,
      hooks: DurableHooksOptions["hooks"],
      options: Partial<DurableHooksOptions> = {},
    ): DurableHooks {
      return durableHooks({
        adapter: getAdapter(),
        namespace,
        hooks,
        retryDelayMs: 1,
        maxRetryDelayMs: 5,
        onError: quiet,
        ...options,
      });
    }

    before(async () => {
      await getAdapter().query("SELECT 1");
    });

    it(`${name}: enqueue() is part of the caller's transaction (rolled back with it)`, async () => {
      const namespace = await freshNamespace();
      const hooks = makeHooks(namespace, { note: () => {} });
      await assert.rejects(
        getAdapter().transaction(async (tx) => {
          await hooks.enqueue(tx, { name: "note", key: "k1", payload: { a: 1 } });
          throw new Error("abort");
        }),
        /abort/,
      );
      assert.equal(await hooks.find("note", "k1"), null);
      const result = await getAdapter().transaction((tx) =>
        hooks.enqueue(tx, { name: "note", key: "k1", payload: { a: 1 } })
      );
      assert.equal(result.duplicate, false);
      const stored = await hooks.get(result.id);
      assert.equal(stored?.status, "pending");
      assert.deepEqual(stored?.payload, { a: 1 });
      assert.equal(stored?.attempts, 0);
    });

    it(`${name}: a repeated (name, key) is reported as a duplicate; keyless ones never are`, async () => {
      const namespace = await freshNamespace();
      const hooks = makeHooks(namespace, { note: () => {}, other: () => {} });
      const db = getAdapter();
      const first = await hooks.enqueue(db, { name: "note", key: "same" });
      const second = await db.transaction((tx) => hooks.enqueue(tx, { name: "note", key: "same" }));
      assert.deepEqual(second, { id: first.id, duplicate: true });
      const otherName = await hooks.enqueue(db, { name: "other", key: "same" });
      assert.equal(otherName.duplicate, false);
      const a = await hooks.enqueue(db, { name: "note" });
      const b = await hooks.enqueue(db, { name: "note" });
      assert.equal(a.duplicate || b.duplicate, false);
      assert.notEqual(a.id, b.id);
      const page = await hooks.list({ name: "note" });
      assert.equal(page.occurrences.length, 3);
      await assert.rejects(() => hooks.enqueue(db, { name: "nope" }), /Unknown hook "nope"/);
    });

    it(`${name}: enqueueMany() inserts a batch in order, deduplicates, rolls back, runs`, async () => {
      const namespace = await freshNamespace();
      const ran: JsonValue[] = [];
      const hooks = makeHooks(namespace, {
        note: (payload) => void ran.push(payload),
        other: () => {},
      });
      const db = getAdapter();
      const existing = await hooks.enqueue(db, { name: "note", key: "old" });
      const later = new Date(Date.now() + 3_600_000);
      const results = await db.transaction((tx) =>
        hooks.enqueueMany(tx, [
          { name: "note", payload: { n: 1 } },
          { name: "note", key: "old", payload: { n: 2 } },
          { name: "note", key: "new", payload: "text" },
          { name: "note", payload: [3] },
          { name: "note", key: "new", payload: { n: 5 } },
          { name: "other", key: "new" },
          { name: "note", key: "later", runAt: later },
        ])
      );
      assert.deepEqual(results.map((r) => r.duplicate), [
        false,
        true,
        false,
        false,
        true,
        false,
        false,
      ]);
      assert.equal(results[1].id, existing.id);
      assert.equal(results[4].id, results[2].id);
      assert.equal(new Set(results.map((r) => r.id)).size, 6);
      // Ids follow the batch's order, and each id holds its own input.
      const fresh = [0, 2, 3, 5, 6].map((i) => BigInt(results[i].id));
      assert.deepEqual(fresh, [...fresh].sort((a, b) => (a < b ? -1 : 1)));
      assert.deepEqual((await hooks.get(results[0].id))?.payload, { n: 1 });
      assert.deepEqual((await hooks.get(results[2].id))?.payload, "text");
      assert.deepEqual((await hooks.get(results[3].id))?.payload, [3]);
      assert.equal((await hooks.get(results[5].id))?.name, "other");
      assert.equal((await hooks.get(results[6].id))?.dueAt.getTime(), later.getTime());
      assert.deepEqual(await hooks.enqueueMany(db, []), []);

      await assert.rejects(
        db.transaction(async (tx) => {
          await hooks.enqueueMany(tx, [{ name: "note", key: "gone-1" }, { name: "note" }]);
          throw new Error("abort");
        }),
        /abort/,
      );
      assert.equal(await hooks.find("note", "gone-1"), null);
      await assert.rejects(
        () => hooks.enqueueMany(db, [{ name: "note", key: "x" }, { name: "nope" }]),
        /Unknown hook "nope"/,
      );
      assert.equal(await hooks.find("note", "x"), null, "a bad batch inserts nothing");

      assert.deepEqual(await hooks.drain(), { done: 5, retried: 0, failed: 0 });
      assert.deepEqual(
        new Set(ran.map((p) => JSON.stringify(p))),
        new Set([null, { n: 1 }, "text", [3]].map((p) => JSON.stringify(p))),
      );
    });

    it(`${name}: enqueueMany() wakes a started worker once the batch commits`, async () => {
      const namespace = await freshNamespace();
      const seen = new Set<string>();
      const all = deferred();
      const hooks = makeHooks(namespace, {
        note: (_payload, { key }) => {
          seen.add(key!);
          if (seen.size === 3) all.resolve();
        },
      }, { pollIntervalMs: 60_000 });
      await hooks.start();
      try {
        // The worker's first look found nothing; only the batch's NOTIFY can start these.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await getAdapter().transaction((tx) =>
          hooks.enqueueMany(tx, ["a", "b", "c"].map((key) => ({ name: "note", key })))
        );
        await all.promise;
        assert.deepEqual([...seen].sort(), ["a", "b", "c"]);
      } finally {
        await hooks.stop();
      }
    });

    it(`${name}: the same (name, key) in two namespaces does not collide`, async () => {
      const [nsA, nsB] = [await freshNamespace(), await freshNamespace()];
      const a = makeHooks(nsA, { update: () => {} });
      const b = makeHooks(nsB, { update: () => {} });
      const db = getAdapter();
      assert.equal((await a.enqueue(db, { name: "update", key: "42" })).duplicate, false);
      assert.equal((await b.enqueue(db, { name: "update", key: "42" })).duplicate, false);
      assert.equal((await a.enqueue(db, { name: "update", key: "42" })).duplicate, true);
    });

    it(`${name}: a handler failing twice is retried and completes on attempt 3`, async () => {
      const namespace = await freshNamespace();
      const seen: Array<[string, number, JsonValue]> = [];
      const hooks = makeHooks(namespace, {
        flaky: (payload: JsonValue, context: HookContext) => {
          seen.push([context.id, context.attempt, payload]);
          if (context.attempt < 3) throw new Error(`boom ${context.attempt}`);
        },
      });
      const { id } = await hooks.enqueue(getAdapter(), { name: "flaky", payload: [1, "two"] });
      const result = await hooks.drain({ waitForScheduled: true });
      assert.deepEqual(result, { done: 1, retried: 2, failed: 0 });
      assert.deepEqual(seen, [[id, 1, [1, "two"]], [id, 2, [1, "two"]], [id, 3, [1, "two"]]]);
      const stored = await hooks.get(id);
      assert.equal(stored?.status, "done");
      assert.equal(stored?.attempts, 3);
      assert.match(stored?.lastError ?? "", /boom 2/);
      assert.ok(stored?.finishedAt instanceof Date);
    });

    it(`${name}: a handler that always fails ends failed after maxAttempts, error kept`, async () => {
      const namespace = await freshNamespace();
      let calls = 0;
      const hooks = makeHooks(namespace, {
        broken: () => {
          calls++;
          throw new Error(`always broken (call ${calls})`);
        },
        limited: {
          handler: () => {
            throw new Error("limited");
          },
          maxAttempts: 1,
        },
      }, { maxAttempts: 4 });
      const broken = await hooks.enqueue(getAdapter(), { name: "broken" });
      const limited = await hooks.enqueue(getAdapter(), { name: "limited" });
      const result = await hooks.drain({ waitForScheduled: true });
      assert.deepEqual(result, { done: 0, retried: 3, failed: 2 });
      assert.equal(calls, 4);
      const stored = await hooks.get(broken.id);
      assert.equal(stored?.status, "failed");
      assert.equal(stored?.attempts, 4);
      assert.match(stored?.lastError ?? "", /always broken \(call 4\)/);
      assert.equal((await hooks.get(limited.id))?.attempts, 1);

      const failed = await hooks.list({ status: "failed" });
      assert.deepEqual(failed.occurrences.map((o) => o.id), [broken.id, limited.id]);
      assert.deepEqual(
        await hooks.retryFailed({ ids: [broken.id, limited.id, "nope"], name: "broken" }),
        [
          broken.id,
        ],
      );
      const requeued = await hooks.get(broken.id);
      assert.equal(requeued?.status, "pending");
      assert.equal(requeued?.attempts, 0);
      assert.equal(requeued?.finishedAt, null);
      await hooks.drain({ waitForScheduled: true });
      assert.equal(calls, 8);
      assert.equal((await hooks.retryFailed()).length, 2);
      assert.equal((await hooks.list({ status: "pending" })).occurrences.length, 2);
    });

    it(`${name}: list() pages by status with cursors`, async () => {
      const namespace = await freshNamespace();
      const hooks = makeHooks(namespace, { note: () => {} });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await hooks.enqueue(getAdapter(), { name: "note" })).id);
      }
      const first = await hooks.list({ status: "pending", pageSize: 2 });
      assert.deepEqual(first.occurrences.map((o) => o.id), ids.slice(0, 2));
      assert.equal(first.hasNextPage, true);
      const second = await hooks.list({ status: "pending", pageSize: 2, cursor: first.cursor });
      const third = await hooks.list({ status: "pending", cursor: second.cursor });
      assert.deepEqual(second.occurrences.map((o) => o.id), ids.slice(2, 4));
      assert.deepEqual(third.occurrences.map((o) => o.id), ids.slice(4));
      assert.equal(third.cursor, null);
      await assert.rejects(
        () => hooks.list({ status: "done", cursor: first.cursor }),
        /another list/,
      );
      assert.deepEqual((await hooks.list({ status: "done" })).occurrences, []);
      // Newest first: the same list backwards, with cursors of its own.
      const newest = await hooks.list({ status: "pending", pageSize: 3, order: "newest" });
      assert.deepEqual(newest.occurrences.map((o) => o.id), ids.slice(2).reverse());
      const older = await hooks.list({ status: "pending", order: "newest", cursor: newest.cursor });
      assert.deepEqual(older.occurrences.map((o) => o.id), ids.slice(0, 2).reverse());
      assert.equal(older.hasNextPage, false);
      await assert.rejects(
        () => hooks.list({ status: "pending", cursor: newest.cursor }),
        /another list/,
      );
      await assert.rejects(
        // deno-lint-ignore no-explicit-any
        () => hooks.list({ order: "sideways" as any }),
        /order must be "oldest" or "newest"/,
      );
    });

    it(`${name}: runAt delays an occurrence; drain() waits for it only when asked`, async () => {
      const namespace = await freshNamespace();
      let runs = 0;
      const hooks = makeHooks(namespace, { later: () => void runs++ });
      const { id } = await hooks.enqueue(getAdapter(), {
        name: "later",
        runAt: new Date(Date.now() + 3_600_000),
      });
      assert.deepEqual(await hooks.drain(), { done: 0, retried: 0, failed: 0 });
      assert.equal(runs, 0);
      // The database's clock decides when it is due: bring the hour down to 50 ms (a real wait).
      const [{ due_at: runAt }] = await getAdapter().query<{ due_at: Date }>(
        `UPDATE "${namespace}".hook_occurrences
          SET due_at = clock_timestamp() + interval '50 milliseconds' RETURNING due_at`,
      );
      assert.deepEqual(await hooks.drain({ waitForScheduled: true }), {
        done: 1,
        retried: 0,
        failed: 0,
      });
      assert.equal(runs, 1);
      assert.ok((await hooks.get(id))!.finishedAt!.getTime() >= runAt.getTime());
    });

    it(`${name}: an expired lease (dead worker) makes the occurrence due again`, async () => {
      const namespace = await freshNamespace();
      const attempts: number[] = [];
      const hooks = makeHooks(namespace, {
        work: (_payload: JsonValue, context: HookContext) => void attempts.push(context.attempt),
        lastTry: { handler: () => {}, maxAttempts: 1 },
      });
      const db = getAdapter();
      const work = await hooks.enqueue(db, { name: "work" });
      const lastTry = await hooks.enqueue(db, { name: "lastTry" });
      // What a worker that claimed both and then died leaves behind: running, lease expired.
      await db.query(
        `UPDATE "${namespace}".hook_occurrences SET status = 'running', attempts = 1,
       due_at = now() - interval '1 second', leased_by = 'dead'`,
      );
      const result = await hooks.drain();
      assert.deepEqual(result, { done: 1, retried: 0, failed: 1 });
      assert.deepEqual(attempts, [2]);
      assert.equal((await hooks.get(work.id))?.status, "done");
      const abandoned = await hooks.get(lastTry.id);
      assert.equal(abandoned?.status, "failed");
      assert.match(abandoned?.lastError ?? "", /abandoned/);
    });

    it(`${name}: a running lease is not claimed by another worker`, async () => {
      const namespace = await freshNamespace();
      const gate = deferred();
      const started = deferred();
      let runs = 0;
      const handler = async (): Promise<void> => {
        runs++;
        started.resolve();
        await gate.promise;
      };
      const first = makeHooks(namespace, { slow: handler });
      const second = makeHooks(namespace, { slow: handler });
      await first.enqueue(getAdapter(), { name: "slow" });
      const draining = first.drain();
      await started.promise;
      assert.deepEqual(await second.drain(), { done: 0, retried: 0, failed: 0 });
      gate.resolve();
      assert.deepEqual(await draining, { done: 1, retried: 0, failed: 0 });
      assert.equal(runs, 1);
    });

    it(`${name}: a handler outliving its lease keeps it (renewed), so it is not run twice`, async () => {
      const namespace = await freshNamespace();
      const gate = deferred();
      const started = deferred();
      let runs = 0;
      const handler = async (): Promise<void> => {
        runs++;
        started.resolve();
        await gate.promise;
      };
      const first = makeHooks(namespace, { slow: handler }, { leaseMs: 300 });
      const second = makeHooks(namespace, { slow: handler }, { leaseMs: 300 });
      const { id } = await first.enqueue(getAdapter(), { name: "slow" });
      const draining = first.drain();
      await started.promise;
      const claimedUntil = (await first.get(id))!.dueAt.getTime();
      // Past the original lease on the database's clock (it decides what is due): only renewals,
      // every 100 ms, keep the occurrence from being due again. The renewal timer is what is
      // tested, so this waits for real, in steps of 20 ms.
      const past = async () =>
        (await getAdapter().query<{ past: boolean }>(
          "SELECT clock_timestamp() > $1::timestamptz + interval '100 milliseconds' AS past",
          [new Date(claimedUntil)],
        ))[0].past;
      while (!(await past())) await new Promise((r) => setTimeout(r, 20));
      const renewed = await first.get(id);
      assert.equal(renewed?.status, "running");
      assert.ok(renewed!.dueAt.getTime() > claimedUntil, "the lease was extended");
      assert.deepEqual(await second.drain(), { done: 0, retried: 0, failed: 0 });
      gate.resolve();
      assert.deepEqual(await draining, { done: 1, retried: 0, failed: 0 });
      assert.equal(runs, 1);
    });

    /**
     * A started worker gone idle, polling once an hour (only a notification wakes it in time),
     * and a producer of the same namespace; `ran` settles with the first `ping` payload run.
     */
    async function idleWorkerAndProducer() {
      const namespace = await freshNamespace();
      const ran = deferred<string>();
      const worker = makeHooks(namespace, { ping: (p: JsonValue) => ran.resolve(String(p)) }, {
        pollIntervalMs: 3_600_000,
      });
      const producer = makeHooks(namespace, { ping: () => {} });
      await worker.start();
      await worker.drain();
      return { worker, producer, ran };
    }

    it(`${name}: the started worker runs occurrences woken by NOTIFY from another instance`, async () => {
      const { worker, producer, ran } = await idleWorkerAndProducer();
      try {
        await getAdapter().transaction((tx) =>
          producer.enqueue(tx, { name: "ping", payload: "hi" })
        );
        assert.equal(await ran.promise, "hi");
      } finally {
        await worker.stop();
      }
      assert.equal(worker.running, false);
    });

    it(`${name}: enqueue() outside a transaction notifies in its own statement`, async () => {
      const { worker, producer, ran } = await idleWorkerAndProducer();
      try {
        const db = getAdapter();
        // Autocommit: the insert's own statement carries the notification.
        const first = await producer.enqueue(db, { name: "ping", key: "once", payload: "hi" });
        assert.equal(first.duplicate, false);
        assert.equal(await ran.promise, "hi");
        const again = await producer.enqueue(db, { name: "ping", key: "once", payload: "hi" });
        assert.deepEqual(again, { id: first.id, duplicate: true });
      } finally {
        await worker.stop();
      }
    });

    it(`${name}: enqueueSql() inserts the occurrence in the caller's statement, per row of its CTE`, async () => {
      const namespace = await freshNamespace();
      const db = getAdapter();
      const ran = deferred<JsonValue>();
      // A poll interval of an hour: only wake()'s NOTIFY (outside the statement) wakes this worker.
      const worker = makeHooks(namespace, { ping: (p: JsonValue) => ran.resolve(p) }, {
        pollIntervalMs: 3_600_000,
      });
      const producer = makeHooks(namespace, { ping: () => {} });
      const items = quoteQualified(namespace, "items");
      const store = async (q: SqlQuerier, id: number): Promise<number> => {
        const hook = producer.enqueueSql(
          { name: "ping", key: String(id), payload: { id } },
          { from: "inserted", firstParam: 2 },
        );
        const rows = await q.query<{ stored: number }>(
          `WITH inserted AS (
           INSERT INTO ${items} (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id
         ), hook AS (${hook.sql})
         SELECT count(*)::int AS stored FROM inserted`,
          [id, ...hook.params],
        );
        return rows[0].stored;
      };
      assert.throws(() => producer.enqueueSql({ name: "nope" }), /Unknown hook "nope"/);
      assert.throws(() => producer.enqueueSql({ name: "ping" }, { firstParam: 0 }), /firstParam/);
      await assert.rejects(db.transaction(async (tx) => {
        assert.equal(await store(tx, 1), 1);
        throw new Error("roll back");
      }));
      assert.equal(await producer.find("ping", "1"), null);
      await worker.start();
      try {
        await worker.drain();
        assert.equal(await store(db, 1), 1);
        assert.equal(await store(db, 1), 0); // the row exists: no second occurrence
        producer.wake();
        assert.deepEqual(await ran.promise, { id: 1 });
      } finally {
        await worker.stop();
      }
      assert.equal((await producer.list({ name: "ping" })).occurrences.length, 1);
    });

    it(`${name}: enqueueSql() with keySql and payloadSql enqueues one occurrence per written row`, async () => {
      const namespace = await freshNamespace();
      const hooks = makeHooks(namespace, { ping: () => {} });
      const items = quoteQualified(namespace, "items");
      const hook = hooks.enqueueSql({ name: "ping" }, {
        from: "inserted",
        firstParam: 2,
        keySql: "'item-' || inserted.id",
        payloadSql: "jsonb_build_object('id', inserted.id)",
      });
      const storeMany = async (ids: number[]): Promise<number[]> => {
        const rows = await getAdapter().query<{ id: number }>(
          `WITH inserted AS (
           INSERT INTO ${items} (id) SELECT * FROM unnest($1::int4[])
           ON CONFLICT (id) DO NOTHING RETURNING id
         ), hook AS (${hook.sql})
         SELECT id FROM inserted ORDER BY id`,
          [ids, ...hook.params],
        );
        return rows.map((row) => row.id);
      };
      assert.deepEqual(await storeMany([1, 2, 3]), [1, 2, 3]);
      assert.deepEqual(await storeMany([3, 4]), [4]); // 3 exists: neither row nor occurrence
      const { occurrences } = await hooks.list({ name: "ping" });
      assert.deepEqual(
        occurrences.map((o) => [o.key, o.payload]).sort(),
        [1, 2, 3, 4].map((id) => [`item-${id}`, { id }]),
      );
    });

    it(`${name}: a started worker claims what was left before the start (on PGlite, after its first look is due)`, async () => {
      const namespace = await freshNamespace();
      const ran = deferred<string>();
      // A poll interval of an hour: the first look alone must find the occurrence.
      const hooks = makeHooks(namespace, { left: (p: JsonValue) => ran.resolve(String(p)) }, {
        pollIntervalMs: 3_600_000,
      });
      // Enqueued before the start, its notification heard by nobody: only the first look finds it.
      const { id } = await getAdapter().transaction((tx) =>
        hooks.enqueue(tx, { name: "left", payload: "from before" })
      );
      await hooks.start();
      try {
        if (getAdapter().kind === "pglite") {
          // PGlite's one connection is left to the requests that follow a start: 100 ms later the
          // worker has not claimed yet (it does at its first wake-up, or a second after the start;
          // this timer is due first, and the read queues on the connection before the claim).
          await new Promise((resolve) => setTimeout(resolve, 100));
          assert.equal((await hooks.get(id))?.status, "pending");
        }
        assert.equal(await ran.promise, "from before");
      } finally {
        await hooks.stop();
      }
    });

    it(`${name}: stop() lets the running handler finish and record its outcome`, async () => {
      const namespace = await freshNamespace();
      const gate = deferred();
      const started = deferred();
      const hooks = makeHooks(namespace, {
        slow: async () => {
          started.resolve();
          await gate.promise;
        },
      }, { pollIntervalMs: 3_600_000 });
      await hooks.start();
      const { id } = await getAdapter().transaction((tx) => hooks.enqueue(tx, { name: "slow" }));
      hooks.wake();
      await started.promise;
      const stopping = hooks.stop();
      gate.resolve();
      await stopping;
      assert.equal((await hooks.get(id))?.status, "done");
    });

    it(`${name}: quick handlers are claimed and marked done in batches, not one statement each`, async () => {
      const namespace = await freshNamespace();
      let ran = 0;
      const hooks = makeHooks(namespace, { quick: () => void ran++ });
      const db = getAdapter();
      await hooks.enqueue(db, { name: "quick", key: "first" });
      await hooks.drain(); // the first run tells the worker its handlers are quick
      for (let i = 0; i < 200; i++) await hooks.enqueue(db, { name: "quick", key: `k${i}` });
      const before = db.stats.queries;
      assert.deepEqual(await hooks.drain(), { done: 200, retried: 0, failed: 0 });
      const statements = db.stats.queries - before;
      assert.equal(ran, 201);
      // One claim per batch of 32 and grouped completions: far fewer than the 400 statements of
      // one claim and one completion per occurrence.
      assert.ok(statements < 100, `${statements} statements for 200 occurrences`);
    });

    // The transactions' statements, explained one by one (the functions carry the same settings:
    // tests/hooks/hook_functions.test.ts).
    if (variant === "transactions") {
      it(`${name}: with a backlog and no statistics, claims walk the due index and completions the primary key`, async () => {
        // A new hook table has no statistics until autovacuum analyzes it, and PostgreSQL then
        // guesses a handful of waiting rows: left to choose, it read and sorted every waiting row
        // for each claim. Each of the worker's updates is explained (not run twice) just before it
        // runs, with its own parameters, in its own transaction.
        const namespace = await freshNamespace();
        const db = getAdapter();
        await db.query(
          `INSERT INTO ${quoteQualified(namespace, "hook_occurrences")} (name, key)
       SELECT 'quick', 'k' || n FROM generate_series(1, 3000) AS n`,
        );
        const plans: string[] = [];
        const explaining = <T extends SqlQuerier>(querier: T): T =>
          new Proxy(querier, {
            get(target, property, receiver) {
              if (property !== "query") return Reflect.get(target, property, receiver);
              return async (sql: string, params?: readonly unknown[]) => {
                if (/^\s*UPDATE\b/.test(sql)) {
                  const [row] = await target.query<{ "QUERY PLAN": unknown }>(
                    `EXPLAIN (FORMAT JSON) ${sql}`,
                    params,
                  );
                  plans.push(JSON.stringify(row["QUERY PLAN"]));
                }
                return target.query(sql, params);
              };
            },
          });
        const adapter = new Proxy(db, {
          get(target, property, receiver) {
            if (property === "query") return explaining(target).query;
            if (property === "transaction") {
              return <T>(fn: (tx: SqlTransaction) => Promise<T>) =>
                target.transaction((tx) => fn(explaining(tx)));
            }
            return Reflect.get(target, property, receiver);
          },
        });
        const hooks = makeHooks(namespace, { quick: () => {} }, { adapter });
        assert.deepEqual(await hooks.drain(), { done: 3000, retried: 0, failed: 0 });
        const claims = plans.filter((plan) => plan.includes("hook_occurrences_due_idx"));
        const completions = plans.filter((plan) => !plan.includes("hook_occurrences_due_idx"));
        // At most 512 per claim (the prefetch of no-op handlers).
        assert.ok(claims.length >= 3000 / 512, `${claims.length} claims explained`);
        assert.ok(completions.length > 0);
        for (const plan of claims) {
          assert.doesNotMatch(
            plan,
            /"Node Type":"(Sort|Incremental Sort|Seq Scan|BitmapAnd)"/,
            plan,
          );
          assert.doesNotMatch(plan, /hook_occurrences_(name_key|status)_idx/, plan);
          assert.match(
            plan,
            /"Node Type":"Index Scan"[^}]*"Index Name":"hook_occurrences_due_idx"/,
            plan,
          );
        }
        for (const plan of completions) {
          assert.doesNotMatch(
            plan,
            /Seq Scan|hook_occurrences_status_idx|hook_occurrences_due_idx/,
            plan,
          );
          assert.match(plan, /hook_occurrences_pkey/, plan);
        }
      });
    }

    it(`${name}: stop() hands claimed occurrences that did not start back, attempt not counted`, async () => {
      const namespace = await freshNamespace();
      const gate = deferred();
      const blocked = deferred();
      const hooks = makeHooks(namespace, {
        quick: () => {},
        slow: async () => {
          blocked.resolve();
          await gate.promise;
        },
      }, { concurrency: 1 });
      const db = getAdapter();
      await hooks.enqueue(db, { name: "quick", key: "warm" });
      await hooks.drain(); // quick handlers: the worker prefetches beyond its one slot
      await db.transaction(async (tx) => {
        await hooks.enqueue(tx, { name: "slow", key: "s", runAt: new Date(Date.now() - 60_000) });
        for (let i = 0; i < 10; i++) await hooks.enqueue(tx, { name: "quick", key: `q${i}` });
      });
      await hooks.start();
      await blocked.promise; // the slow one runs; the ten quick ones were claimed with it
      const claimed = await hooks.list({ status: "running", pageSize: 100 });
      assert.equal(claimed.occurrences.length, 11);
      const stopping = hooks.stop();
      gate.resolve();
      await stopping;
      const pending = await hooks.list({ status: "pending", name: "quick", pageSize: 100 });
      assert.equal(pending.occurrences.length, 10);
      assert.ok(pending.occurrences.every((o) => o.attempts === 0));
      assert.equal((await hooks.find("slow", "s"))?.status, "done");
    });
  });
});
