/**
 * One process of scenario 10: a queue (`ours` under Deno, `pg-boss` or `graphile` under Node) in
 * one role, talking to the scenario through lines on stdout (and `go` on stdin).
 *
 *   queue_process.ts <queue> <default|tuned> <role> <database-url> [arguments]
 *
 * - `enqueue-each <count> <callers>`: `callers` concurrent loops enqueue `count` jobs one call
 *   each; prints `result <ms>`.
 * - `enqueue-batch <count> <size>`: enqueues `count` jobs in batches of `size`, one after the
 *   other; prints `result <ms>`.
 * - `fill <count>`: the same in batches of 1,000, to prepare a drain; prints `result <ms>`.
 * - `drain <concurrency>`: prints `ready`, starts a worker at `go`, and prints
 *   `progress <handled> <epoch ms when the last handler started>` every 20 ms while it changes.
 * - `latency <concurrency>`: starts a worker, prints `ready`, then `lat <ms>` per job: from the
 *   time the producer sent it (in its process) to the start of its handler.
 * - `produce <rate> <seconds>`: enqueues `rate` jobs a second, one call each, for `seconds`, each
 *   stamped with the time its timer fired (before waiting for a free call); prints `result <sent>`.
 *
 * Roles with a worker run until stdin closes. Times are epoch milliseconds with a fraction
 * (`performance.timeOrigin + performance.now()`), comparable across processes of one machine.
 *
 * @module
 */
import process from "node:process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import type { JobData, QueueSide, QueueVariant } from "./queue_side.ts";

/** The most enqueue calls a producer has waiting at once. */
const MAX_IN_FLIGHT = 32;

const [queue, variant, role, url, ...rest] = process.argv.slice(2);
const numbers = rest.map(Number);

/** Epoch milliseconds with a fraction. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

async function createSide(): Promise<QueueSide> {
  const tuning = variant as QueueVariant;
  // Imported on demand: the Deno process never loads the anchors, Node never loads ours.
  switch (queue) {
    case "ours":
      return (await import("./queue_ours.ts")).oursSide(url);
    case "pg-boss":
      return (await import("./queue_pgboss.ts")).pgBossSide(url, tuning);
    case "graphile":
      return (await import("./queue_graphile.ts")).graphileSide(url, tuning);
    default:
      throw new Error(`unknown queue ${queue}`);
  }
}

/** Resolves when stdin closes; calls `onLine` for each line before that. */
function readStdin(onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    createInterface({ input: process.stdin }).on("line", onLine).on("close", resolve);
  });
}

async function enqueueInBatches(side: QueueSide, count: number, size: number): Promise<void> {
  for (let first = 0; first < count; first += size) {
    const batch: JobData[] = [];
    for (let n = first; n < Math.min(count, first + size); n++) batch.push({ n });
    await side.enqueueBatch(batch);
  }
}

const side = await createSide();
await side.setup();

switch (role) {
  case "enqueue-each": {
    const [count, callers] = numbers;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < count) await side.enqueue({ n: next++ });
      }),
    );
    console.log(`result ${performance.now() - started}`);
    break;
  }
  case "enqueue-batch":
  case "fill": {
    const [count, size] = numbers;
    const started = performance.now();
    await enqueueInBatches(side, count, role === "fill" ? 1000 : size);
    console.log(`result ${performance.now() - started}`);
    break;
  }
  case "drain": {
    const [concurrency] = numbers;
    let handled = 0;
    let lastAt = 0;
    let reported = 0;
    const report = setInterval(() => {
      if (handled === reported) return;
      reported = handled;
      console.log(`progress ${handled} ${lastAt.toFixed(3)}`);
    }, 20);
    console.log("ready");
    let going = false;
    await readStdin((line) => {
      if (line !== "go" || going) return;
      going = true;
      side.work(concurrency, () => {
        handled++;
        lastAt = now();
      }).catch((error) => {
        console.error(error);
        process.exit(1);
      });
    });
    clearInterval(report);
    break;
  }
  case "latency": {
    const [concurrency] = numbers;
    let lines: string[] = [];
    const flush = setInterval(() => {
      if (lines.length === 0) return;
      process.stdout.write(lines.join(""));
      lines = [];
    }, 20);
    await side.work(concurrency, (data) => {
      lines.push(`lat ${(now() - data.t!).toFixed(3)}\n`);
    });
    console.log("ready");
    await readStdin(() => {});
    clearInterval(flush);
    break;
  }
  case "produce": {
    const [rate, seconds] = numbers;
    const total = Math.round(rate * seconds);
    const interval = 1000 / rate;
    const inFlight = new Set<Promise<void>>();
    const started = now();
    for (let n = 0; n < total; n++) {
      // Each job is stamped when the producer's timer has fired for it, before any wait for a
      // free call, so a producer that falls behind (its calls waiting for a connection) counts in
      // the latency; at most MAX_IN_FLIGHT calls wait at once, so no pool times out. Not the time
      // it was due: the runtimes' timers differ (Deno's fired 1.07 ms after the due time at the
      // median, Node's 0.38 ms before it), which put the producer's runtime into the comparison.
      const due = started + n * interval;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      const t = now();
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      const sent: Promise<void> = side.enqueue({ n, t }).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
    await Promise.all(inFlight);
    console.log(`result ${total}`);
    break;
  }
  default:
    throw new Error(`unknown role ${role}`);
}
await side.close();
process.exit(0);
