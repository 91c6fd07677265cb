/**
 * Internal to the package (not exported by `mod.ts`): turns a function of many keys into a
 * function of one key that groups the calls made while a previous group is in flight. The first
 * call goes at once (no timer, no added delay); under load, every round trip carries everything
 * that queued meanwhile, so the statements per item fall as the load rises.
 *
 * @module
 */

/** Runs `many` for groups of keys; `many` answers one result per key, in the keys' order. */
export function batchWhileBusy<K, V>(
  many: (keys: K[]) => Promise<V[]>,
): (key: K) => Promise<V> {
  let queue: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = [];
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
      if (!busy) flush();
    });
}
