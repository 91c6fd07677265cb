/**
 * What scenario 10 needs of a job queue, implemented once per queue (ours, pg-boss, Graphile
 * Worker), so that every measurement runs the same code around a different queue.
 *
 * @module
 */

/** A no-op job's data: `n` numbers it, `t` is when it was due to be enqueued (epoch ms). */
export interface JobData {
  n: number;
  t?: number;
}

/** One queue, connected to one database, in the process that measures it. */
export interface QueueSide {
  /** Installs the queue's schema (idempotent, safe beside another process doing the same). */
  setup(): Promise<void>;
  /** Enqueues one job (one call of the queue's single-job API). */
  enqueue(data: JobData): Promise<void>;
  /** Enqueues jobs with the queue's batch API (one call). */
  enqueueBatch(data: readonly JobData[]): Promise<void>;
  /** Starts a worker running at most `concurrency` handlers at once. */
  work(concurrency: number, handler: (data: JobData) => void): Promise<void>;
  /** Stops the worker (if any) and closes every connection. */
  close(): Promise<void>;
}

/** The settings a side runs with: each queue's defaults, or what its own docs recommend. */
export type QueueVariant = "default" | "tuned";

/** Creates a side for a database URL. */
export type QueueFactory = (url: string, variant: QueueVariant) => QueueSide;
