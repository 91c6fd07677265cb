/**
 * Internal: claims occurrences and runs their handlers, one attempt each, outside any
 * transaction, renewing the lease while a handler runs and recording the outcome.
 *
 * @module
 */

import type { SqlAdapter } from "./adapter.ts";
import type { ClaimedOccurrence, HookStore } from "./_hook_store.ts";
import { hookRetryDelay } from "./hook_retry.ts";
import type { DrainResult, HookContext, HookDefinition } from "./hook_types.ts";

/** The settled configuration of a runner. */
export interface RunnerSettings {
  adapter: SqlAdapter;
  store: HookStore;
  hooks: ReadonlyMap<string, HookDefinition<unknown>>;
  maxAttempts: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  leaseMs: number;
  concurrency: number;
  workerId: string;
  onError: (error: unknown, occurrence?: HookContext) => void;
}

type Outcome = keyof DrainResult;

/** Runs attempts with at most `concurrency` in flight, shared by the worker loop and drain(). */
export class HookRunner {
  readonly #s: RunnerSettings;
  readonly #names: string[];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #listeners = new Set<(outcome: Outcome) => void>();
  /** Called whenever an attempt ends, so a waiting loop can claim more. */
  onSettled: () => void = () => {};

  constructor(settings: RunnerSettings) {
    this.#s = settings;
    this.#names = [...settings.hooks.keys()];
  }

  /** Attempts running now. */
  get busy(): number {
    return this.#inFlight.size;
  }

  /** Free handler slots. */
  get free(): number {
    return Math.max(0, this.#s.concurrency - this.#inFlight.size);
  }

  /** Claims as many due occurrences as there are free slots and starts them; returns how many. */
  async fill(): Promise<number> {
    const free = this.free;
    if (free === 0 || this.#names.length === 0) return 0;
    const s = this.#s;
    const claimed = await s.store.claim(s.adapter, this.#names, free, s.leaseMs, s.workerId);
    for (const occurrence of claimed) {
      const running: Promise<void> = this.#attempt(occurrence).finally(() => {
        this.#inFlight.delete(running);
        this.onSettled();
      });
      this.#inFlight.add(running);
    }
    return claimed.length;
  }

  /** Resolves when any running attempt ends (immediately when none runs). */
  async settleOne(): Promise<void> {
    if (this.#inFlight.size > 0) await Promise.race(this.#inFlight);
  }

  /** Resolves when every running attempt has ended. */
  async settleAll(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /** Milliseconds until the next occurrence is due, `null` when none waits. */
  nextDueIn(): Promise<number | null> {
    return this.#s.store.nextDueIn(this.#s.adapter, this.#names);
  }

  /** Counts outcomes until the returned function is called; it returns the counts. */
  count(): () => DrainResult {
    const result: DrainResult = { done: 0, retried: 0, failed: 0 };
    const listener = (outcome: Outcome): void => {
      result[outcome]++;
    };
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      return result;
    };
  }

  async #attempt(occurrence: ClaimedOccurrence): Promise<void> {
    const s = this.#s;
    const definition = s.hooks.get(occurrence.name)!;
    const maxAttempts = definition.maxAttempts ?? s.maxAttempts;
    const context: HookContext = Object.freeze({
      id: occurrence.id,
      name: occurrence.name,
      key: occurrence.key,
      attempt: occurrence.attempt,
      maxAttempts,
    });
    if (occurrence.attempt > maxAttempts) {
      // The previous attempt was the last one and its worker died (the lease expired).
      const reason = `attempt ${occurrence.attempt - 1} of ${maxAttempts} was abandoned ` +
        `(its worker stopped before finishing)` +
        (occurrence.lastError ? `; previous error: ${occurrence.lastError}` : "");
      const write = () => s.store.fail(s.adapter, occurrence, reason, null);
      await this.#record(context, write, "failed");
      return;
    }
    const renewal = setInterval(() => {
      s.store.renew(s.adapter, occurrence, s.leaseMs).catch((error) => s.onError(error));
    }, Math.max(1, Math.floor(s.leaseMs / 3)));
    let failure: unknown;
    let failed = false;
    try {
      await definition.handler(occurrence.payload, context);
    } catch (error) {
      failed = true;
      failure = error;
    } finally {
      clearInterval(renewal);
    }
    if (!failed) {
      await this.#record(context, () => s.store.complete(s.adapter, occurrence), "done");
      return;
    }
    s.onError(failure, context);
    const last = occurrence.attempt >= maxAttempts;
    const delay = last ? null : hookRetryDelay(occurrence.attempt, {
      baseMs: s.retryDelayMs,
      maxMs: s.maxRetryDelayMs,
    });
    await this.#record(
      context,
      () => s.store.fail(s.adapter, occurrence, describeError(failure), delay),
      last ? "failed" : "retried",
    );
  }

  /** Writes an outcome; a failure to write is reported, and the lease expiry retries the work. */
  async #record(
    context: HookContext,
    write: () => Promise<boolean>,
    outcome: Outcome,
  ): Promise<void> {
    try {
      // false: the lease expired and another worker took the occurrence over; its result stands.
      if (!(await write())) return;
      for (const listener of this.#listeners) listener(outcome);
    } catch (error) {
      this.#s.onError(error, context);
    }
  }
}

/** The text kept for a failed attempt: the stack when there is one, else the message. */
function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
