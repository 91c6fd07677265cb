/**
 * The schema DSL: a namespace's tables as a list of integer-versioned steps (`createTable`,
 * `addColumn`, `addIndex`, `sql`, …), the column builders, and the typed rows they describe.
 * Planning and applying the steps is `src/migrate/`'s job.
 *
 * @example A versioned schema and its row type
 * ```ts
 * import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", {
 *     id: column.uuid().primaryKey().defaultRandom(),
 *     body: column.text(),
 *   }));
 * type Note = RowOf<typeof notes, "notes">; // { id: string; body: string }
 * console.log(notes.version); // 1
 * ```
 *
 * @module
 */

export {
  type AnyColumn,
  column,
  type ColumnBuilder,
  type ColumnDef,
  type ColumnDefault,
  type ColumnFactories,
  type ColumnReference,
  type ColumnType,
  type JsonValue,
  type OnDeleteAction,
  type ReferenceOptions,
} from "./column.ts";
export type {
  AddColumnStep,
  AddIndexStep,
  CreateTableStep,
  DropColumnStep,
  DropIndexStep,
  DropNotNullStep,
  DropTableStep,
  NamedColumnDef,
  RenameColumnStep,
  SchemaStep,
  SetNotNullStep,
  SqlStep,
  SqlStepBody,
  SqlStepContext,
  StepDefinition,
} from "./schema_step.ts";
export {
  type AddIndexOptions,
  type ColumnShape,
  type CreateTableOptions,
  defineSchema,
  type InsertRowOf,
  type RowOf,
  type Schema,
  type SchemaBuilder,
  type TableShape,
  type TablesOf,
  type TablesShape,
} from "./schema.ts";
