/**
 * The retry schedule of durable hooks: exponential backoff with jitter.
 *
 * @module
 */

/** The backoff settings of {@link hookRetryDelay}. */
export interface RetryDelayOptions {
  /** Delay before the first retry, in milliseconds. */
  baseMs: number;
  /** The cap, in milliseconds. */
  maxMs: number;
}

/**
 * The delay before the next attempt after attempt `attempt` failed: `baseMs × 2^(attempt-1)`,
 * capped at `maxMs`, then scaled by a random factor in [0.5, 1) ("equal jitter") so that
 * occurrences that failed together (a shared dependency was down) do not retry in lockstep.
 *
 * @param attempt The number of the attempt that failed (1 for the first).
 * @param options The base delay and the cap.
 * @param random A source of numbers in [0, 1).
 * @default random `Math.random`
 * @returns The delay in whole milliseconds.
 *
 * @example
 * ```ts
 * import { hookRetryDelay } from "./hook_retry.ts";
 *
 * hookRetryDelay(3, { baseMs: 1000, maxMs: 60_000 }, () => 0); // => 2000
 * hookRetryDelay(3, { baseMs: 1000, maxMs: 60_000 }, () => 0.999); // => 3996
 * ```
 */
export function hookRetryDelay(
  attempt: number,
  options: RetryDelayOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 52));
  const full = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.floor(full * (0.5 + random() / 2));
}

/**
 * Thrown by a hook handler for a failure that no retry can fix (a request the remote service
 * refuses as malformed): the occurrence is marked failed at once, with this error, whatever
 * attempts are left. `fragment-cli hooks … retry` can still run it again.
 *
 * @example Fail at once on a 400
 * ```ts
 * import { PermanentHookError } from "@app/fragment-cli/hooks";
 *
 * async function deliver(response: Response): Promise<void> {
 *   if (response.status === 400) {
 *     throw new PermanentHookError(`refused: ${await response.text()}`); // no retry
 *   }
 *   if (!response.ok) throw new Error(`HTTP ${response.status}`); // retried with backoff
 * }
 * ```
 */
export class PermanentHookError extends Error {
  /**
   * Creates the error.
   *
   * @param message What failed, kept as the occurrence's error.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentHookError";
  }
}
