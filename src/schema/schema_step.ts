/**
 * The steps of a schema: one step is one version.
 *
 * @module
 */

import type { ColumnDef } from "./column.ts";

/** A column of a `createTable` or `addColumn` step: its name and its definition. */
export interface NamedColumnDef extends ColumnDef {
  /** The column name. */
  readonly name: string;
}

/** What a raw SQL step's function receives to write statements for the planned namespace. */
export interface SqlStepContext {
  /** The namespace (Postgres schema) being migrated, unquoted. */
  readonly namespace: string;
  /** Quotes a table (or index) name qualified with the namespace: `"<ns>"."<name>"`. */
  qualify(name: string): string;
  /** Quotes one identifier. */
  quote(name: string): string;
}

/** The SQL of a raw step: statements, or a function of the planning context returning them. */
export type SqlStepBody =
  | string
  | readonly string[]
  | ((context: SqlStepContext) => string | readonly string[]);

/** Creates a table. */
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

/** Adds a column to an existing table. */
export interface AddColumnStep {
  /** The step kind. */
  readonly kind: "addColumn";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: NamedColumnDef;
}

/** Drops a column. */
export interface DropColumnStep {
  /** The step kind. */
  readonly kind: "dropColumn";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/** Renames a column. */
export interface RenameColumnStep {
  /** The step kind. */
  readonly kind: "renameColumn";
  /** The table. */
  readonly table: string;
  /** The version (or column name) it starts from. */
  readonly from: string;
  /** The version (or column name) it ends at. */
  readonly to: string;
}

/** Creates an index. */
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

/** Drops an index created by `addIndex`. */
export interface DropIndexStep {
  /** The step kind. */
  readonly kind: "dropIndex";
  /** The name. */
  readonly name: string;
}

/** Makes a nullable column NOT NULL. */
export interface SetNotNullStep {
  /** The step kind. */
  readonly kind: "setNotNull";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/** Makes a NOT NULL column nullable. */
export interface DropNotNullStep {
  /** The step kind. */
  readonly kind: "dropNotNull";
  /** The table. */
  readonly table: string;
  /** The column. */
  readonly column: string;
}

/** Drops a table. */
export interface DropTableStep {
  /** The step kind. */
  readonly kind: "dropTable";
  /** The table. */
  readonly table: string;
}

/** Runs raw SQL statements: an escape hatch invisible to validation, row types and ORM outputs. */
export interface SqlStep {
  /** The step kind. */
  readonly kind: "sql";
  /** The raw SQL. */
  readonly body: SqlStepBody;
}

/** One step of a schema, without its version. */
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

/** The kinds of steps. */
export type StepKind = StepDefinition["kind"];
