/**
 * The operator's view of durable hooks: occurrences as read back, their pages, counts and error
 * logs, and {@link HookAdmin}, the one operator API (`hookAdmin()`, and every `DurableHooks`).
 *
 * @module
 */

import type { JsonValue } from "../schema/column.ts";
import type { PageOf } from "../pagination/mod.ts";

/**
 * Where an occurrence stands: waiting (due, or waiting for a retry), being run (leased), finished,
 * given up (out of attempts), cancelled by an operator (`fragment-cli hooks cancel`), or waiting
 * for an earlier occurrence of its ordering key to finish (`blocked`, see `withHookOrdering`).
 *
 * @example Statuses an operator acts on
 * ```ts
 * import type { HookStatus } from "@app/fragment-cli/hooks";
 *
 * const needsAttention = (status: HookStatus) => status === "failed" || status === "blocked";
 * ```
 */
export type HookStatus = "pending" | "running" | "done" | "failed" | "cancelled" | "blocked";

/**
 * One stored occurrence.
 *
 * @example Look an occurrence up
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type HookOccurrence, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * const { id } = await hooks.enqueue(db, { name: "send", payload: { to: "ada@example.com" } });
 * const occurrence: HookOccurrence | null = await hooks.get(id);
 * console.log(occurrence?.status, occurrence?.attempts); // pending 0
 * await db.close();
 * ```
 */
export interface HookOccurrence {
  /** Its id, a decimal string. */
  id: string;
  /** The hook name. */
  name: string;
  /** The deduplication key, or `null`. */
  key: string | null;
  /** The payload. */
  payload: JsonValue;
  /** Where it stands. */
  status: HookStatus;
  /** Attempts started so far. */
  attempts: number;
  /** When pending: when it is due. When running: when its lease expires. */
  dueAt: Date;
  /** The error of the latest failed attempt, if any (kept after a later success). */
  lastError: string | null;
  /** When it was enqueued. */
  createdAt: Date;
  /** When it last changed. */
  updatedAt: Date;
  /** When it reached `done`, `failed` or `cancelled`. */
  finishedAt: Date | null;
  /** The ordering key, or `null`. */
  orderKey: string | null;
}

/**
 * The error of one failed attempt, as the error log (`withHookErrorLog`) keeps it.
 *
 * @example Print an occurrence's error log
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import {
 *   hookAdmin,
 *   type HookAttemptError,
 *   withHookErrorLog,
 *   withHookTable,
 * } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const occurrence = await hookAdmin({ adapter: db, namespace: "mailer" }).get("1");
 * const errors: HookAttemptError[] = occurrence?.errors ?? [];
 * for (const { attempt, at, error } of errors) console.log(attempt, at.toISOString(), error);
 * await db.close();
 * ```
 */
export interface HookAttemptError {
  /** The attempt's number (numbering starts again at 1 after a retry by an operator). */
  attempt: number;
  /** When the attempt failed. */
  at: Date;
  /** The error text (the stack when there was one). */
  error: string;
}

/**
 * Options of {@link HookAdmin.list}.
 *
 * @example Page through the failed occurrences of one hook
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type ListHookOptions, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * const options: ListHookOptions = { status: "failed", name: "send", pageSize: 50 };
 * const page = await hooks.list(options);
 * const next = page.hasNextPage ? await hooks.list({ ...options, cursor: page.cursor }) : undefined;
 * await db.close();
 * ```
 */
export interface ListHookOptions {
  /** Only occurrences in this status. */
  status?: HookStatus;
  /** Only occurrences of this hook. */
  name?: string;
  /** Page size (query-string text accepted). @default 20, at most 100 */
  pageSize?: number | string | null;
  /** The cursor of the previous page. */
  cursor?: string | null;
  /** `"oldest"` first (by id), or `"newest"` first. @default "oldest" */
  order?: "oldest" | "newest";
}

/**
 * A page of occurrences, in the order asked ({@link ListHookOptions.order}).
 *
 * @example Every pending occurrence, page by page
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 * import { durableHooks, type HookOccurrencePage, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * let cursor: string | null = null;
 * do {
 *   const page: HookOccurrencePage = await hooks.list({ status: "pending", cursor });
 *   for (const occurrence of page.occurrences) console.log(occurrence.id, occurrence.name);
 *   cursor = page.cursor;
 * } while (cursor !== null);
 * await db.close();
 * ```
 */
export type HookOccurrencePage = PageOf<"occurrences", HookOccurrence>;

/**
 * Which failed occurrences {@link HookAdmin.retryFailed} puts back: all, or those of the given ids
 * and/or hook.
 *
 * @example Retry the failed occurrences of one hook
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { durableHooks, type RetryFailedOptions, withHookTable } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
 * // After fixing the mail provider's credentials: every failed "send" gets a fresh budget.
 * const options: RetryFailedOptions = { name: "send" };
 * console.log(await hooks.retryFailed(options)); // [] (the ids put back)
 * await db.close();
 * ```
 */
export interface RetryFailedOptions {
  /** Only these occurrences (they must be `failed`). */
  ids?: readonly string[];
  /** Only occurrences of this hook. */
  name?: string;
}
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
 * An occurrence with its error log (empty without `withHookErrorLog`), as {@link HookAdmin.get}
 * answers it.
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
 * The operator's API of the durable hooks of one namespace: what `hookAdmin()` answers (without
 * the handlers, in any process), and what every `DurableHooks` has too (it extends this one).
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
  /** The namespace holding the occurrences. */
  readonly namespace: string;
  /** Whether the hook table exists in the database (the namespace is migrated to it). */
  exists(): Promise<boolean>;
  /** One occurrence by id with its error log, or `null` (also for an id that is not a number). */
  get(id: string): Promise<OccurrenceWithErrors | null>;
  /** One occurrence by hook name and key, or `null`. */
  find(name: string, key: string): Promise<HookOccurrence | null>;
  /**
   * Occurrences by status and/or hook, oldest first (or newest first with `order: "newest"`),
   * with cursor pagination.
   */
  list(options?: ListHookOptions): Promise<HookOccurrencePage>;
  /**
   * Puts failed or cancelled occurrences back to pending, due now, attempts reset to 0 (their
   * error log kept), and wakes the workers. Others are left alone (idempotent). All or nothing:
   * with an unknown id nothing changes. One with an ordering key re-enters its key's chain:
   * `blocked` behind the key's pending or running occurrence, if any (it then runs next, before
   * the key's later occurrences still blocked), else pending.
   */
  retry(ids: readonly string[]): Promise<HookChangeResult>;
  /**
   * Retries the failed occurrences (not the cancelled ones): all, or those of the given ids
   * and/or hook (ids of occurrences in another status are skipped); returns the ids put back.
   */
  retryFailed(options?: RetryFailedOptions): Promise<string[]>;
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
