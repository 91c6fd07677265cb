/**
 * Durable hooks: work enqueued in the caller's transaction, run at least once by workers that
 * claim occurrences with `FOR UPDATE SKIP LOCKED`, retried with backoff, ordered per key when
 * asked, scheduled by cron expressions, inspected and retried by an admin API.
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
export {
  type HookAdmin,
  hookAdmin,
  type HookChangeResult,
  type HookCounts,
  type OccurrenceWithErrors,
} from "./hook_admin.ts";
export { durableHooks } from "./durable_hooks.ts";
export type { ScheduledHookPayload } from "./hook_schedule.ts";
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
