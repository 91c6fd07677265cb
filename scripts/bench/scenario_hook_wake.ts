/**
 * Scenario 9: wake-up latency of durable hooks on PostgreSQL — from the commit of an enqueue to
 * the start of its handler, on an idle system. Across processes: this process enqueues, a worker
 * in another process (`tests/fixtures/hook_worker.ts wake`, Deno, polling only every 30 s) runs
 * the handler and prints when it started, so only the commit's NOTIFY can start it promptly.
 * Reference: the same with the worker in this process. One enqueue at a time, each after the
 * previous handler started and a short pause, so every one finds the worker idle. Both sides time
 * with `performance.timeOrigin + performance.now()` (one machine, one clock).
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { type DurableHooks, durableHooks, withHookTable } from "../../src/hooks/mod.ts";
import { planMigration } from "../../src/migrate/mod.ts";
import { postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { withBenchDatabase } from "./databases.ts";
import { ROOT } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

const WORKER = join(ROOT, "tests/fixtures/hook_worker.ts");

/** The pause after a handler started, so the next enqueue finds the worker asleep again. */
const IDLE_MS = 20;

const schema = defineSchema(
  "wake_bench",
  (s) => withHookTable(s.createTable("probe", { id: column.integer().primaryKey() })),
);

/** Epoch milliseconds with a fraction, comparable across processes of one machine. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** p-th percentile (nearest rank) of `values`. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Makes each occurrence's key unique (a key enqueued twice is deduplicated, not run again). */
let enqueued = 0;

/** Enqueues `count` occurrences one by one; returns each commit → handler-start latency. */
async function measure(
  hooks: DurableHooks,
  db: SqlAdapter,
  count: number,
  startedAt: (key: string) => Promise<number>,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < count; n++) {
    const key = `${hooks.namespace}-${++enqueued}`;
    const started = startedAt(key);
    await hooks.enqueue(db, { name: "probe", key, payload: null });
    const committedAt = now();
    latencies.push((await started) - committedAt);
    await sleep(IDLE_MS);
  }
  return latencies;
}

/** Waits for `ran <key> <ms>` lines of a worker process. */
function lineReader(child: ChildProcess): (key: string) => Promise<number> {
  const seen = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const match = /^ran (\S+) ([\d.]+)$/.exec(line);
    if (!match) return;
    const at = Number(match[2]);
    const resolve = waiting.get(match[1]);
    if (resolve) {
      waiting.delete(match[1]);
      resolve(at);
    } else seen.set(match[1], at);
  });
  return (key) => {
    const at = seen.get(key);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => waiting.set(key, resolve));
  };
}

export const hookWakeScenario: Scenario = {
  number: 9,
  title: "durable hook wake-up",
  run(context: BenchContext): Promise<BenchRow[]> {
    const count = context.quick ? 5 : 200;
    return withBenchDatabase("hook_wake", async (database) => {
      const db = postgresAdapter(database.url, { max: 4 });
      let worker: ChildProcess | undefined;
      try {
        for (const namespace of ["remote", "local"]) {
          const plan = planMigration(schema, { from: 0, namespace });
          await db.transaction(async (tx) => {
            for (const step of plan.steps) for (const sql of step.statements) await tx.query(sql);
          });
        }
        worker = spawn(
          context.runtimes.deno,
          ["run", "-A", WORKER, "wake", database.url, "remote"],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        // Across processes: the worker in the other process runs namespace "remote".
        const remoteStartedAt = lineReader(worker);
        const remote = durableHooks({
          adapter: db,
          namespace: "remote",
          hooks: { probe: () => {} },
        });
        context.log(`hook wake-up: ${count} enqueues to a worker in another process`);
        // The first run proves the worker listens (it subscribes before its first look).
        await measure(remote, db, 1, remoteStartedAt);
        const across = await measure(remote, db, count, remoteStartedAt);

        // Reference: the worker in this process, same poll interval.
        const localStarts = new Map<string, (at: number) => void>();
        const local = durableHooks({
          adapter: db,
          namespace: "local",
          pollIntervalMs: 30_000,
          hooks: { probe: (_payload, { key }) => localStarts.get(key!)?.(now()) },
        });
        await local.start();
        const localStartedAt = (key: string): Promise<number> =>
          new Promise((resolve) => localStarts.set(key, resolve));
        context.log(`hook wake-up: ${count} enqueues to a worker in this process`);
        await measure(local, db, 1, localStartedAt);
        const within = await measure(local, db, count, localStartedAt);
        await local.stop();

        const note = `${count} enqueues one at a time (each committed, then its handler awaited, ` +
          `then ${IDLE_MS} ms idle); workers poll every 30 s`;
        return [
          benchRow({
            scenario: 9,
            name: "hook wake-up across processes, p50",
            unit: "ms",
            ours: percentile(across, 50),
            reference: percentile(within, 50),
            referenceName: "worker in the same process",
            target: { kind: "at-most", value: 50 },
            note,
          }),
          benchRow({
            scenario: 9,
            name: "hook wake-up across processes, p99",
            unit: "ms",
            ours: percentile(across, 99),
            reference: percentile(within, 99),
            referenceName: "worker in the same process",
            target: { kind: "report" },
          }),
        ];
      } finally {
        worker?.kill("SIGTERM");
        await db.close();
      }
    });
  },
};
