/**
 * The scheduling of password hashes: a few run at once, a bounded number wait, the rest are
 * refused at once ({@link PasswordHasherBusyError}, answered 503 with `Retry-After`) instead of
 * queuing for seconds. Waiting hashes are served by fairness, not arrival: the key (client
 * address) that started the fewest hashes recently goes first, and when the queue is full a
 * newcomer with less recent use takes the place of the heaviest user's latest waiter. So a flood
 * from a few addresses delays a sign-in from another address by about one hash, not by the flood.
 *
 * @module
 */

/**
 * Thrown instead of queuing when the hashing queue is full. The auth routes answer it with 503
 * `SERVICE_BUSY` and `Retry-After: retryAfterSeconds`.
 *
 * @example
 * ```ts ignore
 * try {
 *   await hasher.verify(password, stored, { key: "192.0.2.1" });
 * } catch (error) {
 *   if (error instanceof PasswordHasherBusyError) console.log(error.retryAfterSeconds);
 * }
 * ```
 */
export class PasswordHasherBusyError extends Error {
  /** An estimate of the seconds until a place frees up (at least 1). */
  readonly retryAfterSeconds: number;
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

/** Runs `work` for `key` (a client address; `null` for in-process callers) when admitted. */
export type HashingSlot = <T>(key: string | null, work: () => Promise<T>) => Promise<T>;

/** Recent use is counted over one to two of these periods. */
const USAGE_PERIOD_MS = 60_000;

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
  // Hashes started per key in the current and the previous period: a bounded memory of who used
  // the hasher lately (a key counts only once it got a slot, at most a few per second).
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  let periodStartedAt = Date.now();
  let averageMs = 0;

  function usage(key: string): number {
    const now = Date.now();
    if (now - periodStartedAt >= USAGE_PERIOD_MS) {
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

  async function run<T>(key: string, work: () => Promise<T>): Promise<T> {
    usage(key); // moves to a new period when one is due
    current.set(key, (current.get(key) ?? 0) + 1);
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

  return async function slot<T>(key: string | null, work: () => Promise<T>): Promise<T> {
    const k = key ?? "";
    if (active < maxConcurrent && waiting.length === 0) {
      active++;
      return await run(k, work);
    }
    if (waiting.length >= maxQueued) {
      const victim = pick(-1);
      if (victim === -1 || usage(waiting[victim].key) <= usage(k)) throw busy();
      const [evicted] = waiting.splice(victim, 1);
      evicted.refuse(busy());
    }
    await new Promise<void>((start, refuse) => {
      waiting.push({ key: k, arrival: arrivals++, start, refuse });
    });
    return await run(k, work);
  };
}
