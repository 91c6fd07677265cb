/**
 * Internal: claims occurrences and runs their handlers, one attempt each, outside any
 * transaction, renewing the lease while a handler runs and recording the outcome.
 *
 * @module
 */

import type { Span } from "@opentelemetry/api";
import { inSpan, SPAN_KIND, SPAN_STATUS_ERROR } from "../runtime/tracer.ts";
import type { SqlAdapter } from "../sql/adapter.ts";
import type { Claimant, ClaimedOccurrence, HookWorkerStore } from "./hook_worker_store.ts";
import { setImmediate } from "node:timers";
import { answerGroup, batchWhileBusy, type WaitingKey } from "../sql/batch_while_busy.ts";
import { hookRetryDelay, PermanentHookError } from "./hook_retry.ts";
import type { DrainResult, HookContext, HookDefinition } from "./hook_types.ts";

/** The settled configuration of a runner. */
export interface RunnerSettings {
  adapter: SqlAdapter;
  /** The hooks' namespace, named in each run's span. */
  namespace: string;
  store: HookWorkerStore;
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

/** The `fragment.hook.outcome` of a run's span for each outcome. */
const SPAN_OUTCOME: Record<Outcome, string> = { done: "done", retried: "retry", failed: "failed" };

/** A claimed occurrence waiting for a handler slot. */
interface WaitingOccurrence {
  occurrence: ClaimedOccurrence;
  claimedAt: number;
}

/** The least a quick worker claims per statement (free slots plus prefetch). */
const PREFETCH_BATCH = 32;

/** The most a quick worker claims per statement, however quick its handlers. */
const PREFETCH_MAX = 512;

/** A quick worker claims about this much of its handlers' work ahead (by their average). */
const PREFETCH_AHEAD_MS = 50;

/** Handlers quicker than this on average get a prefetch. */
const QUICK_HANDLER_MS = 20;

/**
 * The largest group of ordered attempts whose completion may go out while another one is in
 * flight. A key's next occurrence is handed on by its completion, so each step of a deep key
 * waits for a round trip; with one group in flight, an attempt that ended meanwhile waited for
 * it and then for its own, and a few deep keys ran in one group per round trip. Split in two
 * lanes by a hash of the key, the steps of a few deep keys alternate between two round trips in
 * flight (20 keys drained 1.4 – 2.4 × faster); two large groups in flight slowed each other down
 * in the database (2,000 keys, groups of 500: 150 – 230 ms each against 40 – 60 ms for one group
 * of 1,000), so a large group still goes alone.
 */
const SMALL_ORDERED_GROUP = 32;

/** A lane of {@link batchOrdered}. */
interface Lane<K, V> {
  queue: WaitingKey<K, V>[];
  /** The size of its group in flight, 0 for none. */
  flying: number;
  scheduled: boolean;
}

/**
 * Like `batchWhileBusy`, for ordered completions, in two lanes (`laneOf` a key: 0 or 1), each
 * with at most one group in flight; both lanes have one in flight only while both groups have
 * at most {@link SMALL_ORDERED_GROUP} attempts. A key is never in two groups at once whatever its
 * lane: its next occurrence only exists once the completion of the one before came back.
 */
function batchOrdered<K, V>(
  many: (keys: K[]) => Promise<V[]>,
  laneOf: (key: K) => number,
): (key: K) => Promise<V> {
  const lanes: Lane<K, V>[] = [0, 1].map(() => ({ queue: [], flying: 0, scheduled: false }));
  const mayGo = (lane: Lane<K, V>): boolean => {
    const other = lanes[0] === lane ? lanes[1] : lanes[0];
    return lane.flying === 0 && lane.queue.length > 0 &&
      (other.flying === 0 ||
        (other.flying <= SMALL_ORDERED_GROUP && lane.queue.length <= SMALL_ORDERED_GROUP));
  };
  function flush(lane: Lane<K, V>): void {
    lane.scheduled = false;
    if (!mayGo(lane)) return;
    const group = lane.queue;
    lane.queue = [];
    lane.flying = group.length;
    answerGroup(group, many).finally(() => {
      lane.flying = 0;
      for (const each of lanes) schedule(each);
    });
  }
  function schedule(lane: Lane<K, V>): void {
    if (lane.scheduled || !mayGo(lane)) return;
    lane.scheduled = true;
    setImmediate(() => flush(lane));
  }
  return (key) =>
    new Promise<V>((resolve, reject) => {
      const lane = lanes[laneOf(key)];
      lane.queue.push({ key, resolve, reject });
      schedule(lane);
    });
}

/** The lane of an ordering key in {@link batchOrdered}: 0 or 1, by a hash of the key. */
function laneOfKey(orderKey: string): number {
  let hash = 0;
  for (let i = 0; i < orderKey.length; i++) {
    hash = (Math.imul(hash, 31) + orderKey.charCodeAt(i)) | 0;
  }
  return hash & 1;
}

/** Runs attempts with at most `concurrency` in flight, shared by the worker loop and drain(). */
export class HookRunner {
  readonly #s: RunnerSettings;
  readonly #names: string[];
  readonly #claimant: Claimant;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #waiting: WaitingOccurrence[] = [];
  /** Outcome writes of attempts whose handler has finished. */
  readonly #writes = new Set<Promise<void>>();
  /** The attempts whose handler runs, with when it started: their leases are renewed. */
  readonly #running = new Map<ClaimedOccurrence, number>();
  /** The timer renewing their leases while the runner is busy ({@link #holdLease}). */
  #renewal: ReturnType<typeof setInterval> | undefined;
  /** Moving average of handler durations; unknown (no prefetch) until one has run. */
  #handlerMs = Number.POSITIVE_INFINITY;
  readonly #listeners = new Set<(outcome: Outcome) => void>();
  /** Attempts ended and outcome writes settled so far: see {@link settled}. */
  #settled = 0;
  /**
   * Called whenever an attempt ends in a way that may leave something to claim, so a waiting loop
   * claims more: a free slot, a failure, an ordered completion that handed nothing on (its write
   * made the key's next occurrence pending, for any worker to claim). Not for an ordered
   * completion that handed its key's next occurrence to this runner: that one runs already.
   */
  onSettled: () => void = () => {};
  /** drain()'s waits for the next look ({@link nextLook}). */
  #lookWaiters: (() => void)[] = [];
  /** Marks an attempt done; attempts that end while a write is in flight share the next one. */
  readonly #complete: (
    occurrence: ClaimedOccurrence,
  ) => Promise<{ held: boolean; handedOn: boolean }>;
  /**
   * Whether completions take the next occurrence of a finished ordering key for this runner
   * (the hand-off of `withHookFunctions`); a stopping worker turns it off, and gives back what it
   * is handed meanwhile.
   */
  handOff = true;
  /**
   * Whether claimed occurrences start when a slot frees; a stopping worker turns it off, so what
   * it claimed but did not start goes back (`releaseWaiting`) even when a claim or a slot ends
   * while it stops.
   */
  starting = true;

  constructor(settings: RunnerSettings) {
    this.#s = settings;
    this.#names = [...settings.hooks.keys()];
    this.#claimant = {
      names: this.#names,
      leaseMs: settings.leaseMs,
      workerId: settings.workerId,
    };
    const completeMany = async (claimed: ClaimedOccurrence[]) => {
      const ordered = this.handOff && claimed.some((c) => c.orderKey !== null);
      const completion = await settings.store.completeMany(
        settings.adapter,
        claimed,
        ordered ? this.#claimant : undefined,
      );
      this.#adopt(completion.next);
      const handedOn = new Set(completion.next.map((c) => c.orderKey));
      return claimed.map((c, i) => ({
        held: completion.held[i],
        handedOn: c.orderKey !== null && handedOn.has(c.orderKey),
      }));
    };
    const unordered = batchWhileBusy(completeMany);
    const ordered = batchOrdered(completeMany, (c: ClaimedOccurrence) => laneOfKey(c.orderKey!));
    this.#complete = (occurrence) =>
      occurrence.orderKey === null ? unordered(occurrence) : ordered(occurrence);
  }

  /**
   * Runs the occurrences a completion handed on (the next of their ordering keys, claimed for
   * this runner) like claimed ones; a runner that stopped taking hand-offs gives them back.
   */
  #adopt(next: ClaimedOccurrence[]): void {
    if (next.length === 0) return;
    if (!this.handOff) {
      this.#track(
        this.#s.store.release(this.#s.adapter, next).catch((error) => this.#s.onError(error)),
      );
      return;
    }
    const claimedAt = performance.now();
    for (const occurrence of next) this.#waiting.push({ occurrence, claimedAt });
    this.#startWaiting();
  }

  /** Attempts running, claimed and waiting for a slot, or having their outcome written. */
  get busy(): number {
    return this.#inFlight.size + this.#waiting.length + this.#writes.size;
  }

  /**
   * How many attempts have ended and outcome writes have settled since the runner was created.
   * A claim reads one snapshot: an outcome committed while it ran (a completion that made the next
   * occurrence of its ordering key pending, a retry due at once) is not in it. A caller whose claim
   * found nothing compares this count with the one it read before the claim: a change means the
   * claim's "nothing due" may already be stale.
   */
  get settled(): number {
    return this.#settled;
  }

  /**
   * How many occurrences the next claim may take: the free handler slots, plus, while handlers
   * are quick, enough to fill a batch (one claim and a few completion writes per batch instead of
   * per occurrence; each is a commit): about {@link PREFETCH_AHEAD_MS} of their work at the
   * current concurrency, from {@link PREFETCH_BATCH} to {@link PREFETCH_MAX}. No-op handlers thus
   * take 512 per claim (a backlog drained 32 per claim spent its time in claim round trips), 10
   * ms ones 80 at concurrency 16. A quick worker claims its next batch once half of one is left
   * waiting, so at most one and a half batches are held. Slow handlers never get a prefetch, so
   * one worker does not hoard leased occurrences that idle workers could run.
   */
  get free(): number {
    const s = this.#s;
    const slots = Math.max(0, s.concurrency - this.#inFlight.size - this.#waiting.length);
    if (this.#handlerMs > QUICK_HANDLER_MS) {
      return this.#waiting.length >= s.concurrency ? 0 : slots;
    }
    const ahead = Math.ceil((s.concurrency * PREFETCH_AHEAD_MS) / Math.max(this.#handlerMs, 0.01));
    const batch = Math.min(PREFETCH_MAX, Math.max(PREFETCH_BATCH, ahead));
    // The next claim goes out once half a batch is left, so its round trip overlaps the handlers
    // of the rest instead of following them: claim, run, claim again left the handlers idle for
    // every claim round trip (a drain of no-op handlers was bound by it).
    if (this.#waiting.length >= Math.max(s.concurrency, batch / 2)) return 0;
    return Math.max(slots, batch);
  }

  /** Claims up to {@link free} due occurrences and starts them as slots allow; returns how many. */
  async fill(): Promise<number> {
    const free = this.free;
    if (free === 0 || this.#names.length === 0) return 0;
    const s = this.#s;
    const claimed = await s.store.claim(s.adapter, this.#claimant, free);
    const claimedAt = performance.now();
    for (const occurrence of claimed) this.#waiting.push({ occurrence, claimedAt });
    this.#startWaiting();
    return claimed.length;
  }

  /**
   * Gives the claimed occurrences that have not started back (pending, due now, attempt not
   * counted), so a stopping worker leaves them to the others at once instead of running them or
   * keeping them leased.
   */
  async releaseWaiting(): Promise<void> {
    const waiting = this.#waiting.splice(0).map((entry) => entry.occurrence);
    this.#idleCheck(); // what waited was all that kept the runner busy
    if (waiting.length === 0) return;
    try {
      await this.#s.store.release(this.#s.adapter, waiting);
    } catch (error) {
      this.#s.onError(error); // their leases expire and they are claimed again
    }
  }

  #startWaiting(): void {
    while (this.starting && this.#inFlight.size < this.#s.concurrency && this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      const attempt = this.#begin(next).catch((error) => {
        this.#s.onError(error); // unexpected: #attempt records every outcome itself
        return false;
      });
      const running: Promise<void> = attempt.then((handsOn) => {
        this.#inFlight.delete(running);
        this.#settled++;
        this.#startWaiting();
        // Only when a claim could take something: with quick handlers, most ends leave more than
        // half a batch waiting, and waking the loop for each cost it a turn per attempt.
        if (!handsOn && this.free > 0) this.#look();
        this.#idleCheck();
      });
      this.#inFlight.add(running);
    }
  }

  #track(write: Promise<void>): void {
    const tracked: Promise<void> = write.finally(() => {
      this.#writes.delete(tracked);
      this.#settled++;
      this.#idleCheck();
    });
    this.#writes.add(tracked);
  }

  /** Tells the loop, and drain() if it waits, that a claim may find something. */
  #look(): void {
    this.onSettled();
    for (const resolve of this.#lookWaiters.splice(0)) resolve();
  }

  #idleCheck(): void {
    if (this.busy !== 0) return;
    for (const resolve of this.#lookWaiters.splice(0)) resolve();
    // Nothing runs, waits or is written: the lease timer goes (a handler starting makes a new one).
    if (this.#renewal !== undefined) {
      clearInterval(this.#renewal);
      this.#renewal = undefined;
    }
  }

  /**
   * Resolves at the next moment a claim may find something ({@link onSettled}), or once nothing
   * runs any more (immediately when nothing does). drain() waits for it after a claim that found
   * nothing, instead of claiming again at every attempt's end: the occurrences handed on to this
   * runner by its completions run without a claim.
   */
  nextLook(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#lookWaiters.push(resolve));
  }

  /**
   * Starts a claimed attempt, renewing its lease first when it waited a third of it. Answers
   * whether it succeeded with an ordering key: its completion, not the end of its handler, tells
   * when there is something to claim (see {@link onSettled}).
   */
  async #begin(entry: WaitingOccurrence): Promise<boolean> {
    const s = this.#s;
    if (performance.now() - entry.claimedAt > s.leaseMs / 3) {
      let held = false;
      try {
        held = await s.store.renew(s.adapter, entry.occurrence, s.leaseMs);
      } catch (error) {
        s.onError(error);
      }
      if (!held) return false; // taken over by another worker (or unknown): its run stands
    }
    return await this.#attempt(entry.occurrence);
  }

  /** Resolves when every running attempt has ended. */
  async settleAll(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#writes.size > 0) {
      await Promise.all([...this.#inFlight, ...this.#writes]);
    }
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

  /**
   * Runs one attempt inside a span (`process <hook name>`, kind CONSUMER, following OpenTelemetry's
   * messaging conventions): the handler runs in the span's context, so the spans it starts are its
   * children. The span ends when the outcome is known, before the outcome is written.
   */
  #attempt(occurrence: ClaimedOccurrence): Promise<boolean> {
    const s = this.#s;
    return inSpan(`process ${occurrence.name}`, () => ({
      kind: SPAN_KIND.CONSUMER,
      attributes: {
        "messaging.system": "fragment-cli",
        "messaging.operation.type": "process",
        "messaging.operation.name": "process",
        "messaging.destination.name": `${s.namespace}.${occurrence.name}`,
        "messaging.message.id": occurrence.id,
        "fragment.hook.namespace": s.namespace,
        "fragment.hook.name": occurrence.name,
        "fragment.hook.attempt": occurrence.attempt,
      },
    }), (span) => this.#attemptIn(span, occurrence));
  }

  async #attemptIn(span: Span, occurrence: ClaimedOccurrence): Promise<boolean> {
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
    span.setAttribute("fragment.hook.max_attempts", maxAttempts);
    if (occurrence.attempt > maxAttempts) {
      // The previous attempt was the last one and its worker died (the lease expired).
      const reason = `attempt ${occurrence.attempt - 1} of ${maxAttempts} was abandoned ` +
        `(its worker stopped before finishing)` +
        (occurrence.lastError ? `; previous error: ${occurrence.lastError}` : "");
      endSpan(span, "failed", reason);
      const write = () => s.store.fail(s.adapter, occurrence, reason, null);
      await this.#record(context, write, "failed");
      return false;
    }
    this.#holdLease(occurrence);
    let failure: unknown;
    let failed = false;
    const started = performance.now();
    try {
      await definition.handler(occurrence.payload, context);
    } catch (error) {
      failed = true;
      failure = error;
    } finally {
      this.#running.delete(occurrence);
    }
    const took = performance.now() - started;
    this.#handlerMs = Number.isFinite(this.#handlerMs) ? this.#handlerMs * 0.8 + took * 0.2 : took;
    if (!failed) {
      endSpan(span, "done");
      // The slot is free once the handler is: the done write joins the others of its batch.
      if (occurrence.orderKey === null) {
        const write = () => this.#complete(occurrence).then((result) => result.held);
        this.#track(this.#record(context, write, "done"));
        return false;
      }
      // With an ordering key, the write also made the key's next occurrence pending, and claimed
      // it for this runner when it could (hand-off): look again once it is committed, unless it
      // was handed on (a look when the handler ended would be too early to see it).
      let handedOn = false;
      const write = this.#record(context, async () => {
        const result = await this.#complete(occurrence);
        handedOn = result.handedOn;
        return result.held;
      }, "done");
      this.#track(write.then(() => {
        if (!handedOn) this.#look();
      }));
      return true;
    }
    s.onError(failure, context);
    // A permanent failure (a request refused as malformed) is not retried.
    const last = occurrence.attempt >= maxAttempts || failure instanceof PermanentHookError;
    const delay = last ? null : hookRetryDelay(occurrence.attempt, {
      baseMs: s.retryDelayMs,
      maxMs: s.maxRetryDelayMs,
    });
    endSpan(span, last ? "failed" : "retried", failure);
    await this.#record(
      context,
      () => s.store.fail(s.adapter, occurrence, describeError(failure), delay),
      last ? "failed" : "retried",
    );
    return false;
  }

  /**
   * Renews the lease of an attempt while its handler runs: one timer for all of the runner's
   * attempts, ticking every third of the lease while the runner is busy (see {@link #idleCheck}),
   * renews each running attempt that started at least half a tick ago, so none goes more than half
   * a lease without a renewal. A timer per attempt (created and cleared around every handler) was
   * about 3 µs per quick attempt in a profile of the webhook's load.
   */
  #holdLease(occurrence: ClaimedOccurrence): void {
    this.#running.set(occurrence, performance.now());
    const s = this.#s;
    const every = Math.max(1, Math.floor(s.leaseMs / 3));
    this.#renewal ??= setInterval(() => {
      const startedBefore = performance.now() - every / 2;
      for (const [running, since] of this.#running) {
        if (since > startedBefore) continue; // renewed by the next tick, within half a lease
        s.store.renew(s.adapter, running, s.leaseMs).catch((error) => s.onError(error));
      }
    }, every);
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

/**
 * Ends a run's span with its outcome; a failed attempt (retried or not) records the error and sets
 * the span's status to ERROR.
 */
function endSpan(span: Span, outcome: Outcome, failure?: unknown): void {
  span.setAttribute("fragment.hook.outcome", SPAN_OUTCOME[outcome]);
  if (outcome !== "done") {
    if (failure instanceof Error) span.recordException(failure);
    else span.recordException(typeof failure === "string" ? failure : describeError(failure));
    const message = failure instanceof Error ? failure.message : describeError(failure);
    span.setStatus({ code: SPAN_STATUS_ERROR, message });
  }
  span.end();
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
