/**
 * Migrations: plan a schema's steps between two versions, render them as SQL files, apply them
 * under a lock with a history table, report status, and write the Drizzle and Prisma outputs.
 *
 * @example Plan a schema's migration and print its SQL
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration, renderMigrationSql } from "@app/fragment-cli/migrate";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey().defaultRandom() }));
 * console.log(renderMigrationSql(planMigration(schema, { from: 0, to: schema.version })));
 * ```
 *
 * @module
 */

export {
  type MigrationPlan,
  type MigrationPlanOptions,
  planMigration,
  type PlannableSchema,
  type PlannedStep,
  renderMigrationSql,
  type RenderMigrationSqlOptions,
} from "./migration_plan.ts";
export type { NamespacedSchema } from "./orm_model.ts";
export { drizzleSchemaFile } from "./drizzle_output.ts";
export { prismaSchemaFile, type PrismaSchemaFileOptions } from "./prisma_output.ts";
export {
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
