/**
 * Migration planning: the PostgreSQL statements that move a namespace from one schema version to
 * another. Pure and deterministic (byte for byte); needs no database connection.
 *
 * @module
 */

import { sqlColumn, sqlReferences } from "../schema/column_sql.ts";
import type { SchemaStep, SqlStepContext, StepDefinition } from "../schema/schema_step.ts";
import { assertName, constraintName } from "../schema/schema_state.ts";
import { quoteIdent, quoteQualified } from "../sql/sql_identifier.ts";

/**
 * What planning needs of a schema: its name and steps (a {@linkcode Schema} fits).
 *
 * @example A schema passed where planning only needs its steps
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration, type PlannableSchema } from "@app/fragment-cli/migrate";
 *
 * const notes: PlannableSchema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * console.log(planMigration(notes, { from: 0 }).to); // 1
 * ```
 */
export interface PlannableSchema {
  /** The name. */
  readonly name: string;
  /** The version. */
  readonly version: number;
  /** The steps, in version order. */
  readonly steps: readonly SchemaStep[];
}

/**
 * Options of {@linkcode planMigration}.
 *
 * @example The upgrade of a second instance
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { type MigrationPlanOptions, planMigration } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * // A database at version 1, in a second instance's namespace.
 * const options: MigrationPlanOptions = { namespace: "notes_archive", from: 1 };
 * console.log(planMigration(notes, options).steps.length); // 1
 * ```
 */
export interface MigrationPlanOptions {
  /** The Postgres schema holding the tables. @default {schema.name} */
  namespace?: string;
  /** The version the database is at (0 for an empty namespace). */
  from: number;
  /** The version to migrate to. @default {schema.version} */
  to?: number;
}

/**
 * The statements of one step.
 *
 * @example Review each step of a plan
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration, type PlannedStep } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const [step]: readonly PlannedStep[] = planMigration(notes, { from: 1 }).steps;
 * console.log(step.version, step.description); // 2 addColumn "notes"."body"
 * console.log(step.statements); // ['ALTER TABLE "notes"."notes" ADD COLUMN "body" text']
 * ```
 */
export interface PlannedStep {
  /** The step's version: applying it moves the namespace to this version. */
  readonly version: number;
  /** The step's kind, e.g. `createTable`. */
  readonly kind: SchemaStep["kind"];
  /** A one-line description, e.g. `createTable "users"`. */
  readonly description: string;
  /** The statements, without trailing semicolons, in order. */
  readonly statements: readonly string[];
}

/**
 * A planned migration of one namespace from version `from` to version `to`.
 *
 * @example A plan from an empty namespace
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { type MigrationPlan, planMigration } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const plan: MigrationPlan = planMigration(notes, { from: 0 });
 * console.log(plan.namespace, plan.from, plan.to, plan.steps.length); // notes 0 2 2
 * ```
 */
export interface MigrationPlan {
  /** The schema name. */
  readonly schema: string;
  /** The namespace (Postgres schema) being migrated. */
  readonly namespace: string;
  /** The version the namespace starts from. */
  readonly from: number;
  /** The version the namespace ends at. */
  readonly to: number;
  /** One entry per step, versions `from + 1` … `to`. */
  readonly steps: readonly PlannedStep[];
}

/**
 * The namespace a schema's tables live in: `namespace` when given, otherwise the schema name.
 * Throws a `TypeError` if it is not lowercase snake_case of at most 63 bytes.
 *
 * @param schema The schema.
 * @param namespace The override, if any.
 * @returns The namespace.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { resolveNamespace } from "./migration_plan.ts";
 * const schema = defineSchema("auth", (s) => s.createTable("t", { id: column.text().primaryKey() }));
 * resolveNamespace(schema); // "auth"
 * resolveNamespace(schema, "auth_admin"); // "auth_admin"
 * ```
 */
export function resolveNamespace(schema: { readonly name: string }, namespace?: string): string {
  const result = namespace ?? schema.name;
  assertName(result, `Schema "${schema.name}": namespace`);
  return result;
}

function normalize(statement: string): string {
  return statement.trim().replace(/;\s*$/, "").trimEnd();
}

/**
 * A one-line description of a step: its kind and what it touches.
 *
 * @param step The step.
 * @returns E.g. `addIndex "sessions_user_idx" on "sessions"`.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { describeStep } from "./migration_plan.ts";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * describeStep(schema.steps[0]); // 'createTable "notes"'
 * ```
 */
export function describeStep(step: StepDefinition): string {
  switch (step.kind) {
    case "createTable":
    case "dropTable":
      return `${step.kind} "${step.table}"`;
    case "addColumn":
      return `addColumn "${step.table}"."${step.column.name}"`;
    case "dropColumn":
    case "setNotNull":
    case "dropNotNull":
      return `${step.kind} "${step.table}"."${step.column}"`;
    case "renameColumn":
      return `renameColumn "${step.table}"."${step.from}" to "${step.to}"`;
    case "addIndex":
      return `addIndex "${step.name}" on "${step.table}"`;
    case "dropIndex":
      return `dropIndex "${step.name}"`;
    case "sql":
      return "sql";
  }
}

function statementsOf(step: SchemaStep, namespace: string): string[] {
  const q = quoteIdent;
  const table = (name: string): string => quoteQualified(namespace, name);
  switch (step.kind) {
    case "createTable": {
      const lines = step.columns.map((c) => sqlColumn(c.name, c));
      const pk = constraintName.primaryKey(step.table);
      const pkColumns = step.primaryKey.length > 0
        ? step.primaryKey
        : step.columns.filter((c) => c.primaryKey).map((c) => c.name);
      lines.push(`CONSTRAINT ${q(pk)} PRIMARY KEY (${pkColumns.map(q).join(", ")})`);
      for (const c of step.columns) {
        if (c.unique) {
          lines.push(
            `CONSTRAINT ${q(constraintName.unique(step.table, c.name))} UNIQUE (${q(c.name)})`,
          );
        }
      }
      for (const c of step.columns) {
        if (c.references) {
          lines.push(
            `CONSTRAINT ${q(constraintName.foreignKey(step.table, c.name))} FOREIGN KEY ` +
              `(${q(c.name)}) ${sqlReferences(namespace, c.references)}`,
          );
        }
      }
      return [`CREATE TABLE ${table(step.table)} (\n  ${lines.join(",\n  ")}\n)`];
    }
    case "addColumn": {
      const c = step.column;
      let sql = `ALTER TABLE ${table(step.table)} ADD COLUMN ${sqlColumn(c.name, c)}`;
      if (c.unique) sql += ` CONSTRAINT ${q(constraintName.unique(step.table, c.name))} UNIQUE`;
      if (c.references) {
        sql += ` CONSTRAINT ${q(constraintName.foreignKey(step.table, c.name))} ` +
          sqlReferences(namespace, c.references);
      }
      return [sql];
    }
    case "dropColumn":
      return [`ALTER TABLE ${table(step.table)} DROP COLUMN ${q(step.column)}`];
    case "renameColumn":
      return [`ALTER TABLE ${table(step.table)} RENAME COLUMN ${q(step.from)} TO ${q(step.to)}`];
    case "addIndex": {
      const unique = step.unique ? "UNIQUE " : "";
      const where = step.where === undefined ? "" : ` WHERE ${step.where.trim()}`;
      return [
        `CREATE ${unique}INDEX ${q(step.name)} ON ${table(step.table)} ` +
        `(${step.columns.map(q).join(", ")})${where}`,
      ];
    }
    case "dropIndex":
      return [`DROP INDEX ${table(step.name)}`];
    case "setNotNull":
      return [`ALTER TABLE ${table(step.table)} ALTER COLUMN ${q(step.column)} SET NOT NULL`];
    case "dropNotNull":
      return [`ALTER TABLE ${table(step.table)} ALTER COLUMN ${q(step.column)} DROP NOT NULL`];
    case "dropTable":
      return [`DROP TABLE ${table(step.table)}`];
    case "sql": {
      const context: SqlStepContext = { namespace, qualify: table, quote: q };
      const body = typeof step.body === "function" ? step.body(context) : step.body;
      const list = typeof body === "string" ? [body] : [...body];
      const statements = list.map(normalize);
      if (statements.length === 0 || statements.some((s) => s === "")) {
        throw new TypeError(
          `Schema step ${step.version} (sql): the raw SQL produced an empty statement`,
        );
      }
      return statements;
    }
  }
}

/**
 * The statements of one step of a schema for a namespace, in order, without trailing
 * semicolons. Step 1 starts with `CREATE SCHEMA IF NOT EXISTS "<namespace>"`. The migration
 * runner fingerprints an applied step as the sha256 of these statements.
 *
 * @param schema The schema.
 * @param version The step's version (1 … `schema.version`).
 * @param namespace The Postgres schema holding the tables. @default {schema.name}
 * @returns The statements.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { stepStatements } from "./migration_plan.ts";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }).addColumn(
 *     "notes",
 *     "body",
 *     column.text().nullable(),
 *   ));
 * stepStatements(schema, 2); // ['ALTER TABLE "notes"."notes" ADD COLUMN "body" text']
 * ```
 */
export function stepStatements(
  schema: PlannableSchema,
  version: number,
  namespace?: string,
): string[] {
  const ns = resolveNamespace(schema, namespace);
  const step = schema.steps[version - 1];
  if (!Number.isInteger(version) || !step || step.version !== version) {
    throw new RangeError(
      `Schema "${schema.name}" has steps 1 … ${schema.steps.length}, not ${version}`,
    );
  }
  const statements = statementsOf(step, ns);
  return version === 1
    ? [`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(ns)}`, ...statements]
    : statements;
}

/**
 * Plans the migration of a namespace from version `from` to version `to`
 * (0 ≤ `from` < `to` ≤ `schema.version`): the statements of each step in between.
 * Version bookkeeping is not included; the migration runner records versions itself.
 *
 * @param schema The schema.
 * @param options The namespace and the versions.
 * @returns The plan.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration } from "@app/fragment-cli/migrate";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * const plan = planMigration(schema, { from: 0, namespace: "notes_b" });
 * plan.steps[0].statements[0]; // 'CREATE SCHEMA IF NOT EXISTS "notes_b"'
 * ```
 */
export function planMigration(
  schema: PlannableSchema,
  options: MigrationPlanOptions,
): MigrationPlan {
  const namespace = resolveNamespace(schema, options.namespace);
  const { from, to = schema.version } = options;
  const valid = Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from < to &&
    to <= schema.version;
  if (!valid) {
    throw new RangeError(
      `Cannot plan schema "${schema.name}" from version ${from} to ${to}: ` +
        `expected 0 ≤ from < to ≤ ${schema.version}`,
    );
  }
  const steps: PlannedStep[] = [];
  for (let version = from + 1; version <= to; version++) {
    steps.push({
      version,
      kind: schema.steps[version - 1].kind,
      description: describeStep(schema.steps[version - 1]),
      statements: stepStatements(schema, version, namespace),
    });
  }
  return { schema: schema.name, namespace, from, to, steps };
}

/**
 * Options of {@linkcode renderMigrationSql}.
 *
 * @example Append your own bookkeeping statement
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration, renderMigrationSql, type RenderMigrationSqlOptions } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const options: RenderMigrationSqlOptions = { bookkeeping: ["UPDATE app.versions SET notes = 2"] };
 * const sql = renderMigrationSql(planMigration(notes, { from: 0 }), options);
 * console.log(sql.endsWith("UPDATE app.versions SET notes = 2;\n")); // true
 * ```
 */
export interface RenderMigrationSqlOptions {
  /**
   * Statements appended after the steps (without trailing semicolons), e.g. the version
   * bookkeeping of the migration runner when a migration file is written for the CLI.
   * @default {[]}
   */
  bookkeeping?: readonly string[];
}

/**
 * Renders a plan as the text of one SQL file: a header comment, then each step's statements
 * under a comment naming the step, each statement ending with `;`, blank lines between.
 *
 * @param plan The plan from {@linkcode planMigration}.
 * @param options Extra statements to append.
 * @returns The SQL text, ending with a newline.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { planMigration, renderMigrationSql } from "@app/fragment-cli/migrate";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * const sql = renderMigrationSql(planMigration(schema, { from: 0 }));
 * sql.startsWith("-- fragment-cli migration"); // true
 * ```
 */
export function renderMigrationSql(
  plan: MigrationPlan,
  options: RenderMigrationSqlOptions = {},
): string {
  const parts = [
    `-- fragment-cli migration of schema "${plan.schema}" in namespace "${plan.namespace}": ` +
    `version ${plan.from} to ${plan.to}\n-- Generated from the schema definition; do not edit.`,
  ];
  for (const step of plan.steps) {
    const body = step.statements.map((s) => `${s};`).join("\n\n");
    parts.push(`-- Step ${step.version}: ${step.description}\n${body}`);
  }
  const bookkeeping = options.bookkeeping ?? [];
  if (bookkeeping.length > 0) {
    parts.push(
      `-- Version bookkeeping\n${bookkeeping.map((s) => `${normalize(s)};`).join("\n\n")}`,
    );
  }
  return `${parts.join("\n\n")}\n`;
}
