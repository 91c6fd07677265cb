/**
 * The types of durable hooks: definitions, enqueue inputs, options and results, and
 * `DurableHooks` (the occurrences as read back and the operator API it extends are in
 * `hook_operations.ts`).
 *
 * @module
 */

import type { JsonValue } from "../schema/column.ts";
import type { SqlAdapter } from "../sql/adapter.ts";
import type { HookAdmin, HookOccurrence, HookStatus } from "./hook_operations.ts";

/**
 * What a hook handler receives besides the payload, for idempotency and logging.
 *
 * @example An idempotent handler
 * ```ts
 * import type { HookContext } from "@app/fragment-cli/hooks";
 *
 * async function sendWelcome(payload: unknown, context: HookContext): Promise<void> {
 *   // The id is stable across attempts: the mail provider drops a second send with it.
 *   const idempotencyKey = `welcome-${context.id}`;
 *   console.log(idempotencyKey, `attempt ${context.attempt} of ${context.maxAttempts}`, payload);
 * }
 * ```
 */
export interface HookContext {
  /** The occurrence id (a decimal string), stable across attempts. */
  readonly id: string;
  /** The hook name. */
  readonly name: string;
  /** The occurrence's deduplication key, or `null`. */
  readonly key: string | null;
  /** This attempt's number, 1 for the first run. */
  readonly attempt: number;
  /** The attempts allowed before the occurrence is marked failed. */
  readonly maxAttempts: number;
}

/**
 * Runs one occurrence of a hook, outside any transaction. Throwing (or rejecting) schedules a
 * retry. Hooks are at-least-once: use `context.id` or the payload to make the work idempotent.
 *
 * @example A handler with a typed payload
 * ```ts
 * import type { HookHandler } from "@app/fragment-cli/hooks";
 *
 * const sendWelcome: HookHandler<{ userId: string }> = async ({ userId }, { attempt }) => {
 *   if (attempt > 1) console.log(`retrying the welcome mail of ${userId}`);
 * };
 * ```
 */
export type HookHandler<Payload = JsonValue> = (
  payload: Payload,
  context: HookContext,
) => void | Promise<void>;

/**
 * A hook with per-hook settings.
 *
 * @example A hook with fewer attempts than the default
 * ```ts
 * import { durableHooks, type HookDefinition } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const sendInvoice: HookDefinition<{ invoiceId: string }> = {
 *   handler: ({ invoiceId }) => console.log("sending", invoiceId),
 *   maxAttempts: 3, // an invoice mail is not worth a day of retries
 * };
 * const hooks = durableHooks({ adapter: pgliteAdapter(), namespace: "billing", hooks: { sendInvoice } });
 * ```
 */
export interface HookDefinition<Payload = JsonValue> {
  /** The handler. */
  handler: HookHandler<Payload>;
  /** Attempts before the occurrence is marked failed; overrides the hooks-wide setting. */
  maxAttempts?: number;
  /**
   * What an occurrence is about, beyond its payload, for operators (`fragment-cli hooks show`):
   * e.g. the messenger returns the stored update its occurrence processes. `null` when nothing
   * is known (the related data was deleted).
   */
  describe?: (occurrence: HookOccurrence) => Promise<JsonValue | null>;
  /**
   * Runs the hook on a schedule: a five-field cron expression (minute hour day-of-month month
   * day-of-week, with `*`, lists, ranges, steps and names such as `MON` or `JAN`) or an alias
   * (`@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`). Each slot gets exactly one
   * occurrence, whatever the number of workers and processes, keyed `cron:<UTC minute>` with the
   * payload `{ scheduledFor: "<ISO time>" }`; it retries like any occurrence. Checked at
   * definition: an invalid expression throws a `TypeError`.
   */
  schedule?: string;
  /**
   * The IANA time zone the schedule's times are read in (`"Europe/Paris"`); daylight-saving
   * changes follow cron(8).
   * @default "UTC"
   */
  timezone?: string;
  /**
   * How far back a starting worker inserts the slots missed while no worker ran (downtime): a
   * duration such as `"1h"` or `"1d"`. Slots at most one minute old are always inserted (a restart
   * does not lose the slot it straddles); older ones only within `backfill`.
   * @default none: missed slots older than a minute are skipped
   */
  backfill?: string | number;
  /**
   * Whether running one slot twice is harmless (an idempotent clean-up, such as deleting rows
   * older than a date). Such a hook does not count in the look-back that `retention` must cover:
   * a purged slot a starting worker inserts and runs again does no harm.
   * @default false
   */
  rerunSafe?: boolean;
}

/**
 * An occurrence to enqueue.
 *
 * @example A reminder in a week, enqueued once
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type HookOccurrenceInput, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { remind: () => {} } });
 * const reminder: HookOccurrenceInput = {
 *   name: "remind",
 *   key: "trial-end:user-42", // enqueued once, however often this runs
 *   payload: { userId: 42 },
 *   runAt: new Date(Date.now() + 7 * 24 * 3600_000),
 * };
 * await db.transaction((tx) => hooks.enqueue(tx, reminder));
 * await db.close();
 * ```
 */
export interface HookOccurrenceInput {
  /** The hook name (one of the registered hooks). */
  name: string;
  /**
   * Deduplication key: a second occurrence with the same name and key (in this namespace) is
   * not inserted and is reported as a duplicate. Omit for no deduplication.
   */
  key?: string;
  /** JSON data for the handler. @default null */
  payload?: JsonValue;
  /** The earliest time to run it. @default now */
  runAt?: Date;
  /**
   * Ordering key: occurrences with the same key (in this namespace) run one at a time, in the
   * order they were enqueued; different keys run in parallel. One waiting for a retry holds the
   * later ones back; once it failed (out of attempts) or was cancelled, the next one runs. Needs
   * the hook table's ordering steps (`withHookOrdering`). Omit for no ordering.
   */
  orderKey?: string;
}

/**
 * What {@link DurableHooks.enqueue} did.
 *
 * @example A duplicate is reported, not thrown
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type EnqueueResult, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * const first: EnqueueResult = await hooks.enqueue(db, { name: "send", key: "mail-1" });
 * const again: EnqueueResult = await hooks.enqueue(db, { name: "send", key: "mail-1" });
 * console.log(again.duplicate, again.id === first.id); // true true
 * await db.close();
 * ```
 */
export interface EnqueueResult {
  /** The id of the inserted occurrence, or of the existing one with the same key. */
  id: string;
  /** `true` when an occurrence with the same name and key already existed. */
  duplicate: boolean;
}

/**
 * How often done occurrences are deleted by the worker (see {@link DurableHooksOptions}).
 *
 * @example Delete done occurrences after a week
 * ```ts
 * import { durableHooks, type HookRetention } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const retention: HookRetention = { done: "7d" }; // keep a week of history
 * const hooks = durableHooks({
 *   adapter: pgliteAdapter(),
 *   namespace: "mailer",
 *   hooks: { send: () => {} },
 *   retention,
 * });
 * ```
 */
export interface HookRetention {
  /**
   * Done occurrences finished longer ago than this are deleted: a duration such as `"7d"`,
   * `"12h"`, `"30m"`, `"0s"` (units `s`, `m`, `h`, `d`) or milliseconds.
   */
  done: string | number;
}

/**
 * Options of {@link durableHooks}.
 *
 * @example Fewer attempts, more handlers at once, errors to your logger
 * ```ts
 * import { durableHooks, type DurableHooksOptions } from "@app/fragment-cli/hooks";
 * import { databaseFromEnv } from "@app/fragment-cli/sql";
 *
 * const options: DurableHooksOptions = {
 *   adapter: databaseFromEnv(),
 *   namespace: "mailer",
 *   hooks: { send: (payload) => console.log("send", payload) },
 *   maxAttempts: 5,
 *   concurrency: 8,
 *   onError: (error, occurrence) => console.error(occurrence?.name ?? "worker", error),
 * };
 * const hooks = durableHooks(options);
 * ```
 */
export interface DurableHooksOptions {
  /** The database holding the hook table. */
  adapter: SqlAdapter;
  /** The namespace (Postgres schema) holding the hook table (see `withHookTable`). */
  namespace: string;
  /** The hooks by name: a handler, or a definition with per-hook settings. */
  // deno-lint-ignore no-explicit-any
  hooks: Record<string, HookHandler<any> | HookDefinition<any>>;
  /**
   * Attempts before an occurrence is marked failed (its last error kept).
   * @default 12
   */
  maxAttempts?: number;
  /**
   * Delay before the first retry, in milliseconds; doubled at each further retry, with jitter.
   * @default 1000
   */
  retryDelayMs?: number;
  /**
   * The longest delay between two attempts, in milliseconds.
   * @default 600000 (10 minutes)
   */
  maxRetryDelayMs?: number;
  /**
   * How long a claimed occurrence stays leased to its worker, in milliseconds. A worker renews
   * the lease while the handler runs; if the worker dies, the occurrence is due again once the
   * lease expires.
   * @default 60000
   */
  leaseMs?: number;
  /**
   * The longest a worker waits before looking for due occurrences again, in milliseconds: the
   * bound on the wake-up delay when a notification is missed or LISTEN is unavailable.
   * @default 2000
   */
  pollIntervalMs?: number;
  /**
   * Handlers run at once by one worker.
   * @default 4
   */
  concurrency?: number;
  /**
   * Receives failed attempts (with the occurrence) and worker errors (database unavailable,
   * without an occurrence).
   * @default logs with console.error
   */
  onError?: (error: unknown, occurrence?: HookContext) => void;
  /**
   * Automatic purging: the worker (and `drain()`) deletes done occurrences older than
   * `retention.done`, at most once a minute (at every look for work with a retention shorter than
   * the poll interval). Failed, cancelled and unfinished occurrences are never purged.
   * @default keep every occurrence
   */
  retention?: HookRetention;
  /**
   * The clock that decides when scheduled hooks are due (`schedule`): for tests that move time
   * instead of waiting for it. Due times, leases and retries stay on the database's clock (every
   * process agrees on it): a test moves those by writing `due_at` (docs/development.md).
   * @default () => new Date()
   * @example
   * ```ts ignore
   * let time = Date.parse("2026-01-05T10:00:30Z");
   * const hooks = durableHooks({ adapter, namespace: "jobs", now: () => new Date(time), hooks });
   * await hooks.drain(); // runs the 10:00 slot of a "* * * * *" hook
   * time += 60_000;
   * await hooks.drain(); // the 10:01 slot, a minute later without waiting for it
   * ```
   */
  now?: () => Date;
}

/**
 * Options of {@link DurableHooks.drain}.
 *
 * @example Run everything, including what is due later
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { type DrainOptions, durableHooks, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * await hooks.enqueue(db, { name: "send", runAt: new Date(Date.now() + 100) });
 * // In a test: also wait for the occurrence due in 100 ms, for at most 5 seconds.
 * const options: DrainOptions = { waitForScheduled: true, timeoutMs: 5_000 };
 * console.log(await hooks.drain(options)); // { done: 1, retried: 0, failed: 0 }
 * await db.close();
 * ```
 */
export interface DrainOptions {
  /**
   * Also wait for occurrences scheduled later (retries, `runAt`) and run them, until no pending
   * or running occurrence of a registered hook remains.
   * @default false
   */
  waitForScheduled?: boolean;
  /**
   * Give up (throw) after this many milliseconds.
   * @default 60000
   */
  timeoutMs?: number;
}

/**
 * What a {@link DurableHooks.drain} call ran.
 *
 * @example Assert what a test ran
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type DrainResult, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({
 *   adapter: db,
 *   namespace: "mailer",
 *   hooks: { send: () => {} },
 * });
 * await hooks.enqueue(db, { name: "send" });
 * const result: DrainResult = await hooks.drain();
 * console.log(result); // { done: 1, retried: 0, failed: 0 }
 * await db.close();
 * ```
 */
export interface DrainResult {
  /** Attempts that succeeded. */
  done: number;
  /** Attempts that failed and were scheduled again. */
  retried: number;
  /** Attempts that failed for the last time. */
  failed: number;
}

/**
 * Something that enqueues occurrences: a running transaction, or the adapter itself.
 *
 * @example Enqueue through a transaction or the adapter
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type HookQuerier, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * // A transaction, or the adapter itself when nothing else is written.
 * const enqueueSend = (querier: HookQuerier) => hooks.enqueue(querier, { name: "send" });
 * await db.transaction((tx) => enqueueSend(tx));
 * await enqueueSend(db);
 * await db.close();
 * ```
 */
export interface HookQuerier {
  /** Runs one statement with `$1, $2, …` placeholders bound to `params`, returning its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * Options of {@link DurableHooks.enqueueSql}.
 *
 * @example Insert rows and their occurrences in one statement
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type EnqueueSqlOptions, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * // One occurrence per inserted mail, with the new row's id in its payload; one round trip.
 * const options: EnqueueSqlOptions = {
 *   from: "inserted",
 *   firstParam: 1,
 *   payloadSql: "jsonb_build_object('mailId', inserted.id)",
 *   keySql: "inserted.id::text",
 * };
 * const hook = hooks.enqueueSql({ name: "send" }, options);
 * await db.query(
 *   `WITH inserted AS (INSERT INTO mailer.mails (id) VALUES (gen_random_uuid()) RETURNING id),
 *      enqueued AS (${hook.sql})
 *    SELECT count(*) FROM enqueued`,
 *   hook.params,
 * );
 * hooks.wake();
 * await db.close();
 * ```
 */
export interface EnqueueSqlOptions {
  /**
   * A relation of the caller's statement (typically a CTE name, quoted as an identifier): one
   * occurrence is inserted per row it yields, so none when it is empty.
   */
  from?: string;
  /** The number of the first placeholder the fragment uses (`$n`). @default 1 */
  firstParam?: number;
  /**
   * An SQL expression computing each occurrence's payload from the row of `from` (e.g.
   * `jsonb_build_object('memberId', inserted.id)`), for payloads that hold values the statement
   * itself creates; it replaces `occurrence.payload`. It is embedded as written: build it from
   * identifiers and the caller's own placeholders, never from input.
   */
  payloadSql?: string;
  /**
   * An SQL expression computing each occurrence's key from the row of `from` (e.g.
   * `inserted.update_id::text`), for a statement that enqueues one occurrence per row it writes;
   * it replaces `occurrence.key`. Embedded as written, like `payloadSql`.
   */
  keySql?: string;
  /**
   * An SQL expression computing each occurrence's ordering key from the row of `from` (e.g.
   * `queued.chat_id`; `NULL` for an unordered one); it replaces `occurrence.orderKey`. Embedded
   * as written, like `payloadSql`. Occurrences of one key are enqueued in the order `from`
   * yields them; a statement enqueueing several keys takes each key's lock as it reaches it, so
   * let `from` yield its rows ordered by `hashtext(<order key>)` first: the order every other
   * writer of several keys takes their locks in, so that two of them never deadlock.
   */
  orderKeySql?: string;
  /**
   * With `from` and `orderKeySql`, on a schema with `withHookHandOff`: the rows of `from` are
   * enqueued by one call of its `hook_enqueue_ordered()` (each ordering key's lock taken once,
   * the occurrences that must wait stored `blocked` at once) instead of through the ordering
   * trigger, which takes the lock and looks for the key's unfinished occurrence once per row.
   * The fragment is then a `SELECT` answering one row (`enqueued`, how many were inserted), which
   * the caller's statement must read: PostgreSQL runs a `SELECT` in `WITH` only when it is read.
   * Each key's occurrences are enqueued in the order `from` yields them. @default false
   */
  inOneCall?: boolean;
}

/**
 * An `INSERT` of one occurrence to embed in the caller's statement, with its parameters.
 *
 * @example An insert and its occurrence in one round trip
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type EnqueueSql, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * const hook: EnqueueSql = hooks.enqueueSql({ name: "send", key: "mail-1" }, { firstParam: 2 });
 * // $1 is the statement's own parameter, the hook's start at $2.
 * await db.query(
 *   `WITH mail AS (INSERT INTO mailer.mails (id) VALUES ($1) RETURNING id), hook AS (${hook.sql})
 *    SELECT id FROM hook`,
 *   [crypto.randomUUID(), ...hook.params],
 * );
 * hooks.wake(); // the statement sent no notification
 * await db.close();
 * ```
 */
export interface EnqueueSql {
  /**
   * `INSERT … ON CONFLICT (name, key) WHERE key IS NOT NULL DO NOTHING RETURNING id`, usable as a CTE body (with
   * `inOneCall`, a `SELECT` to read; see {@link EnqueueSqlOptions.inOneCall}).
   */
  sql: string;
  /** The values of its placeholders, in order from `firstParam`. */
  params: unknown[];
}

/** Options of {@link DurableHooks.statusJoinSql}.
 *
 * @example The processing state next to each stored row
 * ```ts ignore
 * import type { HookStatusColumns } from "@app/fragment-cli/hooks";
 *
 * const j = hooks.statusJoinSql({ name: "process", keySql: "u.id::text", alias: "h" });
 * const rows = await db.query<{ id: string } & HookStatusColumns>(
 *   `SELECT u.id, ${j.columns} FROM app.uploads AS u ${j.join} WHERE ${j.status} = 'failed'`,
 *   j.params,
 * );
 * ```
 */
export interface StatusJoinSqlOptions {
  /** The hook whose occurrences are joined (one of the registered hooks). */
  name: string;
  /**
   * An SQL expression of the caller's row giving the occurrence key to join on (e.g.
   * `u.update_id::text`): each row meets the occurrence of `name` with that key, if any. It is
   * embedded as written: build it from identifiers, never from input.
   */
  keySql: string;
  /**
   * The alias of the joined occurrences in the caller's statement (quoted as an identifier); it
   * must not name another relation of the statement.
   */
  alias: string;
  /** The number of the first placeholder the fragment uses (`$n`). @default 1 */
  firstParam?: number;
}

/**
 * A `LEFT JOIN` of each row of the caller's statement to its hook occurrence, with the columns
 * that tell where the occurrence stands; they are `NULL` for a row without an occurrence (never
 * enqueued, or purged once done by `retention`).
 *
 * @example The processing state next to each stored row
 * ```ts ignore
 * import type { HookStatusColumns } from "@app/fragment-cli/hooks";
 *
 * const j = hooks.statusJoinSql({ name: "process", keySql: "u.id::text", alias: "h" });
 * const rows = await db.query<{ id: string } & HookStatusColumns>(
 *   `SELECT u.id, ${j.columns} FROM app.uploads AS u ${j.join} WHERE ${j.status} = 'failed'`,
 *   j.params,
 * );
 * ```
 */
export interface StatusJoinSql {
  /** `LEFT JOIN <hook table> AS <alias> ON …`, to append to the caller's `FROM`. */
  join: string;
  /**
   * The select list of the occurrence's state, named like {@link HookStatusColumns}:
   * `hook_status`, `hook_attempts`, `hook_last_error`, `hook_finished_at`.
   */
  columns: string;
  /** The expression of the occurrence's status (`NULL` without one), for `WHERE` and `ORDER BY`. */
  status: string;
  /** The values of its placeholders, in order from `firstParam`. */
  params: unknown[];
}

/** The row columns {@link StatusJoinSql.columns} selects; `null` for a row without occurrence.
 *
 * @example The processing state next to each stored row
 * ```ts ignore
 * import type { HookStatusColumns } from "@app/fragment-cli/hooks";
 *
 * const j = hooks.statusJoinSql({ name: "process", keySql: "u.id::text", alias: "h" });
 * const rows = await db.query<{ id: string } & HookStatusColumns>(
 *   `SELECT u.id, ${j.columns} FROM app.uploads AS u ${j.join} WHERE ${j.status} = 'failed'`,
 *   j.params,
 * );
 * ```
 */
export interface HookStatusColumns {
  /** Where the occurrence stands. */
  hook_status: HookStatus | null;
  /** Attempts started so far. */
  hook_attempts: number | null;
  /** The error of the latest failed attempt, if any. */
  hook_last_error: string | null;
  /** When it reached `done`, `failed` or `cancelled`. */
  hook_finished_at: Date | null;
}

/**
 * The durable hooks of one namespace: enqueue and run, and inspect and retry through the operator
 * API it extends ({@link HookAdmin}).
 *
 * @example Enqueue, then run in the foreground
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { type DurableHooks, durableHooks, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks: DurableHooks = durableHooks({
 *   adapter: db,
 *   namespace: "mailer",
 *   hooks: { send: (payload) => console.log("send", payload) },
 * });
 * await db.transaction((tx) => hooks.enqueue(tx, { name: "send", payload: { to: "ada@example.com" } }));
 * await hooks.drain(); // in a test; a server calls hooks.start() instead
 * await db.close();
 * ```
 */
export interface DurableHooks extends HookAdmin {
  /** The registered hook names. */
  readonly names: readonly string[];
  /**
   * Inserts an occurrence through `tx` (a transaction: it is rolled back with it). A duplicate
   * `(name, key)` is reported, not thrown. Workers are notified when the transaction commits.
   */
  enqueue(tx: HookQuerier, occurrence: HookOccurrenceInput): Promise<EnqueueResult>;
  /**
   * Inserts many occurrences through `tx` in one statement (a batch: one round trip, where a
   * loop of {@link DurableHooks.enqueue} makes two per occurrence), with the same deduplication:
   * a `(name, key)` that exists, or repeats inside the batch, is reported as a duplicate with the
   * id of the occurrence holding it. Workers are notified once, when the transaction commits.
   *
   * @returns One result per occurrence, in the order given.
   */
  enqueueMany(
    tx: HookQuerier,
    occurrences: readonly HookOccurrenceInput[],
  ): Promise<EnqueueResult[]>;
  /**
   * The SQL of {@link DurableHooks.enqueue} as a fragment for the caller's own statement (e.g. a
   * CTE that inserts a row and its occurrence together, in one round trip). It sends no
   * notification: call {@link DurableHooks.wake} once the statement committed.
   */
  enqueueSql(occurrence: HookOccurrenceInput, options?: EnqueueSqlOptions): EnqueueSql;
  /**
   * The state of each row's occurrence of one hook, as a fragment of the caller's own query: a
   * `LEFT JOIN` of the hook table on `(name, key)` (its unique index) and the columns to select,
   * so a module shows the processing state of its data (the messenger, each stored update's)
   * without knowing the hook table's name or columns.
   *
   * @example The occurrence state of each mail
   * ```ts ignore
   * const hook = hooks.statusJoinSql({ name: "sendMail", keySql: "m.id::text", alias: "h" });
   * const rows = await db.query<{ id: string } & HookStatusColumns>(
   *   `SELECT m.id, ${hook.columns} FROM mailer.mails AS m ${hook.join}
   *    WHERE ${hook.status} = 'failed'`,
   *   hook.params,
   * );
   * ```
   */
  statusJoinSql(options: StatusJoinSqlOptions): StatusJoinSql;
  /**
   * Call it after the enqueuing transaction committed: wakes this process's worker now and, with
   * one `NOTIFY` outside any transaction (coalesced: at most one in flight per hooks object, and
   * one more after it for the calls made meanwhile), the workers of other processes.
   */
  wake(): void;
  /**
   * Starts the worker (idempotent). A module's `background` control calls it at the module's
   * first request or from `serve()`.
   */
  start(): Promise<void>;
  /** Stops the worker: no new claims, running handlers finish first. */
  stop(): Promise<void>;
  /** Whether the worker is started. */
  readonly running: boolean;
  /**
   * Runs due occurrences in the foreground until none is due (for tests and embedding), including
   * those that become due meanwhile: the next occurrence of an ordering key once the one before it
   * finished (here or in another worker), or one another transaction held locked for a moment.
   */
  drain(options?: DrainOptions): Promise<DrainResult>;
  /**
   * What the occurrence is about, from its hook's `describe` (e.g. the messenger's stored
   * update); `null` when its hook has none or it returns nothing.
   */
  describe(occurrence: HookOccurrence): Promise<JsonValue | null>;
}
