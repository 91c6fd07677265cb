/**
 * The contract between the benchmark harness and the load generator child process
 * (`load_generator.ts`): what to send, and what comes back.
 *
 * @module
 */

/** One HTTP request of a load plan. */
export interface PlannedRequest {
  method: string;
  /** Path and query, appended to the origin. */
  path: string;
  /** The raw body (sent as `application/json`). */
  body?: string;
  /** Headers of this request on top of the spec's (e.g. whose credential it carries). */
  headers?: Record<string, string>;
}

/** What the load generator is asked to do. */
export interface LoadSpec {
  /** `http://host:port` of the server under test. */
  origin: string;
  /**
   * `throughput`: autocannon with `connections` keep-alive connections until every request of
   * `requests` was answered. `latency`: one request at a time (a fetch loop), each timed with
   * `performance.now()`, for sub-millisecond latencies autocannon cannot resolve.
   */
  mode: "throughput" | "latency";
  /** Concurrent connections (throughput mode). */
  connections: number;
  /** Headers of every request. */
  headers: Record<string, string>;
  /** Sent first and not measured (JIT, connection pools, caches). */
  warmup: PlannedRequest[];
  /** Sent in order (spread over the connections), each exactly once. */
  requests: PlannedRequest[];
  /**
   * Latency mode: stop measuring after this many seconds even if requests are left (at least 20
   * are sent), so a slow case cannot stretch the run to many minutes.
   */
  budgetSeconds?: number;
}

/** What the load generator prints on stdout, as one JSON line. */
export interface LoadResult {
  /** Requests answered in the measured phase. */
  requests: number;
  /** Wall time of the measured phase. */
  seconds: number;
  /** `requests / seconds`. */
  requestsPerSecond: number;
  /** Median latency, milliseconds. */
  p50: number;
  /** 99th percentile latency, milliseconds. */
  p99: number;
  /** Count per HTTP status (warm-up excluded). */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
}
