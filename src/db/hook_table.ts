/**
 * The table of durable hook occurrences, added to a module's own schema by {@link withHookTable}
 * so it lives in the module's namespace: `(name, key)` is unique per namespace, and two
 * instances of a module in two namespaces of one database never see each other's occurrences.
 *
 * @module
 */

import { column, type JsonValue } from "./column.ts";
import type { SchemaBuilder, TablesShape } from "./schema.ts";

/** The table holding the occurrences, inside the module's namespace. */
export const HOOK_TABLE = "hook_occurrences";

type Col<T, N extends boolean, D extends boolean> = { type: T; nullable: N; hasDefault: D };

/**
 * The row shape {@link withHookTable} adds, for `RowOf<typeof schema, "hook_occurrences">`. A type
 * alias, not an interface extending `TablesShape`: that index signature would make `keyof` of a
 * schema's tables plain `string`, and later steps (`addColumn`, …) would drop this table's key.
 */
export type HookTablesShape = {
  hook_occurrences: {
    id: Col<string, false, true>;
    name: Col<string, false, false>;
    key: Col<string, true, false>;
    payload: Col<JsonValue, true, false>;
    status: Col<string, false, true>;
    attempts: Col<number, false, true>;
    due_at: Col<Date, false, true>;
    leased_by: Col<string, true, false>;
    last_error: Col<string, true, false>;
    created_at: Col<Date, false, true>;
    updated_at: Col<Date, false, true>;
    finished_at: Col<Date, true, false>;
  };
};

/**
 * Adds the durable hook table to a schema being defined: one `createTable` and three `addIndex`
 * steps (four versions), appended where the call stands in the schema's history.
 *
 * These steps are frozen: a schema's history is append-only and fingerprinted, so a later change
 * of the hook table will come as a new helper appended after this one, never as an edit of it.
 *
 * Columns: `id` (bigint identity), `name`, `key` (nullable; `(name, key)` unique, NULL keys never
 * collide), `payload` (jsonb), `status` (`pending` | `running` | `done` | `failed`), `attempts`,
 * `due_at` (when a pending occurrence is due; while running, when its lease expires),
 * `leased_by`, `last_error`, `created_at`, `updated_at`, `finished_at`.
 *
 * @param builder The schema builder, after the module's own steps.
 * @returns The builder with the hook table added.
 *
 * @example A module schema with durable hooks
 * ```ts
 * import { column, defineSchema, withHookTable } from "./mod.ts";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })));
 * console.log(schema.version); // 5
 * ```
 */
export function withHookTable<Tables extends TablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables & HookTablesShape> {
  const added = builder
    .createTable(HOOK_TABLE, {
      id: column.bigint().identity().primaryKey(),
      name: column.text(),
      key: column.text().nullable(),
      payload: column.jsonb().nullable(),
      status: column.text().default("pending"),
      attempts: column.integer().default(0),
      due_at: column.timestamptz().defaultNow(),
      leased_by: column.text().nullable(),
      last_error: column.text().nullable(),
      created_at: column.timestamptz().defaultNow(),
      updated_at: column.timestamptz().defaultNow(),
      finished_at: column.timestamptz().nullable(),
    })
    .addIndex(HOOK_TABLE, "hook_occurrences_name_key_idx", ["name", "key"], { unique: true })
    // Serves the claim query: only unfinished occurrences, ordered by when they are due.
    .addIndex(HOOK_TABLE, "hook_occurrences_due_idx", ["due_at"], {
      where: "status IN ('pending', 'running')",
    })
    .addIndex(HOOK_TABLE, "hook_occurrences_status_idx", ["status", "id"]);
  return added as unknown as SchemaBuilder<Tables & HookTablesShape>;
}

/** The row shape {@link withHookErrorLog} adds to the hook table. */
export type HookErrorLogShape = {
  hook_occurrences: { errors: Col<JsonValue, false, true> };
};

/** How many failed attempts' errors an occurrence keeps (the latest ones). */
export const HOOK_ERROR_LOG_LENGTH = 20;

/**
 * Adds the error log to the hook table of a schema that has it (after {@link withHookTable}): one
 * `addColumn` step, the jsonb array `errors` of the latest {@link HOOK_ERROR_LOG_LENGTH} failed
 * attempts (`{ attempt, at, error }`, oldest first), which `fragment-cli hooks show` prints.
 * Without it a hook keeps only `last_error`. Appended where the call stands, like any step; the
 * first-party modules append it after their hook table.
 *
 * @param builder The schema builder, after `withHookTable`.
 * @returns The builder with the column added.
 *
 * @example A module schema whose hooks keep every attempt's error
 * ```ts
 * import { column, defineSchema, withHookErrorLog, withHookTable } from "./mod.ts";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookErrorLog(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   ));
 * console.log(schema.version); // 6
 * ```
 */
export function withHookErrorLog<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables & HookErrorLogShape> {
  const added = builder.addColumn(HOOK_TABLE, "errors", column.jsonb().default([]));
  return added as unknown as SchemaBuilder<Tables & HookErrorLogShape>;
}
