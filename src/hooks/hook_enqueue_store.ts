/**
 * Internal: the SQL of the enqueuing side of durable hooks (the module's requests): the insert of
 * an occurrence, its fragment for the caller's own statement, the wake-up notification, and the
 * join of an occurrence's state into the module's queries. Identifiers go through
 * `quoteQualified`; every value is a parameter.
 *
 * @module
 */

import type { HookOccurrenceInput, HookQuerier } from "./hook_types.ts";
import type { HookTableProbe } from "./hook_table_probe.ts";
import { KEY_CONFLICT } from "./hook_table.ts";
import { quoteIdent } from "../sql/sql_identifier.ts";

/** The NOTIFY channel of every hook namespace; the payload names the namespace. */
export const HOOK_CHANNEL = "fragment_cli_hooks";

/** The enqueue statements of one namespace's hook table. */
export class HookEnqueueStore {
  readonly #probe: HookTableProbe;

  constructor(probe: HookTableProbe) {
    this.#probe = probe;
  }

  /**
   * Inserts unless `(name, key)` exists; notifies workers (delivered on commit). With an
   * `orderKey`, the table's trigger (`withHookOrdering`) stores it `blocked` behind the key's
   * unfinished occurrence. The notification is part of the insert's statement: one round trip,
   * and on an autocommit connection the workers hear of the occurrence as soon as it is stored
   * (a separate `pg_notify` cost every enqueue a second round trip before any worker woke).
   */
  async insert(
    db: HookQuerier,
    input: HookOccurrenceInput,
  ): Promise<{ id: string; duplicate: boolean }> {
    const table = this.#probe.table;
    const ordered = input.orderKey !== undefined;
    if (ordered && !(await this.#probe.hasOrdering(db))) throw this.#noOrdering();
    const params: unknown[] = [
      input.name,
      input.key ?? null,
      input.payload ?? null,
      input.runAt ?? null,
      ...(ordered ? [input.orderKey] : []),
    ];
    const channel = params.push(HOOK_CHANNEL);
    const payload = params.push(this.#probe.namespace);
    const inserted = await db.query<{ id: string }>(
      `WITH inserted AS (
         INSERT INTO ${table} (name, key, payload, due_at${ordered ? ", order_key" : ""})
         VALUES ($1, $2, $3::jsonb, COALESCE($4::timestamptz, now())${ordered ? ", $5" : ""})
         ON CONFLICT ${KEY_CONFLICT} DO NOTHING RETURNING id
       )
       SELECT id,
              (SELECT count(*) FROM (SELECT pg_notify($${channel}, $${payload}) FROM inserted) AS n)
                AS notified
         FROM inserted`,
      params,
    );
    if (inserted.length > 0) return { id: inserted[0].id, duplicate: false };
    // ON CONFLICT waited for a concurrent inserter to commit, so the row is visible now.
    const existing = await db.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE name = $1 AND key = $2`,
      [input.name, input.key ?? null],
    );
    return { id: existing[0].id, duplicate: true };
  }

  #noOrdering(): TypeError {
    return new TypeError(
      `The hook table of namespace "${this.#probe.namespace}" has no ordering keys: append ` +
        "withHookOrdering() after withHookTable() in the module's schema and migrate, or " +
        "enqueue without orderKey",
    );
  }

  /**
   * The insert of {@link insert} as a fragment of the caller's statement: one occurrence per row
   * of `from` (a relation of that statement), or exactly one without it. No notification.
   */
  insertSql(
    input: HookOccurrenceInput,
    from: string | undefined,
    firstParam: number,
    payloadSql?: string,
    keySql?: string,
    orderKeySql?: string,
    inOneCall = false,
  ): { sql: string; params: unknown[] } {
    const params: unknown[] = [];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${firstParam + params.length - 1}`;
    };
    const name = param(input.name);
    const key = keySql === undefined ? `${param(input.key ?? null)}::text` : `(${keySql})::text`;
    const payload = payloadSql === undefined
      ? `${param(input.payload ?? null)}::jsonb`
      : `(${payloadSql})::jsonb`;
    const runAt = param(input.runAt ?? null);
    const orderKey = orderKeySql !== undefined
      ? `, (${orderKeySql})::text`
      : input.orderKey !== undefined
      ? `, ${param(input.orderKey)}::text`
      : "";
    const table = this.#probe.table;
    if (inOneCall) {
      if (from === undefined || orderKeySql === undefined) {
        throw new TypeError("enqueueSql: inOneCall needs from and orderKeySql");
      }
      // One call for the rows of `from`; its aggregates read them in one pass, so the arrays
      // line up, in the order `from` yields them (each key's occurrences are enqueued in it).
      return {
        sql: `SELECT ${this.#probe.fn("hook_enqueue_ordered")}(${name}::text,
         array_agg(${key}), array_agg(${payload}), ${runAt}::timestamptz,
         array_agg((${orderKeySql})::text)) AS enqueued
       FROM ${quoteIdent(from)}`,
        params,
      };
    }
    return {
      sql: `INSERT INTO ${table} (name, key, payload, due_at${orderKey ? ", order_key" : ""})
       SELECT ${name}::text, ${key}, ${payload},
              COALESCE(${runAt}::timestamptz, now())${orderKey}${
        from === undefined ? "" : ` FROM ${quoteIdent(from)}`
      }
       ON CONFLICT ${KEY_CONFLICT} DO NOTHING RETURNING id`,
      params,
    };
  }

  /**
   * The `LEFT JOIN` of the occurrence of hook `name` keyed by `keySql` (an expression of the
   * caller's row) and the columns of its state; the name is a parameter.
   */
  statusJoinSql(
    name: string,
    keySql: string,
    alias: string,
    firstParam: number,
  ): { join: string; columns: string; status: string; params: unknown[] } {
    const h = quoteIdent(alias);
    return {
      join: `LEFT JOIN ${this.#probe.table} AS ${h}
        ON ${h}.name = $${firstParam}::text AND ${h}.key = (${keySql})::text`,
      columns: `${h}.status AS hook_status, ${h}.attempts AS hook_attempts, ` +
        `${h}.last_error AS hook_last_error, ${h}.finished_at AS hook_finished_at`,
      status: `${h}.status`,
      params: [name],
    };
  }

  /** NOTIFY is transactional: listeners hear it only once the transaction commits. */
  async notify(db: HookQuerier): Promise<void> {
    await db.query("SELECT pg_notify($1, $2)", [HOOK_CHANNEL, this.#probe.namespace]);
  }
}
