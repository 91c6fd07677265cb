/**
 * Internal helpers shared by the adapters: a FIFO mutex, and detection of an
 * adapter being called from inside one of its own running transactions.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { TransactionMisuseError } from "./adapter_errors.ts";

/** Marks the async context of a running transaction callback. */
export interface TransactionScope {
  readonly owner: object;
  active: boolean;
}

const scopes = new AsyncLocalStorage<TransactionScope>();

/** Runs `fn` with `scope` as the current transaction scope. */
export function runInScope<T>(scope: TransactionScope, fn: () => Promise<T>): Promise<T> {
  return scopes.run(scope, fn);
}

/** Throws when the caller runs inside a live transaction callback of `owner`. */
export function assertOutsideOwnTransaction(owner: object, what: string): void {
  const scope = scopes.getStore();
  if (scope !== undefined && scope.owner === owner && scope.active) {
    throw new TransactionMisuseError(
      `${what} was called on the adapter inside one of its running transactions; ` +
        "use the transaction object passed to the callback (it would not be part of the transaction" +
        " and, on PGlite, would wait for it forever)",
    );
  }
}

/** A FIFO mutual-exclusion lock built on a promise chain. */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `fn` once every earlier holder has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(() => undefined, () => undefined);
    return result;
  }
}
