/**
 * The operator's API of durable hooks: list, show, retry, cancel, purge and count the occurrences
 * of one namespace, without the hooks' handlers (what `fragment-cli hooks` uses on a module's
 * database). Every `DurableHooks` has the same API: `durableHooks()` builds it here too.
 *
 * @module
 */

import type { SqlAdapter } from "../sql/adapter.ts";
import type { HookQuerier } from "./hook_types.ts";
import type { HookAdmin, HookChangeResult, HookStatus } from "./hook_operations.ts";
import { HookEnqueueStore } from "./hook_enqueue_store.ts";
import { HookOperatorStore } from "./hook_operator_store.ts";
import { HookTableProbe, isOccurrenceId } from "./hook_table_probe.ts";
import { assertName } from "../schema/schema_state.ts";

/** How many rows one purge statement deletes; a purge repeats it until fewer are left. */
const PURGE_BATCH = 5000;

/**
 * The operator's API of the durable hooks of one namespace. It needs only the database and the
 * namespace, not the hooks' handlers: any process may run it beside the workers.
 *
 * @param options The database and the namespace holding the hook table.
 * @returns The operations.
 * @throws {TypeError} For an invalid namespace.
 *
 * @example Redrive every failed occurrence of the "mailer" namespace
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { hookAdmin, withHookTable } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const admin = hookAdmin({ adapter: db, namespace: "mailer" });
 * const failed = await admin.list({ status: "failed", order: "newest" });
 * console.log(failed.occurrences.map((o) => `${o.id} ${o.name}: ${o.lastError}`));
 * await admin.retryFailed();
 * await db.close();
 * ```
 */
export function hookAdmin(options: { adapter: SqlAdapter; namespace: string }): HookAdmin {
  assertName(options.namespace, "Hooks namespace");
  return createHookAdmin(options.adapter, new HookTableProbe(options.namespace), () => {});
}

/**
 * Internal: the operator API over a namespace's table, `onRetried` called after a retry that put
 * occurrences back committed (`durableHooks()` wakes its own worker there).
 */
export function createHookAdmin(
  adapter: SqlAdapter,
  probe: HookTableProbe,
  onRetried: () => void,
): HookAdmin {
  const store = new HookOperatorStore(probe);
  const enqueue = new HookEnqueueStore(probe);

  async function change(
    ids: readonly string[],
    changeable: readonly HookStatus[],
    apply: (tx: HookQuerier, ids: string[]) => Promise<string[]>,
    notify: boolean,
  ): Promise<HookChangeResult> {
    const given = [...new Set(ids)];
    const result = await adapter.transaction(async (tx) => {
      // Ordering locks before row locks, the order every other writer of a key takes them in.
      await store.lockOrderKeysOf(tx, given.map(canonicalId));
      const statuses = await store.lockStatuses(tx, given.map(canonicalId));
      const unknown = given.filter((id) => !statuses.has(canonicalId(id)));
      if (unknown.length > 0) return { changed: [], unchanged: [], unknown };
      const wanted = [...new Set(given.map(canonicalId))];
      const targets = wanted.filter((id) => changeable.includes(statuses.get(id)!));
      const unchanged = wanted.filter((id) => !targets.includes(id))
        .map((id) => ({ id, status: statuses.get(id)! }));
      const changed = targets.length > 0 ? await apply(tx, targets) : [];
      if (notify && changed.length > 0) await enqueue.notify(tx);
      return { changed, unchanged, unknown: [] };
    });
    if (notify && result.changed.length > 0) onRetried();
    return result;
  }

  return {
    namespace: probe.namespace,
    exists: () => probe.exists(adapter),
    get: (id) => store.get(adapter, id),
    find: (name, key) => store.find(adapter, name, key),
    list: (listOptions = {}) => store.list(adapter, listOptions),
    retry: (ids) =>
      change(ids, ["failed", "cancelled"], (tx, targets) => store.redrive(tx, targets), true),
    async retryFailed(retryOptions = {}): Promise<string[]> {
      const changed = await adapter.transaction(async (tx) => {
        const ids = await store.retryFailed(tx, retryOptions);
        if (ids.length > 0) await enqueue.notify(tx);
        return ids;
      });
      if (changed.length > 0) onRetried();
      return changed;
    },
    cancel: (ids) =>
      change(
        ids,
        ["pending", "running", "failed", "blocked"],
        (tx, targets) => store.cancel(tx, targets),
        false,
      ),
    async purgeDone(olderThanMs: number): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await store.purgeDone(adapter, olderThanMs, PURGE_BATCH);
        total += n;
        if (n < PURGE_BATCH) return total;
      }
    },
    counts: () => store.counts(adapter),
  };
}

/** An id as the database prints it: `007` is occurrence `7`. */
function canonicalId(id: string): string {
  return isOccurrenceId(id) ? BigInt(id).toString() : id;
}
