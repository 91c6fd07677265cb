/**
 * The database layer of fragment-cli: versioned schemas, migration planning, identifier quoting
 * and the Drizzle/Prisma schema outputs.
 *
 * @example Define a schema and plan its migration
 * ```ts
 * import { column, defineSchema, planMigration, renderMigrationSql } from "./mod.ts";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", {
 *     id: column.uuid().primaryKey().defaultRandom(),
 *     body: column.text(),
 *   }));
 * const plan = planMigration(schema, { from: 0, to: schema.version });
 * console.log(renderMigrationSql(plan));
 * ```
 *
 * @module
 */

export { quoteIdent, quoteLiteral, quoteQualified } from "./sql_identifier.ts";
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
  StepKind,
} from "./schema_step.ts";
export {
  type ColumnState,
  type IndexState,
  type SchemaState,
  schemaState,
  type TableState,
} from "./schema_state.ts";
export {
  type AddIndexOptions,
  type ColumnNameIn,
  type ColumnShape,
  type ColumnShapeOf,
  type ColumnShapesOf,
  type ColumnValue,
  type CreateTableOptions,
  defineSchema,
  type Flatten,
  type InsertRowOf,
  type IsOptionalColumn,
  type RowOf,
  type Schema,
  type SchemaBuilder,
  type TableNameIn,
  type TableNameOf,
  type TableShape,
  type TablesOf,
  type TablesShape,
  type WithKey,
  type WithNullability,
} from "./schema.ts";
export {
  describeStep,
  type MigrationPlan,
  type MigrationPlanOptions,
  planMigration,
  type PlannableSchema,
  type PlannedStep,
  renderMigrationSql,
  type RenderMigrationSqlOptions,
  resolveNamespace,
  stepStatements,
} from "./migration_plan.ts";
export {
  camelCase,
  type NamespacedSchema,
  type OrmNamespace,
  ormNamespaces,
  type OrmRelation,
  pascalCase,
} from "./orm_model.ts";
export { drizzleSchemaFile } from "./drizzle_output.ts";
export { prismaSchemaFile, type PrismaSchemaFileOptions } from "./prisma_output.ts";
export type { SqlAdapter, SqlAdapterStats, SqlQuerier, SqlTransaction } from "./adapter.ts";
export {
  DatabaseUnavailableError,
  DataDirectoryLockedError,
  SqlError,
  type SqlErrorDetails,
  TransactionMisuseError,
} from "./adapter_errors.ts";
export { pgliteAdapter, type PgliteAdapterOptions } from "./pglite_adapter.ts";
export { postgresAdapter, type PostgresAdapterOptions } from "./postgres_adapter.ts";
export { databaseFromEnv, DEFAULT_PGLITE_DIR } from "./database_from_env.ts";
export {
  HOOK_ERROR_LOG_LENGTH,
  HOOK_TABLE,
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
  ListHookOptions,
  RequeueOptions,
} from "./hook_types.ts";
export {
  DEFAULT_PAGE_SIZE,
  InvalidCursorError,
  type KeysetColumn,
  type KeysetColumnType,
  type KeysetOptions,
  keysetPage,
  type KeysetQuery,
  keysetQuery,
  type KeysetState,
  MAX_PAGE_SIZE,
  type Page,
  PaginationError,
  parsePageSize,
} from "./cursor.ts";
export {
  INTERNAL_NAMESPACE,
  migrate,
  type MigrateOptions,
  type MigrateResult,
  type StepSummary,
} from "./migration_runner.ts";
export { migrationStatus, type NamespaceStatus } from "./migration_status.ts";
export {
  DatabaseAheadError,
  MigrationConflictError,
  MigrationStepError,
  MigrationTargetError,
  SchemaDriftError,
} from "./migration_errors.ts";
export { type MigrationFileOptions, renderMigrationFile } from "./migration_file.ts";
