/**
 * The operator's API of durable hooks: list, show, retry, cancel and purge the occurrences of one
 * namespace, without the hooks' handlers (what `fragment-cli hooks` uses on a module's database).
 *
 * @module
 */

import type { SqlAdapter } from "../sql/adapter.ts";
import { type HookCounts, HookStore, type OccurrenceWithErrors } from "./hook_store.ts";
import type { HookOccurrence, HookQuerier, HookStatus } from "./hook_types.ts";
import { assertName } from "../schema/schema_state.ts";

export type { HookCounts, OccurrenceWithErrors };

/**
 * What a change of given occurrences did: each id is in exactly one list.
 *
 * @example Report what a cancel did
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { hookAdmin, type HookChangeResult, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const admin = hookAdmin({ adapter: db, namespace: "mailer" });
 * const result: HookChangeResult = await admin.cancel(["1", "2"]);
 * if (result.unknown.length > 0) console.log("no such occurrence:", result.unknown); // ["1", "2"]
 * await db.close();
 * ```
 */
export interface HookChangeResult {
  /** The ids changed. */
  changed: string[];
  /** The ids left alone, with their status (e.g. `retry` of a pending occurrence). */
  unchanged: { id: string; status: HookStatus }[];
  /** The ids that no occurrence has; when any, nothing was changed. */
  unknown: string[];
}

/**
 * The operations of {@link hookAdmin}.
 *
 * @example A status line for a dashboard
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { type HookAdmin, hookAdmin, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * async function report(admin: HookAdmin): Promise<string> {
 *   const { pending, failed } = await admin.counts();
 *   return `${admin.namespace}: ${pending} pending, ${failed} failed`;
 * }
 * console.log(await report(hookAdmin({ adapter: db, namespace: "mailer" }))); // mailer: 0 pending, 0 failed
 * await db.close();
 * ```
 */
export interface HookAdmin {
  /** The namespace. */
  readonly namespace: string;
  /** Whether the hook table exists in the database (the namespace is migrated to it). */
  exists(): Promise<boolean>;
  /** Occurrences, newest first, by status and/or hook name. @default limit 50 */
  list(filter?: { status?: HookStatus; name?: string; limit?: number }): Promise<HookOccurrence[]>;
  /** One occurrence with its error log, or `null`. */
  get(id: string): Promise<OccurrenceWithErrors | null>;
  /**
   * Puts failed or cancelled occurrences back to pending, due now, attempts reset to 0 (their
   * error log kept), and wakes the workers. Others are left alone (idempotent). All or nothing:
   * with an unknown id nothing changes. One with an ordering key re-enters its key's chain:
   * `blocked` behind the key's pending or running occurrence, if any (it then runs next, before
   * the key's later occurrences still blocked), else pending.
   */
  retry(ids: readonly string[]): Promise<HookChangeResult>;
  /** Retries every failed occurrence (not the cancelled ones); returns the ids. */
  retryFailed(): Promise<string[]>;
  /**
   * Cancels pending, running, blocked or failed occurrences: no worker claims them again (an attempt
   * running now may still finish its work, but its outcome is not recorded). Done and cancelled
   * ones are left alone. All or nothing, like {@link HookAdmin.retry}.
   */
  cancel(ids: readonly string[]): Promise<HookChangeResult>;
  /** Deletes done occurrences finished at least `olderThanMs` ago; returns how many. */
  purgeDone(olderThanMs: number): Promise<number>;
  /** Pending, running, failed, blocked counts and the age of the oldest pending occurrence. */
  counts(): Promise<HookCounts>;
}

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
 * const failed = await admin.list({ status: "failed" });
 * console.log(failed.map((o) => `${o.id} ${o.name}: ${o.lastError}`));
 * await admin.retryFailed();
 * await db.close();
 * ```
 */
export function hookAdmin(options: { adapter: SqlAdapter; namespace: string }): HookAdmin {
  const { adapter, namespace } = options;
  assertName(namespace, "Hooks namespace");
  const store = new HookStore(namespace);

  async function change(
    ids: readonly string[],
    changeable: readonly HookStatus[],
    apply: (tx: HookQuerier, ids: string[]) => Promise<string[]>,
    notify: boolean,
  ): Promise<HookChangeResult> {
    const given = [...new Set(ids)];
    return await adapter.transaction(async (tx) => {
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
      if (notify && changed.length > 0) await store.notify(tx);
      return { changed, unchanged, unknown: [] };
    });
  }

  return {
    namespace,
    exists: () => store.exists(adapter),
    list: (filter = {}) => store.newest(adapter, { ...filter, limit: filter.limit ?? 50 }),
    get: (id) => store.getWithErrors(adapter, id),
    retry: (ids) =>
      change(ids, ["failed", "cancelled"], (tx, targets) => store.redrive(tx, targets), true),
    async retryFailed(): Promise<string[]> {
      return await adapter.transaction(async (tx) => {
        const changed = await store.requeue(tx, {});
        if (changed.length > 0) await store.notify(tx);
        return changed;
      });
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
  return /^[0-9]{1,19}$/.test(id) ? BigInt(id).toString() : id;
}
