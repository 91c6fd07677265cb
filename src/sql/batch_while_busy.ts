/**
 * Internal to the package (not exported by `mod.ts`): turns a function of many keys into a
 * function of one key that groups the calls made in the same turn of the event loop, and those
 * made while a previous group is in flight. An idle batcher sends its group once the current
 * turn's microtasks have run (`setImmediate`, no timer delay), so handlers started together (the
 * hook worker starts a claimed batch in one loop) share one statement instead of the first going
 * alone. Under load, every round trip carries everything that queued meanwhile, so the statements
 * per item fall as the load rises.
 *
 * @module
 */
import { setImmediate } from "node:timers";

/** A key waiting in a batcher's queue, with the settlement of its caller's promise. */
export interface WaitingKey<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs `many` for a group of waiting keys and settles each caller with its own result (or every
 * caller with the group's error). Through a promise, so a `many` that throws at once rejects the
 * group instead of escaping. Resolves once every caller is settled.
 */
export function answerGroup<K, V>(
  group: readonly WaitingKey<K, V>[],
  many: (keys: K[]) => Promise<V[]>,
): Promise<void> {
  return Promise.resolve(group.map((entry) => entry.key))
    .then(many)
    .then(
      (values) => group.forEach((entry, i) => entry.resolve(values[i])),
      (error) => group.forEach((entry) => entry.reject(error)),
    );
}

/** Runs `many` for groups of keys; `many` answers one result per key, in the keys' order. */
export function batchWhileBusy<K, V>(
  many: (keys: K[]) => Promise<V[]>,
): (key: K) => Promise<V> {
  let queue: WaitingKey<K, V>[] = [];
  /** A group is in flight, or scheduled to be sent at the end of this turn. */
  let busy = false;

  function flush(): void {
    const group = queue;
    queue = [];
    busy = true;
    // answerGroup never rejects, so `busy` cannot stay set for good.
    answerGroup(group, many).finally(() => {
      busy = false;
      if (queue.length > 0) flush();
    });
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      queue.push({ key, resolve, reject });
      if (!busy) {
        busy = true;
        setImmediate(flush);
      }
    });
}
