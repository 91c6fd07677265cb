/**
 * Internal: what one namespace's hook table has in the database (the optional columns and SQL
 * functions appended by `withHookErrorLog`, `withHookOrdering` and `withHookFunctions`), asked of
 * the database, not the schema: the stores work with schemas that never appended them and with
 * databases not yet migrated to them. Shared by the enqueue, worker and operator stores.
 *
 * @module
 */

import type { HookQuerier } from "./hook_types.ts";
import { HOOK_TABLE } from "./hook_table.ts";
import { quoteQualified } from "../sql/sql_identifier.ts";

/** How long a "no" answer is trusted before asking the database again (a migration may add it). */
const RECHECK_MS = 60_000;

/** The signature of the claim function of `withHookFunctions`, as `to_regprocedure` reads it. */
const CLAIM_FUNCTION_ARGS = "(text[], integer, bigint, text, boolean)";

/** The hook table of one namespace and what it has. */
export class HookTableProbe {
  /** The namespace, unquoted. */
  readonly namespace: string;
  /** The table, quoted and qualified. */
  readonly table: string;
  readonly #known = new Map<string, { has: boolean; at: number }>();

  constructor(namespace: string) {
    this.namespace = namespace;
    this.table = quoteQualified(namespace, HOOK_TABLE);
  }

  /** A function of the namespace (`hook_claim`, …), quoted and qualified. */
  fn(name: string): string {
    return quoteQualified(this.namespace, name);
  }

  /** Whether the table has the error log (`withHookErrorLog`). */
  hasErrorLog(db: HookQuerier): Promise<boolean> {
    return this.#ask(db, "column:errors", COLUMN_SQL, [this.table, "errors"]);
  }

  /** Whether the table has ordering keys (`withHookOrdering`). */
  hasOrdering(db: HookQuerier): Promise<boolean> {
    return this.#ask(db, "column:order_key", COLUMN_SQL, [this.table, "order_key"]);
  }

  /** Whether the namespace has the worker's SQL functions (`withHookFunctions`). */
  hasFunctions(db: HookQuerier): Promise<boolean> {
    return this.#ask(db, "functions", "SELECT to_regprocedure($1) IS NOT NULL AS has", [
      `${this.fn("hook_claim")}${CLAIM_FUNCTION_ARGS}`,
    ]);
  }

  /** Whether the hook table exists in the database (the namespace was migrated to it). */
  async exists(db: HookQuerier): Promise<boolean> {
    const rows = await db.query<{ has: boolean }>(
      "SELECT to_regclass($1) IS NOT NULL AS has",
      [this.table],
    );
    return rows[0]?.has === true;
  }

  /** A "yes" is kept, a "no" asked again after {@link RECHECK_MS}. */
  async #ask(db: HookQuerier, what: string, sql: string, params: unknown[]): Promise<boolean> {
    const known = this.#known.get(what);
    if (known && (known.has || performance.now() - known.at < RECHECK_MS)) return known.has;
    const rows = await db.query<{ has: boolean }>(sql, params);
    const has = rows[0]?.has === true;
    this.#known.set(what, { has, at: performance.now() });
    return has;
  }
}

const COLUMN_SQL = `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1)
         AND attname = $2 AND NOT attisdropped) AS has`;

/** Whether `id` can be an occurrence id (a bigint in decimal). */
export function isOccurrenceId(id: string): boolean {
  return /^[0-9]{1,19}$/.test(id);
}

/**
 * Takes the transaction-scoped advisory locks of the given ordering keys, the ones the ordering
 * triggers take (`withHookOrdering`), in the order of the lock ids, waiting for each. A
 * transaction takes them before it locks or changes the keys' occurrences: its triggers then take
 * locks it holds, and the row locks come after the key locks, as for every writer.
 */
export async function lockOrderKeys(
  db: HookQuerier,
  namespace: string,
  orderKeys: readonly string[],
): Promise<void> {
  await db.query(
    `SELECT count(pg_advisory_xact_lock(hashtext($1), k)) FROM (
       SELECT DISTINCT hashtext(key) AS k FROM unnest($2::text[]) AS key ORDER BY 1) AS keys`,
    [namespace, orderKeys],
  );
}
