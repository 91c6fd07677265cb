/**
 * Bounded HTTP load for the reliability tests: a fixed list of requests run by a fixed number of
 * concurrent workers, each request with its own deadline, every outcome recorded (a status and
 * body, or the transport error when no answer came). Traffic goes only where the test points it
 * (127.0.0.1).
 *
 * @example
 * ```ts ignore
 * const results = await runPool(jobs, 16, (job) => send(job.url, { method: "POST", json: job.body }));
 * ```
 *
 * @module
 */

/** The outcome of one request. */
export interface Outcome {
  /** The status, or `null` when no answer came (connection refused or cut, deadline passed). */
  status: number | null;
  /** The parsed JSON body (`null` when empty or not JSON). */
  // deno-lint-ignore no-explicit-any
  body: any;
  /** The body as text. */
  text: string;
  /** The transport error, when no answer came. */
  error?: string;
  /** Milliseconds from sending to the end of the body (or the error). */
  ms: number;
  /** The response headers. */
  headers?: Headers;
}

/** Options of {@link send}. */
export interface SendOptions {
  method?: string;
  /** A JSON body (serialized, with `content-type: application/json`). */
  json?: unknown;
  /** A raw body. */
  body?: string;
  headers?: Record<string, string>;
  /** Abort after this many milliseconds. @default 30000 */
  timeoutMs?: number;
}

/** Sends one request and records what happened; never throws. */
export async function send(url: string, options: SendOptions = {}): Promise<Outcome> {
  const started = performance.now();
  const headers = new Headers(options.headers);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  }
  try {
    const response = await fetch(url, {
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return {
      status: response.status,
      body: parsed,
      text,
      ms: performance.now() - started,
      headers: response.headers,
    };
  } catch (error) {
    return {
      status: null,
      body: null,
      text: "",
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      ms: performance.now() - started,
    };
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight; results keep the items' order. */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` every `intervalMs` until it returns a value other than `undefined`; throws with
 * `what` after `timeoutMs` (a bound against hanging, not a performance threshold).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(options.intervalMs ?? 100);
  }
}
