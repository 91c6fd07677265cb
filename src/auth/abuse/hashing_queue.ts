/**
 * The scheduling of password hashes: a few run at once, a bounded number wait, the rest are
 * refused at once ({@link PasswordHasherBusyError}, answered 503 with `Retry-After`) instead of
 * queuing for seconds. Waiting hashes are served by fairness, not arrival: the key (client
 * address) that asked for the fewest hashes recently (refused asks count too) goes first, and when
 * the queue is full a newcomer with fewer recent asks takes the place of the heaviest asker's
 * latest waiter. So a flood delays a sign-in from an address that is not flooding by about one
 * hash, not by the flood.
 *
 * @module
 */

/**
 * Thrown instead of queuing when the hashing queue is full. The auth routes answer it with 503
 * `SERVICE_BUSY` and `Retry-After: retryAfterSeconds`.
 *
 * @example
 * ```ts
 * import { PasswordHasherBusyError, scryptPasswordHasher } from "@app/fragment-cli/auth";
 *
 * const hasher = scryptPasswordHasher();
 * const stored = await hasher.hash("correct horse");
 * try {
 *   await hasher.verify("correct horse", stored, { key: "192.0.2.1" });
 * } catch (error) {
 *   if (error instanceof PasswordHasherBusyError) console.log(error.retryAfterSeconds);
 * }
 * ```
 */
export class PasswordHasherBusyError extends Error {
  /** An estimate of the seconds until a place frees up (at least 1). */
  readonly retryAfterSeconds: number;
  /** An error telling to retry after `retryAfterSeconds` (what the hashing queue throws). */
  constructor(retryAfterSeconds: number) {
    super("Too many passwords are being hashed; retry shortly");
    this.name = "PasswordHasherBusyError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Bounds of {@link hashingQueue}. */
export interface HashingQueueOptions {
  /** Hashes running at once. */
  maxConcurrent: number;
  /** Hashes waiting for a slot; beyond that, {@link PasswordHasherBusyError}. */
  maxQueued: number;
}

/**
 * Runs `work` for `key` (a client address; `null` for in-process callers) when admitted, and
 * `refuseEarly(key)` throws the refusal a hash for `key` would get now, before any other work
 * (a database lookup) is spent on a request that cannot be served.
 */
export interface HashingSlot {
  <T>(key: string | null, work: () => Promise<T>): Promise<T>;
  refuseEarly(key: string | null): void;
}

/** Recent asks are counted over one to two of these periods. */
const USAGE_PERIOD_MS = 60_000;
/** Keys remembered per period at most (a flood of fresh keys starts a new period early). */
const MAX_KEYS = 10_000;

interface Waiter {
  key: string;
  arrival: number;
  start: () => void;
  refuse: (error: PasswordHasherBusyError) => void;
}

/**
 * A bounded, fair hashing queue (see the module documentation).
 *
 * @example
 * ```ts
 * import { hashingQueue } from "./hashing_queue.ts";
 *
 * const slot = hashingQueue({ maxConcurrent: 2, maxQueued: 4 });
 * console.log(await slot("192.0.2.1", () => Promise.resolve(42))); // 42
 * ```
 */
export function hashingQueue(options: HashingQueueOptions): HashingSlot {
  const { maxConcurrent, maxQueued } = options;
  let active = 0;
  let arrivals = 0;
  const waiting: Waiter[] = [];
  // Hashes asked for per key (admitted or refused) in the current and the previous period: a
  // bounded memory of who wanted the hasher lately. Refusals count: a flood's addresses keep
  // asking, so they rank behind an address that asks once.
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  let periodStartedAt = Date.now();
  let averageMs = 0;

  function usage(key: string): number {
    const now = Date.now();
    if (now - periodStartedAt >= USAGE_PERIOD_MS || current.size >= MAX_KEYS) {
      previous = now - periodStartedAt >= 2 * USAGE_PERIOD_MS ? new Map() : current;
      current = new Map();
      periodStartedAt = now;
    }
    return (current.get(key) ?? 0) + (previous.get(key) ?? 0);
  }

  function busy(): PasswordHasherBusyError {
    const rounds = (active + waiting.length) / maxConcurrent;
    return new PasswordHasherBusyError(Math.max(1, Math.ceil((rounds * averageMs) / 1000)));
  }

  /** The waiter to serve next (least recent use, then earliest) or to evict (the opposite). */
  function pick(order: 1 | -1): number {
    let best = -1;
    for (let i = 0; i < waiting.length; i++) {
      if (best === -1) best = i;
      else {
        const byUse = usage(waiting[i].key) - usage(waiting[best].key);
        const byArrival = waiting[i].arrival - waiting[best].arrival;
        if (order * (byUse || byArrival) < 0) best = i;
      }
    }
    return best;
  }

  function startNext(): void {
    if (active >= maxConcurrent || waiting.length === 0) return;
    const [next] = waiting.splice(pick(1), 1);
    active++;
    next.start();
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = Date.now();
    try {
      return await work();
    } finally {
      const took = Date.now() - startedAt;
      averageMs = averageMs === 0 ? took : averageMs * 0.8 + took * 0.2;
      active--;
      startNext();
    }
  }

  function ask(key: string): void {
    usage(key); // moves to a new period when one is due
    current.set(key, (current.get(key) ?? 0) + 1);
  }

  /**
   * Whether a newcomer for `key` finds no place: every slot taken and no waiter of a heavier asker
   * to evict. `uncounted` is 1 when the newcomer's own ask is not counted yet.
   */
  function full(key: string, uncounted = 0): boolean {
    if (active < maxConcurrent && waiting.length === 0) return false;
    if (waiting.length < maxQueued) return false;
    const victim = pick(-1);
    return victim === -1 || usage(waiting[victim].key) <= usage(key) + uncounted;
  }

  const slot = async function slot<T>(key: string | null, work: () => Promise<T>): Promise<T> {
    const k = key ?? "";
    ask(k);
    if (active < maxConcurrent && waiting.length === 0) {
      active++;
      return await run(work);
    }
    if (waiting.length >= maxQueued) {
      if (full(k)) throw busy();
      const victim = pick(-1);
      const [evicted] = waiting.splice(victim, 1);
      evicted.refuse(busy());
    }
    await new Promise<void>((start, refuse) => {
      waiting.push({ key: k, arrival: arrivals++, start, refuse });
    });
    return await run(work);
  } as HashingSlot;
  slot.refuseEarly = (key) => {
    const k = key ?? "";
    // Counted as an ask only when refused: an admitted request asks again when it hashes.
    if (full(k, 1)) {
      ask(k);
      throw busy();
    }
  };
  return slot;
}
