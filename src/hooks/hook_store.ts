/**
 * Internal: the SQL of durable hooks, one function per statement. Identifiers go through
 * `quoteQualified`; every value is a parameter.
 *
 * @module
 */

import type { SqlAdapter, SqlQuerier } from "../sql/adapter.ts";
import type { JsonValue } from "../schema/column.ts";
import { processSecret } from "../runtime/secret.ts";
import { keysetPage, keysetQuery } from "../pagination/cursor.ts";
import { HOOK_ERROR_LOG_LENGTH, HOOK_TABLE } from "./hook_table.ts";
import type {
  HookAttemptError,
  HookOccurrence,
  HookOccurrenceInput,
  HookOccurrencePage,
  HookQuerier,
  HookStatus,
  ListHookOptions,
  RequeueOptions,
} from "./hook_types.ts";
import { quoteIdent, quoteQualified } from "../sql/sql_identifier.ts";

/** The NOTIFY channel of every hook namespace; the payload names the namespace. */
export const HOOK_CHANNEL = "fragment_cli_hooks";

/** The longest error text kept per occurrence. */
const MAX_ERROR_LENGTH = 8000;

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

/** An occurrence claimed by a worker for one attempt. */
export interface ClaimedOccurrence {
  id: string;
  name: string;
  key: string | null;
  payload: JsonValue;
  /** The number of this attempt; with the id it fences the finishing update. */
  attempt: number;
  lastError: string | null;
  /** The ordering key (`withHookOrdering`), or `null`. */
  orderKey: string | null;
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

/** How long a "no such column" answer is trusted before asking the database again. */
const COLUMN_RECHECK_MS = 60_000;

/**
 * The counts of one namespace's occurrences that an operator watches (`db info`).
 *
 * @example Alert when work waits too long
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { hookAdmin, type HookCounts, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const counts: HookCounts = await hookAdmin({ adapter: db, namespace: "mailer" }).counts();
 * if ((counts.oldestPendingAgeSeconds ?? 0) > 300) console.warn("mailer hooks are falling behind");
 * await db.close();
 * ```
 */
export interface HookCounts {
  /** Occurrences waiting to run (due now, later, or for a retry). */
  pending: number;
  /** Occurrences leased by a worker now. */
  running: number;
  /** Occurrences out of attempts, waiting for an operator. */
  failed: number;
  /** Occurrences waiting for an earlier one of their ordering key (`withHookOrdering`). */
  blocked: number;
  /** Seconds since the oldest pending occurrence was enqueued, `null` when none is pending. */
  oldestPendingAgeSeconds: number | null;
}

/**
 * An occurrence with its error log (empty without `withHookErrorLog`).
 *
 * @example The latest error of an occurrence
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { hookAdmin, type OccurrenceWithErrors, withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const admin = hookAdmin({ adapter: db, namespace: "mailer" });
 * const occurrence: OccurrenceWithErrors | null = await admin.get("1");
 * console.log(occurrence?.errors.at(-1)?.error ?? "no error logged");
 * await db.close();
 * ```
 */
export interface OccurrenceWithErrors extends HookOccurrence {
  /** The failed attempts' errors, oldest first, at most the latest 20. */
  errors: HookAttemptError[];
}

/** The SQL statements of the hook table of one namespace. */
export class HookStore {
  readonly #table: string;
  readonly #namespace: string;
  /** Whether the table has the optional columns (`errors`, `order_key`), and when last asked. */
  readonly #columns = new Map<string, { has: boolean; at: number }>();

  constructor(namespace: string) {
    this.#namespace = namespace;
    this.#table = quoteQualified(namespace, HOOK_TABLE);
  }

  /**
   * Whether the table has the error log (`withHookErrorLog`). Asked of the database, not the
   * schema, since the store works with schemas that never appended it and with databases not yet
   * migrated to it; a "yes" is kept, a "no" asked again after a minute (a migration may add it).
   */
  hasErrorLog(db: HookQuerier): Promise<boolean> {
    return this.#hasColumn(db, "errors");
  }

  /** Whether the table has ordering keys (`withHookOrdering`); asked like {@link hasErrorLog}. */
  hasOrdering(db: HookQuerier): Promise<boolean> {
    return this.#hasColumn(db, "order_key");
  }

  async #hasColumn(db: HookQuerier, column: string): Promise<boolean> {
    const known = this.#columns.get(column);
    if (known && (known.has || performance.now() - known.at < COLUMN_RECHECK_MS)) {
      return known.has;
    }
    const rows = await db.query<{ has: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1)
         AND attname = $2 AND NOT attisdropped) AS has`,
      [this.#table, column],
    );
    const has = rows[0]?.has === true;
    this.#columns.set(column, { has, at: performance.now() });
    return has;
  }

  /** Whether the hook table exists in the database (the namespace was migrated to it). */
  async exists(db: HookQuerier): Promise<boolean> {
    const rows = await db.query<{ has: boolean }>(
      "SELECT to_regclass($1) IS NOT NULL AS has",
      [this.#table],
    );
    return rows[0]?.has === true;
  }

  /**
   * Inserts unless `(name, key)` exists; notifies workers (delivered on commit). With an
   * `orderKey`, the table's trigger (`withHookOrdering`) stores it `blocked` behind the key's
   * unfinished occurrence.
   */
  async insert(
    db: HookQuerier,
    input: HookOccurrenceInput,
  ): Promise<{ id: string; duplicate: boolean }> {
    const ordered = input.orderKey !== undefined;
    if (ordered && !(await this.hasOrdering(db))) throw this.#noOrdering();
    const inserted = await db.query<{ id: string }>(
      `INSERT INTO ${this.#table} (name, key, payload, due_at${ordered ? ", order_key" : ""})
       VALUES ($1, $2, $3::jsonb, COALESCE($4::timestamptz, now())${ordered ? ", $5" : ""})
       ON CONFLICT (name, key) DO NOTHING RETURNING id`,
      [
        input.name,
        input.key ?? null,
        input.payload ?? null,
        input.runAt ?? null,
        ...(ordered ? [input.orderKey] : []),
      ],
    );
    if (inserted.length > 0) {
      await this.notify(db);
      return { id: inserted[0].id, duplicate: false };
    }
    // ON CONFLICT waited for a concurrent inserter to commit, so the row is visible now.
    const existing = await db.query<{ id: string }>(
      `SELECT id FROM ${this.#table} WHERE name = $1 AND key = $2`,
      [input.name, input.key ?? null],
    );
    return { id: existing[0].id, duplicate: true };
  }

  #noOrdering(): TypeError {
    return new TypeError(
      `The hook table of namespace "${this.#namespace}" has no ordering keys: append ` +
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
    return {
      sql: `INSERT INTO ${this.#table} (name, key, payload, due_at${orderKey ? ", order_key" : ""})
       SELECT ${name}::text, ${key}, ${payload},
              COALESCE(${runAt}::timestamptz, now())${orderKey}${
        from === undefined ? "" : ` FROM ${quoteIdent(from)}`
      }
       ON CONFLICT (name, key) DO NOTHING RETURNING id`,
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
      join: `LEFT JOIN ${this.#table} AS ${h}
        ON ${h}.name = $${firstParam}::text AND ${h}.key = (${keySql})::text`,
      columns: `${h}.status AS hook_status, ${h}.attempts AS hook_attempts, ` +
        `${h}.last_error AS hook_last_error, ${h}.finished_at AS hook_finished_at`,
      status: `${h}.status`,
      params: [name],
    };
  }

  /** NOTIFY is transactional: listeners hear it only once the transaction commits. */
  async notify(db: HookQuerier): Promise<void> {
    await db.query("SELECT pg_notify($1, $2)", [HOOK_CHANNEL, this.#namespace]);
  }

  /**
   * Claims up to `limit` due occurrences of the given hooks: pending ones whose time has come and
   * running ones whose lease expired. SKIP LOCKED lets concurrent workers claim disjoint sets.
   */
  async claim(
    db: SqlAdapter,
    names: readonly string[],
    limit: number,
    leaseMs: number,
    workerId: string,
  ): Promise<ClaimedOccurrence[]> {
    const orderKey = (await this.hasOrdering(db)) ? "o.order_key" : "NULL::text AS order_key";
    const rows = await withIndexPlans(db, (tx) =>
      tx.query<{
        id: string;
        name: string;
        key: string | null;
        payload: JsonValue | null;
        attempts: number;
        last_error: string | null;
        order_key: string | null;
      }>(
        // Ordered by due_at alone, so the partial index on due_at serves it: the first due rows
        // come straight off the index however long the backlog (with `, id` PostgreSQL sorted
        // every pending row: 8 ms per claim at 20,000 waiting). `= ANY(ARRAY(…))` keeps the
        // update on the primary key in the generic plan of the prepared statement too.
        `UPDATE ${this.#table} AS o
       SET status = 'running', attempts = o.attempts + 1,
           due_at = clock_timestamp() + $3::int8 * interval '1 millisecond',
           leased_by = $4, updated_at = clock_timestamp()
       WHERE o.id = ANY(ARRAY(
         SELECT id FROM ${this.#table}
         WHERE status IN ('pending', 'running') AND due_at <= clock_timestamp()
           AND name = ANY($1::text[])
         ORDER BY due_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ))
       RETURNING o.id, o.name, o.key, o.payload, o.attempts, o.last_error, ${orderKey}`,
        [names, limit, leaseMs, workerId],
      ));
    return rows
      .map((r) => ({
        id: r.id,
        name: r.name,
        key: r.key,
        payload: r.payload ?? null,
        attempt: r.attempts,
        lastError: r.last_error,
        orderKey: r.order_key ?? null,
      }))
      .sort((a, b) => compareIds(a.id, b.id));
  }

  /**
   * Takes the transaction-scoped advisory locks of the given ordering keys, the ones the
   * ordering triggers take (`withHookOrdering`), in the order of the lock ids, waiting for each.
   * A transaction takes them before it locks or changes the keys' occurrences: its triggers then
   * take locks it holds, and the row locks come after the key locks, as for every writer.
   */
  async lockOrderKeys(db: HookQuerier, orderKeys: readonly string[]): Promise<void> {
    await db.query(
      `SELECT count(pg_advisory_xact_lock(hashtext($1), k)) FROM (
         SELECT DISTINCT hashtext(key) AS k FROM unnest($2::text[]) AS key ORDER BY 1) AS keys`,
      [this.#namespace, orderKeys],
    );
  }

  /** Extends the lease of a running attempt; `false` when the attempt no longer holds it. */
  async renew(db: HookQuerier, claimed: ClaimedOccurrence, leaseMs: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE ${this.#table}
       SET due_at = clock_timestamp() + $3::int8 * interval '1 millisecond'
       WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
      [claimed.id, claimed.attempt, leaseMs],
    );
    return rows.length > 0;
  }

  /**
   * Marks running attempts done, in one statement; answers, in the order given, whether each
   * attempt still held its occurrence. Fenced by the attempt number: a stale worker changes
   * nothing.
   */
  async completeMany(db: SqlAdapter, claimed: readonly ClaimedOccurrence[]): Promise<boolean[]> {
    const orderKeys = claimed.flatMap((c) => c.orderKey === null ? [] : [c.orderKey]);
    if (orderKeys.length === 0) {
      const rows = await withIndexPlans(db, (tx) => this.#complete(tx, claimed));
      return held(claimed, rows);
    }
    // Ordered attempts: the trigger that hands each key on takes the key's lock. A transaction
    // holding several keys' locks must never wait for another one (an enqueueing transaction may
    // hold that one and wait for one of ours), so this one only tries them; the attempts whose
    // key is busy are completed one per transaction, each waiting for its key alone.
    const late: ClaimedOccurrence[] = [];
    const rows = await withIndexPlans(db, async (tx) => {
      const locked = await tx.query<{ key: string }>(
        `SELECT key FROM unnest($2::text[]) AS key
         WHERE pg_try_advisory_xact_lock(hashtext($1), hashtext(key))`,
        [this.#namespace, orderKeys],
      );
      const lockedKeys = new Set(locked.map((r) => r.key));
      const now = claimed.filter((c) => c.orderKey === null || lockedKeys.has(c.orderKey));
      late.push(...claimed.filter((c) => c.orderKey !== null && !lockedKeys.has(c.orderKey)));
      return now.length > 0 ? await this.#complete(tx, now) : [];
    });
    for (const one of late) {
      rows.push(
        ...await withIndexPlans(db, async (tx) => {
          await this.lockOrderKeys(tx, [one.orderKey!]);
          return await this.#complete(tx, [one]);
        }),
      );
    }
    return held(claimed, rows);
  }

  #complete(tx: SqlQuerier, claimed: readonly ClaimedOccurrence[]): Promise<{ id: string }[]> {
    return tx.query<{ id: string }>(
      `UPDATE ${this.#table} AS o
       SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
           finished_at = clock_timestamp()
       ${ATTEMPTS_STILL_HELD}
       RETURNING o.id`,
      attemptParams(claimed),
    );
  }

  /**
   * Hands claimed attempts that never started back: pending and due now, their attempt not
   * counted. Fenced like completion: a lease already taken over is left alone.
   */
  async release(db: SqlAdapter, claimed: readonly ClaimedOccurrence[]): Promise<void> {
    await withIndexPlans(db, (tx) =>
      tx.query(
        `UPDATE ${this.#table} AS o
         SET status = 'pending', attempts = o.attempts - 1, leased_by = NULL,
             due_at = clock_timestamp(), updated_at = clock_timestamp()
         ${ATTEMPTS_STILL_HELD}`,
        attemptParams(claimed),
      ));
  }

  /**
   * Records a failed attempt: pending again after `retryInMs`, or failed when it is `null`. The
   * final failure of an ordered attempt hands its key on (trigger): its key's lock is taken
   * first, before the row's, the order every writer of a key takes them in.
   */
  async fail(
    db: SqlAdapter,
    claimed: ClaimedOccurrence,
    error: string,
    retryInMs: number | null,
  ): Promise<boolean> {
    if (retryInMs === null && claimed.orderKey !== null) {
      return await db.transaction(async (tx) => {
        await this.lockOrderKeys(tx, [claimed.orderKey!]);
        return await this.#fail(tx, claimed, error, retryInMs);
      });
    }
    return await this.#fail(db, claimed, error, retryInMs);
  }

  async #fail(
    db: HookQuerier,
    claimed: ClaimedOccurrence,
    error: string,
    retryInMs: number | null,
  ): Promise<boolean> {
    const text = error.length > MAX_ERROR_LENGTH ? error.slice(0, MAX_ERROR_LENGTH) : error;
    const log = (await this.hasErrorLog(db)) ? `, errors = ${APPEND_ERROR}` : "";
    const rows = retryInMs === null
      ? await db.query(
        `UPDATE ${this.#table}
         SET status = 'failed', last_error = $3, leased_by = NULL${log},
             updated_at = clock_timestamp(), finished_at = clock_timestamp()
         WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
        [claimed.id, claimed.attempt, text],
      )
      : await db.query(
        `UPDATE ${this.#table}
         SET status = 'pending', last_error = $3, leased_by = NULL${log},
             due_at = clock_timestamp() + $4::int8 * interval '1 millisecond',
             updated_at = clock_timestamp()
         WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
        [claimed.id, claimed.attempt, text, retryInMs],
      );
    return rows.length > 0;
  }

  /**
   * Milliseconds until the next occurrence of the given hooks is due (0 if one is due now), by
   * the database's clock, or `null` when none is pending or running.
   */
  async nextDueIn(db: HookQuerier, names: readonly string[]): Promise<number | null> {
    const rows = await db.query<{ ms: number | null }>(
      `SELECT (EXTRACT(EPOCH FROM (min(due_at) - clock_timestamp())) * 1000)::float8 AS ms
       FROM ${this.#table}
       WHERE status IN ('pending', 'running') AND name = ANY($1::text[])`,
      [names],
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Math.max(0, Math.ceil(ms));
  }

  async get(db: HookQuerier, id: string): Promise<HookOccurrence | null> {
    if (!/^[0-9]{1,19}$/.test(id)) return null;
    const rows = await db.query<OccurrenceRow>(
      `SELECT ${columns(await this.hasOrdering(db))} FROM ${this.#table} WHERE id = $1::int8`,
      [id],
    );
    return rows.length > 0 ? toOccurrence(rows[0]) : null;
  }

  async find(db: HookQuerier, name: string, key: string): Promise<HookOccurrence | null> {
    const rows = await db.query<OccurrenceRow>(
      `SELECT ${columns(await this.hasOrdering(db))} FROM ${this.#table}
       WHERE name = $1 AND key = $2`,
      [name, key],
    );
    return rows.length > 0 ? toOccurrence(rows[0]) : null;
  }

  async list(db: HookQuerier, options: ListHookOptions): Promise<HookOccurrencePage> {
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
    const q = keysetQuery({
      listId: `hooks:${this.#namespace}:${options.status ?? "*"}:${options.name ?? "*"}`,
      columns: [{ name: "id", type: "int8" }],
      // A server-side list: its cursors only come back through the application's own code.
      secret: processSecret(),
      pageSize: options.pageSize,
      cursor: options.cursor,
      firstParam: params.length + 1,
    });
    const rows = await db.query<OccurrenceRow>(
      `SELECT ${columns(await this.hasOrdering(db))}, ${q.select} FROM ${this.#table}
       WHERE ${[...filters, q.where].join(" AND ")}
       ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
      [...params, ...q.params],
    );
    const page = keysetPage(rows, q);
    return {
      occurrences: page.items.map(toOccurrence),
      cursor: page.cursor,
      hasNextPage: page.hasNextPage,
    };
  }

  /**
   * Puts failed occurrences (all, or those of the given ids and/or hook) back to pending with a
   * fresh attempt budget, like {@link redrive}; returns their ids. Run it in a transaction.
   */
  async requeue(db: HookQuerier, options: RequeueOptions): Promise<string[]> {
    const params: unknown[] = [];
    const filters = ["status = 'failed'"];
    if (options.ids !== undefined) {
      const ids = options.ids.filter((id) => /^[0-9]{1,19}$/.test(id));
      params.push(ids);
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
   * Takes the ordering locks of the keys of the given occurrences ({@link lockOrderKeys}), before
   * a statement of the caller's transaction locks or changes them: the triggers of that
   * statement then take locks the transaction holds. Nothing without `withHookOrdering`.
   */
  async lockOrderKeysOf(db: HookQuerier, ids: readonly string[]): Promise<void> {
    if (!(await this.hasOrdering(db))) return;
    const rows = await db.query<{ order_key: string }>(
      `SELECT DISTINCT order_key FROM ${this.#table}
       WHERE id = ANY($1::int8[]) AND order_key IS NOT NULL`,
      [ids.filter((id) => /^[0-9]{1,19}$/.test(id))],
    );
    if (rows.length > 0) await this.lockOrderKeys(db, rows.map((r) => r.order_key));
  }

  /** One occurrence with its error log, or `null` (also for an id that is not a number). */
  async getWithErrors(db: HookQuerier, id: string): Promise<OccurrenceWithErrors | null> {
    if (!/^[0-9]{1,19}$/.test(id)) return null;
    const errors = (await this.hasErrorLog(db)) ? "errors" : "'[]'::jsonb AS errors";
    const rows = await db.query<OccurrenceRow & { errors: ErrorEntryRow[] | null }>(
      `SELECT ${columns(await this.hasOrdering(db))}, ${errors} FROM ${this.#table}
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

  /** Occurrences, newest first, by status and/or hook, at most `limit`. */
  async newest(
    db: HookQuerier,
    filter: { status?: HookStatus; name?: string; limit: number },
  ): Promise<HookOccurrence[]> {
    const rows = await db.query<OccurrenceRow>(
      `SELECT ${columns(await this.hasOrdering(db))} FROM ${this.#table}
       WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR name = $2)
       ORDER BY id DESC LIMIT $3`,
      [filter.status ?? null, filter.name ?? null, filter.limit],
    );
    return rows.map(toOccurrence);
  }

  /** The status of each of the given ids that exists, locked for the caller's transaction. */
  async lockStatuses(db: HookQuerier, ids: readonly string[]): Promise<Map<string, HookStatus>> {
    const valid = ids.filter((id) => /^[0-9]{1,19}$/.test(id));
    const rows = await db.query<{ id: string; status: HookStatus }>(
      `SELECT id::text AS id, status FROM ${this.#table} WHERE id = ANY($1::int8[])
       ORDER BY id FOR UPDATE`,
      [valid],
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
    if (!(await this.hasOrdering(db))) {
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

/** One entry of the `errors` column as stored. */
interface ErrorEntryRow {
  attempt: number;
  at: string;
  error: string;
}

/**
 * The `errors` column with the failed attempt `$3` (its text) appended, trimmed to the latest
 * {@link HOOK_ERROR_LOG_LENGTH} entries. Used in the SET of an update of the failing row, whose
 * `attempts` is the number of the attempt that failed.
 */
const APPEND_ERROR = `(SELECT COALESCE(jsonb_agg(e ORDER BY i), '[]'::jsonb)
         FROM jsonb_array_elements(COALESCE(errors, '[]'::jsonb) || jsonb_build_array(
           jsonb_build_object('attempt', attempts, 'at', clock_timestamp(), 'error', $3::text)))
           WITH ORDINALITY AS t(e, i)
         WHERE i > jsonb_array_length(COALESCE(errors, '[]'::jsonb)) + 1 - ${HOOK_ERROR_LOG_LENGTH})`;

/**
 * The rows of the claimed attempts `$1` (ids) / `$2` (attempt numbers) that are still theirs:
 * running, at that attempt (an occurrence taken over by another worker is not matched), found by
 * primary key, one index probe per held row. No `o.id = ANY($1)` besides the join: in the generic
 * plan of the prepared statement it made PostgreSQL join the bitmap scan of `ANY` with the
 * unnested list in a nested loop, comparing every pair — 1.8 s for a completion of 3,472 rows
 * (12 M rows removed by the join filter) against 62 ms by probing the primary key. The status test is written `IS NOT DISTINCT FROM` (the same test on a NOT NULL
 * column) because no index can answer that form, so the status index is no alternative to the
 * primary key (see {@link withIndexPlans}).
 */
const ATTEMPTS_STILL_HELD = `FROM unnest($1::int8[], $2::int4[]) AS held(id, attempts)
       WHERE o.id = held.id AND o.attempts = held.attempts
         AND o.status IS NOT DISTINCT FROM 'running'`;

/**
 * Runs the worker's batch statements (claim, completion, release) in a transaction that turns off
 * sequential scans and sorts for itself, so that they read the indexes meant for them whatever
 * the table's statistics say: the claim walks the due index in order and stops after its limit,
 * the completion finds its rows by primary key.
 *
 * Why: the hook table is the one that grows in bursts. Without statistics (a new table, or one
 * grown faster than autovacuum analyzes it), or with a plan cached while it was small,
 * PostgreSQL guessed a handful of waiting rows. It read every waiting row and sorted them all for
 * each claim (16 ms per claim at 20,000 waiting, 0.1 ms in index order), and scanned the whole
 * table or every running row for each completion. In the benchmark's webhook scenario (22,000
 * deliveries) claims averaged 11.7 ms and completions 2.4 ms, 15 s of statement time in all, and
 * the backlog took 15 s to drain after the load; with these settings, 6 s.
 *
 * JIT compilation is turned off with them: a plan node that cannot avoid what is turned off (the
 * sort of `lockOrderKeys()`) is costed at PostgreSQL's "disabled" 10^10, far above
 * `jit_above_cost`, so every such statement was compiled by LLVM with inlining and optimization
 * first: 0.2 – 1.3 s of server CPU for a statement that runs in 0.1 ms. Under the webhook load,
 * every completion whose ordering key an ingest statement held went that way.
 */
function withIndexPlans<T>(db: SqlAdapter, run: (tx: SqlQuerier) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(INDEX_PLANS);
    return await run(tx);
  });
}

const INDEX_PLANS = "SELECT set_config('enable_seqscan', 'off', true), " +
  "set_config('enable_sort', 'off', true), set_config('jit', 'off', true)";

/** The parameters of {@link ATTEMPTS_STILL_HELD}. */
function attemptParams(claimed: readonly ClaimedOccurrence[]): [string[], number[]] {
  return [claimed.map((c) => c.id), claimed.map((c) => c.attempt)];
}

/** Whether each attempt, in the order given, is among the rows its completion updated. */
function held(claimed: readonly ClaimedOccurrence[], rows: readonly { id: string }[]): boolean[] {
  const completed = new Set(rows.map((row) => String(row.id)));
  return claimed.map((c) => completed.has(c.id));
}

/** Orders decimal id strings numerically. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
