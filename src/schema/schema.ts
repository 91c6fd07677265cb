/**
 * `defineSchema()`: a named, versioned list of steps, checked at definition time, with row types
 * inferred for module code.
 *
 * @module
 */

import type { AnyColumn, ColumnDef } from "./column.ts";
import type { SchemaStep, SqlStepBody, StepDefinition } from "./schema_step.ts";
import { applyStep, assertName, emptyState, type SchemaState } from "./schema_state.ts";

/**
 * What row inference knows about a column: the JavaScript type of its values, whether it may be
 * NULL, whether the database fills it when an insert omits it.
 *
 * @example The shape of a nullable text column without a default
 * ```ts
 * import type { ColumnShape } from "@app/fragment-cli/schema";
 *
 * type Nickname = ColumnShape<string, true, false>;
 * const shape: Nickname = { type: "ada", nullable: true, hasDefault: false };
 * ```
 */
export interface ColumnShape<
  T = unknown,
  N extends boolean = boolean,
  D extends boolean = boolean,
> {
  /** The JavaScript type of its values. */
  type: T;
  /** Whether it may be NULL. */
  nullable: N;
  /** Whether the database fills it when an insert omits it. */
  hasDefault: D;
}

/**
 * Column shapes by column name: one table as row inference sees it.
 *
 * @example A table of two columns
 * ```ts
 * import type { ColumnShape, TableShape } from "@app/fragment-cli/schema";
 *
 * const notes: TableShape = {
 *   id: { type: "n1", nullable: false, hasDefault: true } satisfies ColumnShape<string>,
 *   body: { type: "hello", nullable: false, hasDefault: false },
 * };
 * ```
 */
export type TableShape = Record<string, ColumnShape>;

/**
 * Table shapes by table name: what a {@linkcode Schema} and a {@linkcode SchemaBuilder} carry in
 * their type parameter, and what helpers that add tables to a schema constrain it to.
 *
 * @example A helper that adds a table to any schema being defined
 * ```ts
 * import { column, defineSchema, type SchemaBuilder, type TablesShape } from "@app/fragment-cli/schema";
 *
 * function withAuditLog<Tables extends TablesShape>(s: SchemaBuilder<Tables>) {
 *   return s.createTable("audit_log", { id: column.bigint().identity().primaryKey() });
 * }
 * const schema = defineSchema("shop", (s) =>
 *   withAuditLog(s.createTable("orders", { id: column.uuid().primaryKey() })));
 * console.log(schema.version); // 2
 * ```
 */
export type TablesShape = Record<string, TableShape>;

/**
 * Options of {@linkcode SchemaBuilder.createTable}.
 *
 * @example A composite primary key
 * ```ts
 * import { column, defineSchema, type CreateTableOptions } from "@app/fragment-cli/schema";
 *
 * const options: CreateTableOptions<"post_id" | "tag"> = { primaryKey: ["post_id", "tag"] };
 * const schema = defineSchema("blog", (s) =>
 *   s.createTable("post_tags", { post_id: column.uuid(), tag: column.text() }, options));
 * ```
 */
export interface CreateTableOptions<C extends string = string> {
  /** A composite primary key, in order (instead of `.primaryKey()` on one column). */
  primaryKey?: readonly C[];
}

/**
 * Options of {@linkcode SchemaBuilder.addIndex}.
 *
 * @example One live account per email
 * ```ts
 * import { column, defineSchema, type AddIndexOptions } from "@app/fragment-cli/schema";
 *
 * const liveEmails: AddIndexOptions = { unique: true, where: "deleted_at IS NULL" };
 * const schema = defineSchema("accounts", (s) =>
 *   s.createTable("users", {
 *     id: column.uuid().primaryKey(),
 *     email: column.text(),
 *     deleted_at: column.timestamptz().nullable(),
 *   }).addIndex("users", "users_live_email_idx", ["email"], liveEmails));
 * ```
 */
export interface AddIndexOptions {
  /** Makes it a unique index. @default {false} */
  unique?: boolean;
  /** Makes it a partial index: raw SQL written verbatim after `WHERE` (e.g. `"deleted_at IS NULL"`). */
  where?: string;
}

/**
 * Adds steps to a schema; every method adds exactly one step (one version) and returns a new
 * builder. Each step is checked when it is added; a step that could not migrate throws a
 * `TypeError` naming the schema, the step version and the table, column or index at fault.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * const schema = defineSchema("blog", (s) =>
 *   s.createTable("posts", { id: column.uuid().primaryKey().defaultRandom(), title: column.text() })
 *     .addColumn("posts", "draft", column.boolean().default(true)));
 * schema.version; // 2
 * ```
 */
export interface SchemaBuilder<Tables extends TablesShape = Record<never, never>> {
  /** The steps so far. */
  readonly steps: readonly SchemaStep[];
  /** Creates a table; exactly one primary key (a `.primaryKey()` column or `options.primaryKey`). */
  createTable<Name extends string, Cols extends Record<string, AnyColumn>>(
    table: Name,
    columns: Cols,
    options?: CreateTableOptions<keyof Cols & string>,
  ): SchemaBuilder<
    {
      [P in keyof Tables | Name]: P extends Name
        ? { [K in keyof Cols]: NonNullable<Cols[K]["_types"]> }
        : Tables[P & keyof Tables];
    }
  >;
  /** Adds a column: nullable, or with a default (a NOT NULL column without one is rejected). */
  addColumn<T extends keyof Tables & string, Name extends string, C extends AnyColumn>(
    table: T,
    column: Name,
    definition: C,
  ): SchemaBuilder<
    {
      [P in keyof Tables]: P extends T ? {
          [K in keyof Tables[P] | Name]: K extends Name ? NonNullable<C["_types"]>
            : Tables[P][K & keyof Tables[P]];
        }
        : Tables[P];
    }
  >;
  /** Drops a column that no index or foreign key uses and that is not in the primary key. */
  dropColumn<T extends keyof Tables & string, C extends keyof Tables[T] & string>(
    table: T,
    column: C,
  ): SchemaBuilder<{ [P in keyof Tables]: P extends T ? Omit<Tables[P], C> : Tables[P] }>;
  /** Renames a column (indexes and foreign keys follow it). */
  renameColumn<
    T extends keyof Tables & string,
    From extends keyof Tables[T] & string,
    To extends string,
  >(
    table: T,
    from: From,
    to: To,
  ): SchemaBuilder<
    {
      [P in keyof Tables]: P extends T ? {
          [K in Exclude<keyof Tables[P], From> | To]: K extends To ? Tables[T][From]
            : Tables[P][K & keyof Tables[P]];
        }
        : Tables[P];
    }
  >;
  /** Creates an index (unique, multi-column and partial with `options`). */
  addIndex<T extends keyof Tables & string>(
    table: T,
    name: string,
    columns: readonly (keyof Tables[T] & string)[],
    options?: AddIndexOptions,
  ): SchemaBuilder<Tables>;
  /** Drops an index created by `addIndex`. */
  dropIndex(name: string): SchemaBuilder<Tables>;
  /** Makes a nullable column NOT NULL (fails at migration time if a row holds NULL). */
  setNotNull<T extends keyof Tables & string, C extends keyof Tables[T] & string>(
    table: T,
    column: C,
  ): SchemaBuilder<
    {
      [P in keyof Tables]: P extends T ? {
          [K in keyof Tables[P]]: K extends C
            ? ColumnShape<Tables[P][K]["type"], false, Tables[P][K]["hasDefault"]>
            : Tables[P][K];
        }
        : Tables[P];
    }
  >;
  /** Makes a NOT NULL column nullable. */
  dropNotNull<T extends keyof Tables & string, C extends keyof Tables[T] & string>(
    table: T,
    column: C,
  ): SchemaBuilder<
    {
      [P in keyof Tables]: P extends T ? {
          [K in keyof Tables[P]]: K extends C
            ? ColumnShape<Tables[P][K]["type"], true, Tables[P][K]["hasDefault"]>
            : Tables[P][K];
        }
        : Tables[P];
    }
  >;
  /** Drops a table that no other table references. */
  dropTable<T extends keyof Tables & string>(table: T): SchemaBuilder<Omit<Tables, T>>;
  /**
   * Raw SQL, the escape hatch: one statement, a list, or a function of the namespace being
   * migrated. Invisible to validation, row types and the ORM outputs.
   */
  sql(body: SqlStepBody): SchemaBuilder<Tables>;
}

/**
 * A versioned database schema. `version` is its latest version (the number of steps).
 *
 * @example
 * ```ts
 * import { column, defineSchema, type Schema } from "@app/fragment-cli/schema";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * const anySchema: Schema = schema;
 * console.log(anySchema.name, anySchema.version); // notes 1
 * ```
 */
export interface Schema<Tables extends TablesShape = TablesShape> {
  /** The schema name, also the default namespace. */
  readonly name: string;
  /** The latest version: the number of steps. */
  readonly version: number;
  /** The steps, `steps[i].version === i + 1`. */
  readonly steps: readonly SchemaStep[];
  /** Type-only marker carrying the tables of the latest version; never set at runtime. */
  readonly _tables?: Tables;
}

/**
 * The tables (a {@linkcode TablesShape}) of schema `S` at its latest version: what
 * {@linkcode RowOf} reads, and the way to list a schema's table names.
 *
 * @example The table names of a schema
 * ```ts
 * import { column, defineSchema, type TablesOf } from "@app/fragment-cli/schema";
 *
 * const shop = defineSchema("shop", (s) =>
 *   s.createTable("orders", { id: column.uuid().primaryKey() })
 *     .createTable("items", { id: column.uuid().primaryKey() }));
 * const table: keyof TablesOf<typeof shop> = "items"; // "orders" | "items"
 * ```
 */
export type TablesOf<S> = S extends Schema<infer Tables> ? Tables : never;

/**
 * The type of a row of table `T` of schema `S` as read from the database.
 *
 * @example
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 * const schema = defineSchema("auth", (s) =>
 *   s.createTable("users", { id: column.uuid().primaryKey(), name: column.text().nullable() }));
 * const user: RowOf<typeof schema, "users"> = { id: crypto.randomUUID(), name: null };
 * ```
 */
export type RowOf<S extends Schema, T extends keyof TablesOf<S>> = {
  -readonly [K in keyof TablesOf<S>[T]]: TablesOf<S>[T][K] extends ColumnShape<infer V, infer N>
    ? N extends true ? V | null : V
    : never;
};

/**
 * The type of a row of table `T` of schema `S` as inserted: columns that are nullable or have a
 * database default may be omitted.
 *
 * @example
 * ```ts
 * import { column, defineSchema, type InsertRowOf } from "@app/fragment-cli/schema";
 * const schema = defineSchema("auth", (s) =>
 *   s.createTable("users", {
 *     id: column.uuid().primaryKey().defaultRandom(),
 *     email: column.text(),
 *   }));
 * const newUser: InsertRowOf<typeof schema, "users"> = { email: "a@example.com" };
 * ```
 */
export type InsertRowOf<S extends Schema, T extends keyof TablesOf<S>> =
  // Columns a row may omit (nullable, or with a database default) become optional; the
  // intersection of the two halves is merged into one object type for readable hovers.
  (
    & {
      -readonly [
        K in keyof RowOf<S, T> as TablesOf<S>[T][K] extends ColumnShape<unknown, false, false> ? K
          : never
      ]: RowOf<S, T>[K];
    }
    & {
      -readonly [
        K in keyof RowOf<S, T> as TablesOf<S>[T][K] extends ColumnShape<unknown, false, false>
          ? never
          : K
      ]?: RowOf<S, T>[K];
    }
  ) extends infer Row ? { [K in keyof Row]: Row[K] }
    : never;

function named(name: string, def: ColumnDef): ColumnDef & { name: string } {
  if (def === null || typeof def !== "object" || typeof def.type !== "string") {
    throw new TypeError(`Column "${name}" is not a column builder (use column.text() etc.)`);
  }
  return { name, ...def };
}

function makeBuilder(state: SchemaState, steps: readonly SchemaStep[]): SchemaBuilder {
  const add = (step: StepDefinition): SchemaBuilder => {
    const next = applyStep(state, step);
    return makeBuilder(next, [...steps, { ...step, version: next.version } as SchemaStep]);
  };
  return {
    steps,
    createTable: (table, columns, options = {}) =>
      add({
        kind: "createTable",
        table,
        columns: Object.entries(columns).map(([name, c]) => named(name, c.def)),
        primaryKey: [...(options.primaryKey ?? [])],
      }),
    addColumn: (table, name, definition) =>
      add({ kind: "addColumn", table, column: named(name, definition.def) }),
    dropColumn: (table, column) => add({ kind: "dropColumn", table, column }),
    renameColumn: (table, from, to) => add({ kind: "renameColumn", table, from, to }),
    addIndex: (table, name, columns, options = {}) =>
      add({
        kind: "addIndex",
        table,
        name,
        columns: [...columns],
        unique: options.unique ?? false,
        ...(options.where === undefined ? {} : { where: options.where }),
      }),
    dropIndex: (name) => add({ kind: "dropIndex", name }),
    setNotNull: (table, column) => add({ kind: "setNotNull", table, column }),
    dropNotNull: (table, column) => add({ kind: "dropNotNull", table, column }),
    dropTable: (table) => add({ kind: "dropTable", table }),
    sql: (body) => add({ kind: "sql", body }),
  } as SchemaBuilder;
}

/**
 * Defines a versioned schema: `define` adds steps to the builder it receives, one version per
 * step. Every step is checked immediately; what could not migrate throws a `TypeError` naming
 * the schema, the step and the table, column or index at fault.
 *
 * Names (schema, tables, columns, indexes) are lowercase snake_case of at most 63 bytes.
 *
 * @param name The schema name, also the default namespace (Postgres schema) of its tables.
 * @param define Adds the steps, e.g. `(s) => s.createTable(…).addIndex(…)`.
 * @returns The schema, with `name`, `version` and `steps`.
 *
 * @example An auth schema in three versions
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 * export const authSchema = defineSchema("auth", (s) =>
 *   s.createTable("users", {
 *     id: column.uuid().primaryKey().defaultRandom(),
 *     email: column.text().unique(),
 *     created_at: column.timestamptz().defaultNow(),
 *   })
 *     .createTable("sessions", {
 *       id: column.text().primaryKey(),
 *       user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
 *     })
 *     .addIndex("sessions", "sessions_user_idx", ["user_id"]));
 * type User = RowOf<typeof authSchema, "users">; // { id: string; email: string; created_at: Date }
 * authSchema.version; // 3
 * ```
 */
export function defineSchema<Tables extends TablesShape>(
  name: string,
  define: (builder: SchemaBuilder) => SchemaBuilder<Tables>,
): Schema<Tables> {
  assertName(name, "Schema name");
  const result = define(makeBuilder(emptyState(name), []));
  const steps = result?.steps;
  if (!Array.isArray(steps)) {
    throw new TypeError(`Schema "${name}": the define function must return the builder`);
  }
  if (steps.length === 0) throw new TypeError(`Schema "${name}" has no steps`);
  return Object.freeze({ name, version: steps.length, steps: Object.freeze([...steps]) });
}
