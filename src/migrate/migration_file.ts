/**
 * SQL migration files that carry the runner's version bookkeeping, so that applying a file by
 * hand (`psql -f`) leaves the database exactly as `migrate()` would: same objects, same recorded
 * version and step fingerprints, same lock, and a refusal when the database is not at the
 * file's starting version.
 *
 * @module
 */

import {
  BOOTSTRAP_STATEMENTS,
  fingerprint,
  INTERNAL_NAMESPACE,
  LOCK_CLASS,
} from "./migration_store.ts";
import { planMigration, type PlannableSchema, renderMigrationSql } from "./migration_plan.ts";
import { quoteLiteral, quoteQualified } from "../sql/sql_identifier.ts";

/**
 * Options of {@linkcode renderMigrationFile}.
 *
 * @example The file of one upgrade step
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { type MigrationFileOptions, renderMigrationFile } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const options: MigrationFileOptions = { from: 1, to: 2 };
 * const sql = renderMigrationFile(notes, options); // for psql -v ON_ERROR_STOP=1 -f
 * ```
 */
export interface MigrationFileOptions {
  /** The Postgres schema holding the tables. @default {schema.name} */
  namespace?: string;
  /** The version the database must be at (0 for an empty namespace). */
  from: number;
  /** The version the file migrates to. @default {schema.version} */
  to?: number;
}

const VERSIONS = quoteQualified(INTERNAL_NAMESPACE, "schema_versions");
const STEPS = quoteQualified(INTERNAL_NAMESPACE, "applied_steps");

/** The runner's advisory lock of `key`, inside PL/pgSQL so that psql prints no result row. */
function lock(key: string): string {
  return `PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${quoteLiteral(key)}));`;
}

/**
 * Renders the SQL file migrating one namespace from `from` to `to`: one transaction that takes
 * the runner's advisory lock, fails (changing nothing) unless the recorded version is `from`,
 * runs the steps, then records each step's fingerprint and moves the version to `to`. Apply it
 * with `psql -v ON_ERROR_STOP=1 -f <file>`, or let `fragment-cli db migrate` do the same work.
 *
 * @param schema The schema.
 * @param options The namespace and the versions.
 * @returns The SQL text, ending with a newline.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { renderMigrationFile } from "@app/fragment-cli/migrate";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * const sql = renderMigrationFile(schema, { from: 0 });
 * sql.includes('INSERT INTO "fragment_internal"."schema_versions"'); // true
 * ```
 */
export function renderMigrationFile(
  schema: PlannableSchema,
  options: MigrationFileOptions,
): string {
  const plan = planMigration(schema, options);
  const { namespace, from, to } = plan;
  const ns = quoteLiteral(namespace);
  const guard = `DO $guard$
DECLARE recorded integer;
BEGIN
  ${lock(namespace)}
  SELECT "version" INTO recorded FROM ${VERSIONS} WHERE "namespace" = ${ns};
  IF COALESCE(recorded, 0) <> ${from} THEN
    RAISE EXCEPTION 'Namespace "%" is at version %, this file migrates it from version ${from}; nothing applied',
      ${ns}, COALESCE(recorded, 0);
  END IF;
END
$guard$`;
  const steps = plan.steps.map((step) =>
    `(${ns}, ${step.version}, ${quoteLiteral(fingerprint(step.statements))}, ` +
    `${quoteLiteral(step.description)})`
  );
  const bookkeeping = [
    `INSERT INTO ${STEPS} ("namespace", "version", "fingerprint", "description") VALUES\n  ` +
    `${steps.join(",\n  ")}\nON CONFLICT ("namespace", "version") DO UPDATE SET ` +
    `"fingerprint" = EXCLUDED."fingerprint", "description" = EXCLUDED."description", ` +
    `"applied_at" = now()`,
    `INSERT INTO ${VERSIONS} ("namespace", "schema_name", "version") ` +
    `VALUES (${ns}, ${
      quoteLiteral(schema.name)
    }, ${to})\nON CONFLICT ("namespace") DO UPDATE SET ` +
    `"version" = EXCLUDED."version", "schema_name" = EXCLUDED."schema_name", "updated_at" = now()`,
    "COMMIT",
  ];
  const prologue = [
    "BEGIN",
    `DO $lock$ BEGIN ${lock(INTERNAL_NAMESPACE)} END $lock$`,
    ...BOOTSTRAP_STATEMENTS,
    guard,
  ].map((s) => `${s};`).join("\n\n");
  const rendered = renderMigrationSql(plan, { bookkeeping });
  // After the header comment: one transaction, the runner's tables and lock, the version check.
  const headerEnd = rendered.indexOf("\n\n");
  return `${rendered.slice(0, headerEnd)}\n-- One transaction: apply with ` +
    `psql -v ON_ERROR_STOP=1 -f <file>, or with fragment-cli db migrate.\n\n` +
    `-- Runner bookkeeping and version check\n${prologue}${rendered.slice(headerEnd)}`;
}
