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

/** Runs `many` for groups of keys; `many` answers one result per key, in the keys' order. */
export function batchWhileBusy<K, V>(
  many: (keys: K[]) => Promise<V[]>,
): (key: K) => Promise<V> {
  let queue: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = [];
  /** A group is in flight, or scheduled to be sent at the end of this turn. */
  let busy = false;

  function flush(): void {
    const group = queue;
    queue = [];
    busy = true;
    // Through a promise, so a function that throws at once rejects the group instead of
    // leaving `busy` set for good.
    Promise.resolve(group.map((entry) => entry.key))
      .then(many)
      .then(
        (values) => group.forEach((entry, i) => entry.resolve(values[i])),
        (error) => group.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
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
