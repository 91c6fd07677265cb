/**
 * The steps of a schema: one step is one version.
 *
 * @module
 */

import type { ColumnDef } from "./column.ts";

/**
 * A column of a `createTable` or `addColumn` step: its name and its definition.
 *
 * @example The columns of a `createTable` step
 * ```ts
 * import { column, defineSchema, type NamedColumnDef } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey(), body: column.text() }));
 * const step = schema.steps[0];
 * const columns: readonly NamedColumnDef[] = step.kind === "createTable" ? step.columns : [];
 * console.log(columns.map((c) => `${c.name} ${c.type}`)); // ["id uuid", "body text"]
 * ```
 */
export interface NamedColumnDef extends ColumnDef {
  /** The column name. */
  readonly name: string;
}

/**
 * What a raw SQL step's function receives to write statements for the planned namespace.
 *
 * @example Raw SQL that follows the namespace
 * ```ts
 * import { column, defineSchema, type SqlStepContext } from "@app/fragment-cli/schema";
 *
 * // Written for whichever namespace the schema is migrated into.
 * const comment = (ctx: SqlStepContext) => `COMMENT ON TABLE ${ctx.qualify("notes")} IS 'Notes'`;
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }).sql(comment));
 * ```
 */
export interface SqlStepContext {
  /** The namespace (Postgres schema) being migrated, unquoted. */
  readonly namespace: string;
  /** Quotes a table (or index) name qualified with the namespace: `"<ns>"."<name>"`. */
  qualify(name: string): string;
  /** Quotes one identifier. */
  quote(name: string): string;
}

/**
 * The SQL of a raw step: statements, or a function of the planning context returning them.
 *
 * @example Two statements that depend on the namespace
 * ```ts
 * import { column, defineSchema, type SqlStepBody } from "@app/fragment-cli/schema";
 *
 * const backfill: SqlStepBody = (ctx) => [
 *   `UPDATE ${ctx.qualify("notes")} SET title = '' WHERE title IS NULL`,
 *   `ALTER TABLE ${ctx.qualify("notes")} ALTER COLUMN title SET NOT NULL`,
 * ];
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey(), title: column.text().nullable() })
 *     .sql(backfill));
 * ```
 */
export type SqlStepBody =
  | string
  | readonly string[]
  | ((context: SqlStepContext) => string | readonly string[]);

/**
 * Creates a table.
 *
 * @example The `createTable` step of a schema
 * ```ts
 * import { column, defineSchema, type CreateTableStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * const step = schema.steps[0];
 * if (step.kind === "createTable") {
 *   const createTable: CreateTableStep = step;
 *   console.log(createTable.table, createTable.columns.map((c) => c.name)); // notes ["id"]
 * }
 * ```
 */
export interface CreateTableStep {
  /** The step kind. */
  readonly kind: "createTable";
  /** The table. */
  readonly table: string;
  /** The columns, in declaration order. */
  readonly columns: readonly NamedColumnDef[];
  /** The primary key columns (one or more). */
  readonly primaryKey: readonly string[];
}

/**
 * Adds a column to an existing table.
 *
 * @example The `addColumn` step of a schema
 * ```ts
 * import { column, defineSchema, type AddColumnStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const step = schema.steps[1];
 * if (step.kind === "addColumn") {
 *   const addColumn: AddColumnStep = step;
 *   console.log(addColumn.column.name, addColumn.column.nullable); // body true
 * }
 * ```
 */
export interface AddColumnStep {
  /** The step kind. */
  readonly kind: "addColumn";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: NamedColumnDef;
}

/**
 * Drops a column.
 *
 * @example The `dropColumn` step of a schema
 * ```ts
 * import { column, defineSchema, type DropColumnStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable())
 *     .dropColumn("notes", "body"));
 * const step = schema.steps[2];
 * if (step.kind === "dropColumn") {
 *   const dropColumn: DropColumnStep = step;
 *   console.log(dropColumn.table, dropColumn.column); // notes body
 * }
 * ```
 */
export interface DropColumnStep {
  /** The step kind. */
  readonly kind: "dropColumn";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/**
 * Renames a column.
 *
 * @example The `renameColumn` step of a schema
 * ```ts
 * import { column, defineSchema, type RenameColumnStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable())
 *     .renameColumn("notes", "body", "text"));
 * const step = schema.steps[2];
 * if (step.kind === "renameColumn") {
 *   const renameColumn: RenameColumnStep = step;
 *   console.log(renameColumn.from, renameColumn.to); // body text
 * }
 * ```
 */
export interface RenameColumnStep {
  /** The step kind. */
  readonly kind: "renameColumn";
  /** The table. */
  readonly table: string;
  /** The column's name before the step. */
  readonly from: string;
  /** The column's name after the step. */
  readonly to: string;
}

/**
 * Creates an index.
 *
 * @example The `addIndex` step of a schema
 * ```ts
 * import { column, defineSchema, type AddIndexStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable())
 *     .addIndex("notes", "notes_body_idx", ["body"], { where: "body IS NOT NULL" }));
 * const step = schema.steps[2];
 * if (step.kind === "addIndex") {
 *   const addIndex: AddIndexStep = step;
 *   console.log(addIndex.name, addIndex.columns, addIndex.unique); // notes_body_idx ["body"] false
 * }
 * ```
 */
export interface AddIndexStep {
  /** The step kind. */
  readonly kind: "addIndex";
  /** The table. */
  readonly table: string;
  /** The name. */
  readonly name: string;
  /** The columns, in order. */
  readonly columns: readonly string[];
  /** Whether it is unique. */
  readonly unique: boolean;
  /** The predicate of a partial index, raw SQL written verbatim after `WHERE`. */
  readonly where?: string;
}

/**
 * Drops an index created by `addIndex`.
 *
 * @example The `dropIndex` step of a schema
 * ```ts
 * import { column, defineSchema, type DropIndexStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addIndex("notes", "notes_id_idx", ["id"])
 *     .dropIndex("notes_id_idx"));
 * const step = schema.steps[2];
 * if (step.kind === "dropIndex") {
 *   const dropIndex: DropIndexStep = step;
 *   console.log(dropIndex.name); // notes_id_idx
 * }
 * ```
 */
export interface DropIndexStep {
  /** The step kind. */
  readonly kind: "dropIndex";
  /** The name. */
  readonly name: string;
}

/**
 * Makes a nullable column NOT NULL.
 *
 * @example The `setNotNull` step of a schema
 * ```ts
 * import { column, defineSchema, type SetNotNullStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable())
 *     .setNotNull("notes", "body"));
 * const step = schema.steps[2];
 * if (step.kind === "setNotNull") {
 *   const setNotNull: SetNotNullStep = step;
 *   console.log(setNotNull.table, setNotNull.column); // notes body
 * }
 * ```
 */
export interface SetNotNullStep {
  /** The step kind. */
  readonly kind: "setNotNull";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/**
 * Makes a NOT NULL column nullable.
 *
 * @example The `dropNotNull` step of a schema
 * ```ts
 * import { column, defineSchema, type DropNotNullStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().default(""))
 *     .dropNotNull("notes", "body"));
 * const step = schema.steps[2];
 * if (step.kind === "dropNotNull") {
 *   const dropNotNull: DropNotNullStep = step;
 *   console.log(dropNotNull.table, dropNotNull.column); // notes body
 * }
 * ```
 */
export interface DropNotNullStep {
  /** The step kind. */
  readonly kind: "dropNotNull";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/**
 * Drops a table.
 *
 * @example The `dropTable` step of a schema
 * ```ts
 * import { column, defineSchema, type DropTableStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .createTable("drafts", { id: column.uuid().primaryKey() })
 *     .dropTable("drafts"));
 * const step = schema.steps[2];
 * if (step.kind === "dropTable") {
 *   const dropTable: DropTableStep = step;
 *   console.log(dropTable.table); // drafts
 * }
 * ```
 */
export interface DropTableStep {
  /** The step kind. */
  readonly kind: "dropTable";
  /** The table. */
  readonly table: string;
}

/**
 * Runs raw SQL statements: an escape hatch invisible to validation, row types and ORM outputs.
 *
 * @example The `sql` step of a schema
 * ```ts
 * import { column, defineSchema, type SqlStep } from "@app/fragment-cli/schema";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .sql((ctx) => `COMMENT ON TABLE ${ctx.qualify("notes")} IS 'notes'`));
 * const step = schema.steps[1];
 * if (step.kind === "sql") {
 *   const sql: SqlStep = step;
 *   console.log(typeof sql.body); // function
 * }
 * ```
 */
export interface SqlStep {
  /** The step kind. */
  readonly kind: "sql";
  /** The raw SQL. */
  readonly body: SqlStepBody;
}

/**
 * One step of a schema, without its version.
 *
 * @example Describe a step of any kind
 * ```ts
 * import { column, defineSchema, type StepDefinition } from "@app/fragment-cli/schema";
 *
 * function describe(step: StepDefinition): string {
 *   return "table" in step ? `${step.kind} on ${step.table}` : step.kind;
 * }
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * console.log(schema.steps.map(describe)); // ["createTable on notes"]
 * ```
 */
export type StepDefinition =
  | CreateTableStep
  | AddColumnStep
  | DropColumnStep
  | RenameColumnStep
  | AddIndexStep
  | DropIndexStep
  | SetNotNullStep
  | DropNotNullStep
  | DropTableStep
  | SqlStep;

/**
 * One step of a schema with its version (1 for the first step, 2 for the second, …).
 *
 * @example Listing the steps of a schema
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.bigint().identity().primaryKey() }));
 * for (const step of schema.steps) console.log(step.version, step.kind); // 1 createTable
 * ```
 */
export type SchemaStep = StepDefinition & { readonly version: number };
