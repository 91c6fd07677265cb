/**
 * Scenario 10, Graphile Worker 0.18 under Node. Default: `makeWorkerUtils()` (a pool of 10) with
 * `addJob()` per job and `addJobs()` per batch, and `run()` with `concurrency` and nothing else.
 * Tuned, per its performance page (worker.graphile.org/docs/performance): a pool one larger than
 * the concurrency (`maxPoolSize`), the local queue (`localQueue: { size: 500 }`: one fetch of up to
 * 500 jobs feeds the handlers) and batched completions (`completeJobBatchDelay: 0`,
 * `failJobBatchDelay: 0`).
 *
 * @module
 */
import { Logger, makeWorkerUtils, run, type Runner, type WorkerUtils } from "graphile-worker";
import type { JobData, QueueSide, QueueVariant } from "./queue_side.ts";

/** Its info lines would mix with the measurement's own output. */
const quiet = new Logger(() => (level: string, message: string) => {
  if (level === "error") console.error(`graphile-worker: ${message}`);
});

/** Graphile Worker's side of the comparison. */
export function graphileSide(url: string, variant: QueueVariant): QueueSide {
  const tuned = variant === "tuned";
  let utils: WorkerUtils | undefined;
  let runner: Runner | undefined;
  const getUtils = async (): Promise<WorkerUtils> =>
    utils ??= await makeWorkerUtils({
      connectionString: url,
      logger: quiet,
      ...(tuned ? { maxPoolSize: 17 } : {}),
    });
  return {
    async setup() {
      await (await getUtils()).migrate();
    },
    async enqueue(data) {
      await (await getUtils()).addJob("noop", { ...data });
    },
    async enqueueBatch(data) {
      await (await getUtils()).addJobs(
        data.map((d) => ({ identifier: "noop", payload: { ...d } })),
      );
    },
    async work(concurrency, handler) {
      runner = await run({
        connectionString: url,
        logger: quiet,
        concurrency,
        noHandleSignals: true,
        taskList: { noop: (payload) => handler(payload as JobData) },
        ...(tuned
          ? {
            maxPoolSize: concurrency + 1,
            preset: {
              worker: { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
            },
          }
          : {}),
      });
    },
    async close() {
      await runner?.stop();
      await utils?.release();
    },
  };
}
