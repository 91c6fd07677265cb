/**
 * Scenario 10, pg-boss 12 under Node. Default: `new PgBoss(url)` (a pool of 10), one queue with
 * default options, `send()` per job, `insert()` per batch, and `work()` with
 * `localConcurrency: <concurrency>` (one job per fetch, 2 s polling). Tuned, per its docs
 * (pgboss.io, workers and queues pages): the LISTEN/NOTIFY listener (`useListenNotify`, queue
 * `notify: true`, so a send wakes the workers instead of their poll), a pool as large as the
 * concurrency, and workers fetching batches (`batchSize`) that fetch again at once while batches
 * come back full (`burstWhenBatchFull`), with the concurrency split as `localConcurrency` ×
 * `batchSize`, and the shortest base poll (0.5 s).
 *
 * @module
 */
import { PgBoss } from "pg-boss";
import type { JobData, QueueSide, QueueVariant } from "./queue_side.ts";

const QUEUE = "noop";

/** Workers × batch size of the tuned worker (their product is the concurrency). */
const TUNED_BATCH = 4;

/** pg-boss's side of the comparison. */
export function pgBossSide(url: string, variant: QueueVariant): QueueSide {
  const tuned = variant === "tuned";
  const boss = new PgBoss({
    connectionString: url,
    ...(tuned ? { useListenNotify: true, max: 17 } : {}),
    // Its maintenance would only add work at random moments of the measurement.
    supervise: false,
    schedule: false,
  });
  boss.on("error", (error: unknown) => console.error("pg-boss error:", error));
  let started: Promise<unknown> | undefined;
  const start = (): Promise<unknown> => started ??= boss.start();
  return {
    async setup() {
      await start();
      if (!(await boss.getQueue(QUEUE))) {
        try {
          await boss.createQueue(QUEUE, tuned ? { notify: true } : {});
        } catch (error) {
          // Created meanwhile by the other worker process.
          if (!(await boss.getQueue(QUEUE))) throw error;
        }
      }
    },
    async enqueue(data) {
      await boss.send(QUEUE, { ...data });
    },
    async enqueueBatch(data) {
      await boss.insert(QUEUE, data.map((d) => ({ data: { ...d } })));
    },
    async work(concurrency, handler) {
      const options = tuned
        ? {
          localConcurrency: Math.max(1, Math.floor(concurrency / TUNED_BATCH)),
          batchSize: Math.min(TUNED_BATCH, concurrency),
          burstWhenBatchFull: true,
          pollingIntervalSeconds: 0.5,
        }
        : { localConcurrency: concurrency };
      // pg-boss awaits the handler's promise, then completes the batch.
      await boss.work<JobData>(QUEUE, options, (jobs) => {
        for (const job of jobs) handler(job.data);
        return Promise.resolve();
      });
    },
    async close() {
      await boss.stop({ graceful: false });
    },
  };
}
