// Durable hooks across processes on the PostgreSQL server (PGlite is single-process): two workers
// never run one occurrence at the same time, a worker killed mid-run loses nothing, and an idle
// worker starts an occurrence committed by another process at once (NOTIFY), not at its next poll.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  type HookContext,
  withHookFunctions,
  withHookHandOff,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { planMigration } from "../../src/migrate/mod.ts";
import { postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { runtimeArgs } from "../helpers/spawn_runtime.ts";

const schema = defineSchema("xproc", (s) =>
  withHookTable(
    s.createTable("probe", {
      id: column.integer().primaryKey(),
      running: column.integer().default(0),
      runs: column.integer().default(0),
      collisions: column.integer().default(0),
    }).createTable("probe_runs", {
      occurrence_id: column.bigint().primaryKey(),
      pid: column.integer(),
    }),
  ));

/** The ordering test's schema: each run of an occurrence, with its key, process and times. */
const orderedSchema = defineSchema("xproc_ordered", (s) =>
  withHookOrdering(withHookTable(
    s.createTable("runs", {
      occurrence_id: column.bigint().primaryKey(),
      order_key: column.text(),
      seq: column.integer(),
      pid: column.integer(),
      started_at: column.timestamptz(),
      ended_at: column.timestamptz().nullable(),
    }),
  )));
/** The same with the direct hand-off: blocked to running in the completion, without the trigger. */
const orderedHandOffSchema = defineSchema(
  "xproc_ordered",
  (s) =>
    withHookHandOff(withHookFunctions(withHookOrdering(withHookTable(
      s.createTable("runs", {
        occurrence_id: column.bigint().primaryKey(),
        order_key: column.text(),
        seq: column.integer(),
        pid: column.integer(),
        started_at: column.timestamptz(),
        ended_at: column.timestamptz().nullable(),
      }),
    )))),
);
/** The same with the worker's SQL functions: completions hand each key on to their worker. */
const orderedFunctionsSchema = defineSchema(
  "xproc_ordered",
  (s) =>
    withHookFunctions(withHookOrdering(withHookTable(
      s.createTable("runs", {
        occurrence_id: column.bigint().primaryKey(),
        order_key: column.text(),
        seq: column.integer(),
        pid: column.integer(),
        started_at: column.timestamptz(),
        ended_at: column.timestamptz().nullable(),
      }),
    ))),
);

const WORKER = fileURLToPath(new URL("../fixtures/hook_worker.ts", import.meta.url));

interface Worker {
  child: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

function startWorker(mode: string, url: string, namespace: string, ...more: string[]): Worker {
  const child = spawn(process.execPath, runtimeArgs(WORKER, [mode, url, namespace, ...more]), {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code))
  );
  return {
    child,
    exited,
    line(pattern) {
      const seen = lines.find((l) => pattern.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        exited.then((code) =>
          reject(
            new Error(`worker exited (${code}) before printing ${pattern}: ${lines.join("\n")}`),
          )
        );
      });
    },
  };
}

const runOnPostgres = enabledAdapters().includes("postgres");

/**
 * Runs `round` (which asserts its own correctness and answers how many processes ran occurrences)
 * until both processes took part, at most 3 times. On a loaded machine one worker can claim every
 * occurrence before the other one's wake-up arrives: such a round is correct but proves nothing about
 * two processes contending.
 */
async function untilContested(round: () => Promise<number>): Promise<void> {
  let processes = 0;
  for (let rounds = 0; rounds < 3 && processes < 2; rounds++) processes = await round();
  assert.equal(processes, 2, "both processes took part in one of 3 rounds");
}

describe("durable hooks across processes (PostgreSQL)", { skip: !runOnPostgres }, () => {
  let database: TestDatabase;
  let db: SqlAdapter;
  let namespaces = 0;

  async function freshNamespace(
    of:
      | typeof schema
      | typeof orderedSchema
      | typeof orderedFunctionsSchema
      | typeof orderedHandOffSchema = schema,
  ): Promise<string> {
    const namespace = `xproc_${++namespaces}`;
    const plan = planMigration(of, { from: 0, namespace });
    await db.transaction(async (tx) => {
      for (const step of plan.steps) for (const sql of step.statements) await tx.query(sql);
    });
    return namespace;
  }

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 4 });
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it("two workers in two processes never run the same occurrence concurrently", {
    timeout: 120_000,
  }, () =>
    untilContested(async () => {
      const namespace = await freshNamespace();
      const workers = [
        startWorker("overlap", database.url, namespace),
        startWorker("overlap", database.url, namespace),
      ];
      await Promise.all(workers.map((w) => w.line(/^ready$/)));
      const hooks = durableHooks({ adapter: db, namespace, hooks: { probe: () => {} } });
      const total = 60;
      // Enqueued after both workers listen: the commit's NOTIFY wakes both at once.
      await db.transaction(async (tx) => {
        for (let n = 0; n < total; n++) {
          await tx.query(`INSERT INTO "${namespace}".probe (id) VALUES ($1)`, [n]);
          await hooks.enqueue(tx, { name: "probe", payload: { n } });
        }
      });
      assert.deepEqual(await Promise.all(workers.map((w) => w.exited)), [0, 0]);

      const probes = await db.query<{ runs: number; collisions: number; running: number }>(
        `SELECT runs, collisions, running FROM "${namespace}".probe ORDER BY id`,
      );
      assert.equal(probes.length, total);
      assert.deepEqual(
        probes.filter((p) => p.collisions > 0),
        [],
        "overlapping runs of one occurrence",
      );
      assert.ok(probes.every((p) => p.runs === 1 && p.running === 0));
      const done = await hooks.list({ status: "done", pageSize: 100 });
      assert.equal(done.occurrences.length, total);
      assert.ok(done.occurrences.every((o) => o.attempts === 1));
      const pids = await db.query<{ pid: number }>(
        `SELECT DISTINCT pid FROM "${namespace}".probe_runs`,
      );
      return pids.length;
    }));

  for (
    const [variant, ordered] of [
      ["SQL functions, direct hand-off", orderedHandOffSchema],
      ["SQL functions, hand-off", orderedFunctionsSchema],
      ["transactions", orderedSchema],
    ] as const
  ) {
    it(
      `2 processes × concurrency 8, random handler times (${variant}): one key's occurrences never overlap and run in enqueue order`,
      {
        timeout: 180_000,
      },
      () =>
        untilContested(async () => {
          const namespace = await freshNamespace(ordered);
          const keys = 40;
          const perKey = 12;
          const total = keys * perKey;
          const workers = [
            startWorker("ordered", database.url, namespace, String(total)),
            startWorker("ordered", database.url, namespace, String(total)),
          ];
          await Promise.all(workers.map((w) => w.line(/^ready$/)));
          const hooks = durableHooks({ adapter: db, namespace, hooks: { probe: () => {} } });
          // Interleaved at random, in transactions of 24, enqueued while both workers run them.
          const order: string[] = [];
          for (let k = 0; k < keys; k++) for (let n = 0; n < perKey; n++) order.push(`chat-${k}`);
          order.sort(() => Math.random() - 0.5);
          const next = new Map<string, number>();
          for (let i = 0; i < order.length; i += 24) {
            await db.transaction(async (tx) => {
              for (const key of order.slice(i, i + 24)) {
                const seq = next.get(key) ?? 0;
                next.set(key, seq + 1);
                await hooks.enqueue(tx, { name: "probe", orderKey: key, payload: { key, seq } });
              }
            });
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
          }
          assert.deepEqual(await Promise.all(workers.map((w) => w.exited)), [0, 0]);

          const runs = await db.query<{
            order_key: string;
            seq: number;
            pid: number;
            started: string;
            ended: string;
          }>(
            // Microseconds since the epoch, as text: exact, and comparable across processes.
            `SELECT order_key, seq, pid,
              (extract(epoch FROM started_at) * 1000000)::int8::text AS started,
              (extract(epoch FROM ended_at) * 1000000)::int8::text AS ended
       FROM "${namespace}".runs ORDER BY order_key, started_at`,
          );
          assert.equal(runs.length, total, "each occurrence ran exactly once");
          const violations: string[] = [];
          for (let i = 1; i < runs.length; i++) {
            const [before, after] = [runs[i - 1], runs[i]];
            if (before.order_key !== after.order_key) continue;
            if (after.seq !== before.seq + 1) {
              violations.push(`${after.order_key}: seq ${after.seq} ran after seq ${before.seq}`);
            }
            if (BigInt(after.started) < BigInt(before.ended)) {
              violations.push(
                `${after.order_key}: seq ${after.seq} started before seq ${before.seq} ended`,
              );
            }
          }
          assert.deepEqual(violations, []);
          assert.equal(new Set(runs.map((r) => r.order_key)).size, keys);
          const [{ unfinished }] = await db.query<{ unfinished: number }>(
            `SELECT count(*)::int AS unfinished FROM "${namespace}".hook_occurrences
       WHERE status <> 'done'`,
          );
          assert.equal(unfinished, 0);
          return new Set(runs.map((r) => r.pid)).size;
        }),
    );
  }

  it("a worker killed mid-run does not lose the occurrence: it runs again after the lease", {
    timeout: 120_000,
  }, async () => {
    const namespace = await freshNamespace();
    const attempts: number[] = [];
    const hooks = durableHooks({
      adapter: db,
      namespace,
      hooks: { probe: (_p, context: HookContext) => void attempts.push(context.attempt) },
    });
    const { id } = await hooks.enqueue(db, { name: "probe", payload: { n: 1 } });
    const worker = startWorker("hang", database.url, namespace);
    assert.equal(await worker.line(/^started /), `started ${id} 1`);
    worker.child.kill("SIGKILL");
    await worker.exited;
    const abandoned = await hooks.get(id);
    assert.equal(abandoned?.status, "running");
    assert.equal(abandoned?.attempts, 1);

    const result = await hooks.drain({ waitForScheduled: true });
    assert.deepEqual(result, { done: 1, retried: 0, failed: 0 });
    assert.deepEqual(attempts, [2]);
    assert.equal((await hooks.get(id))?.status, "done");
  });

  it("an idle worker in another process starts an occurrence at its commit, not at its 30 s poll", {
    timeout: 120_000,
  }, async () => {
    const namespace = await freshNamespace();
    const worker = startWorker("wake", database.url, namespace);
    await worker.line(/^ready$/);
    const hooks = durableHooks({ adapter: db, namespace, hooks: { probe: () => {} } });
    // The worker listens before its first look for work: once it has run this one (found by that
    // look or woken by its NOTIFY), it listens, and it is idle until its next poll in 30 s.
    await hooks.enqueue(db, { name: "probe", key: "warm-up", payload: null });
    await worker.line(/^ran warm-up /);
    try {
      for (const key of ["first", "second"]) {
        const started = worker.line(new RegExp(`^ran ${key} `)).then(() => "started");
        await hooks.enqueue(db, { name: "probe", key, payload: null });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve("not started after 10 s"), 10_000);
        });
        // A third of the poll interval: only the commit's notification can have started it.
        assert.equal(await Promise.race([started, late]), "started", key);
        clearTimeout(timer);
      }
    } finally {
      worker.child.kill("SIGTERM");
      await worker.exited;
    }
  });
});
