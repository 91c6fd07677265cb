/**
 * Durable hooks: work enqueued in the caller's transaction, run at least once by workers that
 * claim occurrences with `FOR UPDATE SKIP LOCKED`, retried with backoff, ordered per key when
 * asked, scheduled by cron expressions, inspected and retried by an admin API.
 *
 * @example A hook enqueued in the transaction that writes the data
 * ```ts
 * import { durableHooks } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * const hooks = durableHooks({
 *   adapter: db,
 *   namespace: "mailer", // its schema includes withHookTable(...)
 *   hooks: { sendWelcome: (payload) => console.log("welcome", payload) },
 * });
 * await db.transaction((tx) => hooks.enqueue(tx, { name: "sendWelcome", payload: { to: "a@b.c" } }));
 * ```
 *
 * @module
 */

export {
  hasHookTable,
  HOOK_ERROR_LOG_LENGTH,
  type HookErrorLogShape,
  type HookOrderingShape,
  type HookTablesShape,
  withHookErrorLog,
  withHookOrdering,
  withHookTable,
} from "./hook_table.ts";
export {
  type HookAdmin,
  hookAdmin,
  type HookChangeResult,
  type HookCounts,
  type OccurrenceWithErrors,
} from "./hook_admin.ts";
export { parseHookDuration } from "./hook_duration.ts";
export { hookRetryDelay, type RetryDelayOptions } from "./hook_retry.ts";
export { durableHooks } from "./durable_hooks.ts";
export { type CronExpression, CronSyntaxError, parseCron } from "./cron_expression.ts";
export { type CronSchedule, cronSchedule } from "./cron_schedule.ts";
export { type ScheduledHookPayload, scheduleKey } from "./hook_schedule.ts";
export type {
  DrainOptions,
  DrainResult,
  DurableHooks,
  DurableHooksOptions,
  EnqueueResult,
  EnqueueSql,
  EnqueueSqlOptions,
  HookAttemptError,
  HookContext,
  HookDefinition,
  HookHandler,
  HookOccurrence,
  HookOccurrenceInput,
  HookOccurrencePage,
  HookQuerier,
  HookRetention,
  HookStatus,
  HookStatusColumns,
  ListHookOptions,
  RequeueOptions,
  StatusJoinSql,
  StatusJoinSqlOptions,
} from "./hook_types.ts";
