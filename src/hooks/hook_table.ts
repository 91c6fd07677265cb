/**
 * The table of durable hook occurrences, added to a module's own schema by {@link withHookTable}
 * so it lives in the module's namespace: `(name, key)` is unique per namespace, and two
 * instances of a module in two namespaces of one database never see each other's occurrences.
 *
 * @module
 */

import { column, type JsonValue } from "../schema/column.ts";
import type { ColumnShape, SchemaBuilder, TablesShape } from "../schema/schema.ts";
import type { SchemaStep } from "../schema/schema_step.ts";

/**
 * The table holding the occurrences, inside the module's namespace. Internal to src/hooks/: other
 * layers reach the occurrences through `DurableHooks` (`statusJoinSql`, `list`, …) and
 * {@link hasHookTable}, so the table's name and columns can change with the hooks alone
 * (tests/architecture/import_rule.test.ts refuses its name outside this folder).
 */
export const HOOK_TABLE = "hook_occurrences";

/**
 * The row shape {@link withHookTable} adds, for `RowOf<typeof schema, "hook_occurrences">`. A type
 * alias, not an interface extending `TablesShape`: that index signature would make `keyof` of a
 * schema's tables plain `string`, and later steps (`addColumn`, …) would drop this table's key.
 *
 * @example The row type of the hook table
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 * import { type HookTablesShape, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
 * type Occurrence = RowOf<typeof mailer, keyof HookTablesShape>; // { id: string; name: string; … }
 * ```
 */
export type HookTablesShape = {
  hook_occurrences: {
    id: ColumnShape<string, false, true>;
    name: ColumnShape<string, false, false>;
    key: ColumnShape<string, true, false>;
    payload: ColumnShape<JsonValue, true, false>;
    status: ColumnShape<string, false, true>;
    attempts: ColumnShape<number, false, true>;
    due_at: ColumnShape<Date, false, true>;
    leased_by: ColumnShape<string, true, false>;
    last_error: ColumnShape<string, true, false>;
    created_at: ColumnShape<Date, false, true>;
    updated_at: ColumnShape<Date, false, true>;
    finished_at: ColumnShape<Date, true, false>;
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
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { withHookTable } from "@app/fragment-cli/hooks";
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

/**
 * The conflict target of every statement that inserts occurrences. It names the partial index of
 * `withHookPartialKeyIndex`, and PostgreSQL infers the full unique index of a schema without
 * the step from it too (an index without a predicate satisfies any), so one statement serves both.
 */
export const KEY_CONFLICT = "(name, key) WHERE key IS NOT NULL";

/**
 * Whether a schema has the durable hook table ({@link withHookTable} is in its history): what
 * tools (`fragment-cli hooks`, `db info`) ask to find the namespaces that hold occurrences,
 * without knowing the table's name.
 *
 * @param schema A schema (or anything with its steps).
 * @returns `true` when one of its steps creates the hook table.
 *
 * @example Tell a module with durable hooks from one without
 * ```ts
 * import { defineSchema } from "@app/fragment-cli/schema";
 * import { hasHookTable, withHookTable } from "@app/fragment-cli/hooks";
 *
 * console.log(hasHookTable(defineSchema("mailer", (s) => withHookTable(s)))); // true
 * console.log(hasHookTable(defineSchema("notes", (s) => s))); // false
 * ```
 */
export function hasHookTable(schema: { readonly steps: readonly SchemaStep[] }): boolean {
  return schema.steps.some((step) => step.kind === "createTable" && step.table === HOOK_TABLE);
}

/**
 * The row shape {@link withHookErrorLog} adds to the hook table.
 *
 * @example The column the error log adds
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 * import { type HookErrorLogShape, withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
 * type Errors = HookErrorLogShape["hook_occurrences"]["errors"]["type"]; // JsonValue
 * type Row = RowOf<typeof mailer, "hook_occurrences">; // … & { errors: JsonValue }
 * ```
 */
export type HookErrorLogShape = {
  hook_occurrences: { errors: ColumnShape<JsonValue, false, true> };
};

/** How many failed attempts' errors an occurrence keeps (the latest ones). */
export const HOOK_ERROR_LOG_LENGTH = 20;

/**
 * Adds the error log to the hook table of a schema that has it (after {@link withHookTable}): one
 * `addColumn` step, the jsonb array `errors` of the latest 20 failed
 * attempts (`{ attempt, at, error }`, oldest first), which `fragment-cli hooks show` prints.
 * Without it a hook keeps only `last_error`. Appended where the call stands, like any step; the
 * first-party modules append it after their hook table.
 *
 * @param builder The schema builder, after `withHookTable`.
 * @returns The builder with the column added.
 *
 * @example A module schema whose hooks keep every attempt's error
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";
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

/**
 * The row shape {@link withHookOrdering} adds to the hook table.
 *
 * @example The column ordering adds
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 * import { type HookOrderingShape, withHookOrdering, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const chats = defineSchema("chats", (s) =>
 *   withHookOrdering(withHookTable(s.createTable("chats", { id: column.text().primaryKey() }))));
 * type OrderKey = HookOrderingShape["hook_occurrences"]["order_key"]["type"]; // string
 * const key: RowOf<typeof chats, "hook_occurrences">["order_key"] = null; // nullable
 * ```
 */
export type HookOrderingShape = {
  hook_occurrences: { order_key: ColumnShape<string, true, false> };
};

/**
 * Adds ordering keys to the hook table of a schema that has it (after {@link withHookTable}):
 * occurrences enqueued with the same `orderKey` run one at a time, in the order they were
 * enqueued; different keys run in parallel. Three steps (three versions): the `order_key` column,
 * a partial index on `(order_key, id)` over the unfinished occurrences, and the two trigger
 * functions that keep each key's chain (raw SQL).
 *
 * How: an occurrence enqueued while its key has an unfinished one (`pending`, which includes one
 * waiting for a retry, `running` or `blocked`) is stored `blocked`, which no claim ever reads; when
 * the key's pending or running occurrence finishes (`done`, `failed` out of attempts, `cancelled`,
 * or deleted), the key's oldest blocked one becomes `pending`, in the same transaction. Both sides
 * take a transaction-scoped advisory lock on (namespace, key), so an enqueue and a finish of one
 * key never miss each other. An occurrence put back to `pending` by a retry (after `failed` or
 * `cancelled`) re-enters its key's chain the same way: `blocked` while the key has an unfinished
 * occurrence, else `pending`.
 *
 * @param builder The schema builder, after `withHookTable`.
 * @returns The builder with the column, the index and the triggers added.
 *
 * @example A module schema whose hooks can be ordered per key
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { withHookOrdering, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookOrdering(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   ));
 * console.log(schema.version); // 8
 * ```
 */
export function withHookOrdering<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables & HookOrderingShape> {
  const added = builder
    .addColumn(HOOK_TABLE, "order_key", column.text().nullable())
    // Serves both trigger functions: "does the key have an unfinished occurrence" and "the key's
    // oldest blocked occurrence". Finished occurrences, the bulk of the table, are not in it.
    .addIndex(HOOK_TABLE, "hook_occurrences_order_key_idx", ["order_key", "id"], {
      where: `order_key IS NOT NULL AND status IN ${UNFINISHED}`,
    })
    .sql(({ namespace, qualify, quote }) => orderingTriggers(namespace, qualify, quote));
  return added as unknown as SchemaBuilder<Tables & HookOrderingShape>;
}

/** The statuses of an occurrence that holds its key (or waits for it). */
const UNFINISHED = "('pending', 'running', 'blocked')";

/**
 * The trigger functions and triggers of {@link withHookOrdering}, for one namespace: the table and
 * the namespace are written into the function bodies, so their statements are planned once per
 * connection. Each trigger fires only for rows with an `order_key` (its `WHEN` is checked without
 * calling the function), so unordered occurrences pay nothing.
 */
function orderingTriggers(
  namespace: string,
  qualify: (name: string) => string,
  quote: (name: string) => string,
): string[] {
  const table = qualify(HOOK_TABLE);
  const lockNamespace = orderLockNamespace(namespace);
  const enter = qualify("hook_order_enter");
  const leave = qualify("hook_order_leave");
  return [
    // Enqueued, or put back to pending by a retry: blocked while the key has another unfinished
    // occurrence. The lock serializes this check with the other enqueues and the finishes of the
    // key; the query after it reads a fresh snapshot (read committed), so it sees them.
    `CREATE FUNCTION ${enter}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(${lockNamespace}, hashtext(NEW.order_key));
  IF EXISTS (SELECT 1 FROM ${table}
             WHERE order_key = NEW.order_key AND status IN ${UNFINISHED} AND id <> NEW.id) THEN
    NEW.status := 'blocked';
  END IF;
  RETURN NEW;
END
$fn$`,
    // The key's pending or running occurrence finished (or was deleted): its oldest blocked one
    // becomes pending.
    `CREATE FUNCTION ${leave}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(${lockNamespace}, hashtext(OLD.order_key));
  UPDATE ${table} SET status = 'pending', updated_at = clock_timestamp()
  WHERE id = (SELECT id FROM ${table}
              WHERE order_key = OLD.order_key AND status IN ${UNFINISHED} AND status = 'blocked'
              ORDER BY order_key, id LIMIT 1);
  RETURN NULL;
END
$fn$`,
    `CREATE TRIGGER ${quote("hook_order_enqueued")} BEFORE INSERT ON ${table} FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending') EXECUTE FUNCTION ${enter}()`,
    `CREATE TRIGGER ${quote("hook_order_retried")} BEFORE UPDATE OF status ON ${table} FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending'
      AND OLD.status IN ('done', 'failed', 'cancelled')) EXECUTE FUNCTION ${enter}()`,
    `CREATE TRIGGER ${quote("hook_order_finished")} AFTER UPDATE OF status ON ${table} FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running')
      AND NEW.status IN ('done', 'failed', 'cancelled')) EXECUTE FUNCTION ${leave}()`,
    `CREATE TRIGGER ${quote("hook_order_deleted")} AFTER DELETE ON ${table} FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running'))
EXECUTE FUNCTION ${leave}()`,
  ];
}

/**
 * The SQL of the first key of the ordering locks of a namespace's hooks (the second is
 * `hashtext(order_key)`), shared by the triggers and the functions that take those locks.
 */
export function orderLockNamespace(namespace: string): string {
  return `hashtext(${sqlText(namespace)})`;
}

/** An SQL string literal. */
function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
