/**
 * Durable hooks: work enqueued in the caller's transaction, run at least once by workers that
 * claim occurrences with `FOR UPDATE SKIP LOCKED`, retried with backoff, ordered per key when
 * asked, scheduled by cron expressions, inspected and retried by one operator API (`hookAdmin()`,
 * which every `DurableHooks` has too).
 *
 * @example A hook enqueued in the transaction that writes the data
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { durableHooks, withHookTable } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * // The hook table lives in the module's own schema, beside its tables.
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("users", { email: column.text().primaryKey() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({
 *   adapter: db,
 *   namespace: "mailer",
 *   hooks: { sendWelcome: (payload) => console.log("welcome", payload) },
 * });
 * await db.transaction(async (tx) => {
 *   await tx.query("INSERT INTO mailer.users (email) VALUES ($1)", ["ada@example.com"]);
 *   await hooks.enqueue(tx, { name: "sendWelcome", payload: { to: "ada@example.com" } });
 * });
 * await hooks.drain(); // prints: welcome { to: "ada@example.com" }
 * await db.close();
 * ```
 *
 * @module
 */

export {
  hasHookTable,
  type HookErrorLogShape,
  type HookOrderingShape,
  type HookTablesShape,
  withHookErrorLog,
  withHookOrdering,
  withHookTable,
} from "./hook_table.ts";
export { withHookFunctions } from "./hook_functions.ts";
export { withHookHandOff, withHookHandOffLookup } from "./hook_hand_off.ts";
export { withHookCompletionById } from "./hook_completion_by_id.ts";
export { withHookPartialKeyIndex } from "./hook_key_index.ts";
export { hookAdmin } from "./hook_admin.ts";
export type {
  HookAdmin,
  HookAttemptError,
  HookChangeResult,
  HookCounts,
  HookOccurrence,
  HookOccurrencePage,
  HookStatus,
  ListHookOptions,
  OccurrenceWithErrors,
  RetryFailedOptions,
} from "./hook_operations.ts";
export { durableHooks } from "./durable_hooks.ts";
export { PermanentHookError } from "./hook_retry.ts";
export type { ScheduledHookPayload } from "./hook_schedule.ts";
export type {
  DrainOptions,
  DrainResult,
  DurableHooks,
  DurableHooksOptions,
  EnqueueResult,
  EnqueueSql,
  EnqueueSqlOptions,
  HookContext,
  HookDefinition,
  HookHandler,
  HookOccurrenceInput,
  HookQuerier,
  HookRetention,
  HookStatusColumns,
  StatusJoinSql,
  StatusJoinSqlOptions,
} from "./hook_types.ts";
