/**
 * Internal: the SQL of the operator's side of durable hooks (`hookAdmin()`, the inspection and
 * retry methods of `durableHooks()`, `fragment-cli hooks`, `db info`): read, page, retry, cancel,
 * purge and count occurrences. Identifiers go through `quoteQualified`; every value is a
 * parameter.
 *
 * @module
 */

import type { JsonValue } from "../schema/column.ts";
import { processSecret } from "../runtime/secret.ts";
import { keysetList, namedPage } from "../pagination/mod.ts";
import type { HookQuerier } from "./hook_types.ts";
import type {
  HookCounts,
  HookOccurrence,
  HookOccurrencePage,
  HookStatus,
  ListHookOptions,
  OccurrenceWithErrors,
  RetryFailedOptions,
} from "./hook_operations.ts";
import { type HookTableProbe, isOccurrenceId, lockOrderKeys } from "./hook_table_probe.ts";

interface OccurrenceRow {
  id: string;
  name: string;
  key: string | null;
  payload: JsonValue | null;
  status: HookStatus;
  attempts: number;
  due_at: Date;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  order_key?: string | null;
}

/** One entry of the `errors` column as stored. */
interface ErrorEntryRow {
  attempt: number;
  at: string;
  error: string;
}

const COLUMNS =
  "id, name, key, payload, status, attempts, due_at, last_error, created_at, updated_at, finished_at";

/** {@link COLUMNS} with the ordering key, or `NULL` in its place without `withHookOrdering`. */
function columns(ordering: boolean): string {
  return `${COLUMNS}, ${ordering ? "order_key" : "NULL::text AS order_key"}`;
}

function toOccurrence(row: OccurrenceRow): HookOccurrence {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    payload: row.payload ?? null,
    status: row.status,
    attempts: row.attempts,
    dueAt: row.due_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    orderKey: row.order_key ?? null,
  };
}

/** The operator statements of one namespace's hook table. */
export class HookOperatorStore {
  readonly #probe: HookTableProbe;
  readonly #table: string;

  constructor(probe: HookTableProbe) {
    this.#probe = probe;
    this.#table = probe.table;
  }

  /** One occurrence with its error log (empty without `withHookErrorLog`), or `null`. */
  async get(db: HookQuerier, id: string): Promise<OccurrenceWithErrors | null> {
    if (!isOccurrenceId(id)) return null;
    const errors = (await this.#probe.hasErrorLog(db)) ? "errors" : "'[]'::jsonb AS errors";
    const rows = await db.query<OccurrenceRow & { errors: ErrorEntryRow[] | null }>(
      `SELECT ${columns(await this.#probe.hasOrdering(db))}, ${errors} FROM ${this.#table}
       WHERE id = $1::int8`,
      [id],
    );
    if (rows.length === 0) return null;
    return {
      ...toOccurrence(rows[0]),
      errors: (rows[0].errors ?? []).map((e) => ({
        attempt: Number(e.attempt),
        at: new Date(e.at),
        error: String(e.error),
      })),
    };
  }

  async find(db: HookQuerier, name: string, key: string): Promise<HookOccurrence | null> {
    const rows = await db.query<OccurrenceRow>(
      `SELECT ${columns(await this.#probe.hasOrdering(db))} FROM ${this.#table}
       WHERE name = $1 AND key = $2`,
      [name, key],
    );
    return rows.length > 0 ? toOccurrence(rows[0]) : null;
  }

  /** A page of occurrences by status and/or hook, oldest or newest first. */
  async list(db: HookQuerier, options: ListHookOptions): Promise<HookOccurrencePage> {
    const order = options.order ?? "oldest";
    if (order !== "oldest" && order !== "newest") {
      throw new TypeError(`order must be "oldest" or "newest", got ${JSON.stringify(order)}`);
    }
    const filters: string[] = [];
    const params: unknown[] = [];
    if (options.status !== undefined) {
      params.push(options.status);
      filters.push(`status = $${params.length}`);
    }
    if (options.name !== undefined) {
      params.push(options.name);
      filters.push(`name = $${params.length}`);
    }
    const page = await keysetList(db, {
      listId: `hooks:${this.#probe.namespace}:${options.status ?? "*"}:${options.name ?? "*"}`,
      columns: [{ name: "id", type: "int8" }],
      direction: order === "newest" ? "desc" : "asc",
      // A server-side list: its cursors only come back through the application's own code.
      secret: processSecret(),
      pageSize: options.pageSize,
      cursor: options.cursor,
      select: columns(await this.#probe.hasOrdering(db)),
      from: this.#table,
      where: filters,
      params,
      map: toOccurrence,
    });
    return namedPage("occurrences", page);
  }

  /**
   * Puts failed occurrences (all, or those of the given ids and/or hook) back to pending with a
   * fresh attempt budget, like {@link redrive}; returns their ids. Run it in a transaction.
   */
  async retryFailed(db: HookQuerier, options: RetryFailedOptions): Promise<string[]> {
    const params: unknown[] = [];
    const filters = ["status = 'failed'"];
    if (options.ids !== undefined) {
      params.push(options.ids.filter(isOccurrenceId));
      filters.push(`id = ANY($${params.length}::int8[])`);
    }
    if (options.name !== undefined) {
      params.push(options.name);
      filters.push(`name = $${params.length}`);
    }
    const where = filters.join(" AND ");
    const candidates = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM ${this.#table} WHERE ${where}`,
      params,
    );
    if (candidates.length === 0) return [];
    await this.lockOrderKeysOf(db, candidates.map((r) => String(r.id)));
    const locked = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM ${this.#table} WHERE ${where} ORDER BY id FOR UPDATE`,
      params,
    );
    return locked.length === 0 ? [] : await this.redrive(db, locked.map((r) => String(r.id)));
  }

  /**
   * Takes the ordering locks of the keys of the given occurrences (`lockOrderKeys`), before a
   * statement of the caller's transaction locks or changes them: the triggers of that statement
   * then take locks the transaction holds. Nothing without `withHookOrdering`.
   */
  async lockOrderKeysOf(db: HookQuerier, ids: readonly string[]): Promise<void> {
    if (!(await this.#probe.hasOrdering(db))) return;
    const rows = await db.query<{ order_key: string }>(
      `SELECT DISTINCT order_key FROM ${this.#table}
       WHERE id = ANY($1::int8[]) AND order_key IS NOT NULL`,
      [ids.filter(isOccurrenceId)],
    );
    if (rows.length > 0) {
      await lockOrderKeys(db, this.#probe.namespace, rows.map((r) => r.order_key));
    }
  }

  /** The status of each of the given ids that exists, locked for the caller's transaction. */
  async lockStatuses(db: HookQuerier, ids: readonly string[]): Promise<Map<string, HookStatus>> {
    const rows = await db.query<{ id: string; status: HookStatus }>(
      `SELECT id::text AS id, status FROM ${this.#table} WHERE id = ANY($1::int8[])
       ORDER BY id FOR UPDATE`,
      [ids.filter(isOccurrenceId)],
    );
    return new Map(rows.map((r) => [String(r.id), r.status]));
  }

  /**
   * Puts the given occurrences back to pending, due now, with a fresh attempt budget (their
   * error log kept); returns the ids changed. An occurrence with an ordering key re-enters its
   * key's chain (the trigger of `withHookOrdering` makes it `blocked` while the key has an
   * unfinished occurrence); those are put back one at a time, oldest first, so that retried
   * occurrences of one key keep their order. Take their keys' locks first
   * ({@link lockOrderKeysOf}).
   */
  async redrive(db: HookQuerier, ids: readonly string[]): Promise<string[]> {
    const set = `SET status = 'pending', attempts = 0, leased_by = NULL,
           due_at = clock_timestamp(), finished_at = NULL, updated_at = clock_timestamp()`;
    if (!(await this.#probe.hasOrdering(db))) {
      const rows = await db.query<{ id: string }>(
        `UPDATE ${this.#table} ${set} WHERE id = ANY($1::int8[]) RETURNING id::text AS id`,
        [ids],
      );
      return rows.map((r) => String(r.id));
    }
    const rows = await db.query<{ id: string }>(
      `UPDATE ${this.#table} ${set} WHERE id = ANY($1::int8[]) AND order_key IS NULL
       RETURNING id::text AS id`,
      [ids],
    );
    const changed = rows.map((r) => String(r.id));
    const ordered = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM ${this.#table}
       WHERE id = ANY($1::int8[]) AND order_key IS NOT NULL ORDER BY id`,
      [ids],
    );
    for (const { id } of ordered) {
      const one = await db.query<{ id: string }>(
        `UPDATE ${this.#table} ${set} WHERE id = $1::int8 RETURNING id::text AS id`,
        [id],
      );
      changed.push(...one.map((r) => String(r.id)));
    }
    return changed;
  }

  /**
   * Marks the given occurrences cancelled: no worker claims them again, and an attempt running
   * now cannot record its outcome (every outcome write is fenced on `running`).
   */
  async cancel(db: HookQuerier, ids: readonly string[]): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `UPDATE ${this.#table}
       SET status = 'cancelled', leased_by = NULL, updated_at = clock_timestamp(),
           finished_at = clock_timestamp()
       WHERE id = ANY($1::int8[]) RETURNING id::text AS id`,
      [ids],
    );
    return rows.map((r) => String(r.id));
  }

  /**
   * Deletes up to `limit` done occurrences that finished at least `olderThanMs` ago, by the
   * database's clock; returns how many.
   */
  async purgeDone(db: HookQuerier, olderThanMs: number, limit: number): Promise<number> {
    const rows = await db.query<{ n: number }>(
      `WITH purged AS (
         DELETE FROM ${this.#table} WHERE id = ANY(ARRAY(
           SELECT id FROM ${this.#table}
           WHERE status = 'done'
             AND finished_at <= clock_timestamp() - $1::int8 * interval '1 millisecond'
           LIMIT $2))
         RETURNING 1)
       SELECT count(*)::int AS n FROM purged`,
      [olderThanMs, limit],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Pending, running, failed and blocked counts, and the age of the oldest pending occurrence. */
  async counts(db: HookQuerier): Promise<HookCounts> {
    const rows = await db.query<{
      pending: number;
      running: number;
      failed: number;
      blocked: number;
      oldest: number | null;
    }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'running')::int AS running,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'blocked')::int AS blocked,
              floor(EXTRACT(EPOCH FROM clock_timestamp() -
                min(created_at) FILTER (WHERE status = 'pending')))::float8 AS oldest
       FROM ${this.#table} WHERE status IN ('pending', 'running', 'failed', 'blocked')`,
    );
    const row = rows[0];
    return {
      pending: Number(row?.pending ?? 0),
      running: Number(row?.running ?? 0),
      failed: Number(row?.failed ?? 0),
      blocked: Number(row?.blocked ?? 0),
      oldestPendingAgeSeconds: row?.oldest === null || row?.oldest === undefined
        ? null
        : Math.max(0, Number(row.oldest)),
    };
  }
}
