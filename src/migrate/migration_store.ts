/**
 * Internal: the migration runner's bookkeeping tables in the internal namespace
 * `fragment_internal`, and the fingerprint of a step.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { SqlQuerier } from "../sql/adapter.ts";
import { type PlannableSchema, stepStatements } from "./migration_plan.ts";
import { quoteIdent, quoteQualified } from "../sql/sql_identifier.ts";

/** The Postgres schema holding the runner's own tables. */
export const INTERNAL_NAMESPACE = "fragment_internal";

const VERSIONS = quoteQualified(INTERNAL_NAMESPACE, "schema_versions");
const STEPS = quoteQualified(INTERNAL_NAMESPACE, "applied_steps");

/** First key of every advisory lock the runner takes ("frag"), to avoid other apps' keys. */
export const LOCK_CLASS = 0x66726167;

/** The statements creating the bookkeeping tables (idempotent). */
export const BOOTSTRAP_STATEMENTS: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(INTERNAL_NAMESPACE)}`,
  `CREATE TABLE IF NOT EXISTS ${VERSIONS} (
  "namespace" text PRIMARY KEY,
  "schema_name" text NOT NULL,
  "version" integer NOT NULL CHECK ("version" >= 0),
  "updated_at" timestamptz NOT NULL DEFAULT now()
)`,
  `CREATE TABLE IF NOT EXISTS ${STEPS} (
  "namespace" text NOT NULL,
  "version" integer NOT NULL,
  "fingerprint" text NOT NULL,
  "description" text NOT NULL,
  "applied_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("namespace", "version")
)`,
];

/** sha256 (hex) of a step's planned SQL. */
export function fingerprint(statements: readonly string[]): string {
  return createHash("sha256").update(statements.join(";\n")).digest("hex");
}

/** Whether the bookkeeping tables exist. Any error other than absence propagates. */
export async function storeExists(db: SqlQuerier): Promise<boolean> {
  const [row] = await db.query<{ versions: string | null; steps: string | null }>(
    "SELECT to_regclass($1)::text AS versions, to_regclass($2)::text AS steps",
    [VERSIONS, STEPS],
  );
  return row.versions !== null && row.steps !== null;
}

/** Takes the transaction-scoped advisory lock of `key` (a namespace, or the store itself). */
export async function lockKey(tx: SqlQuerier, key: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1::int4, hashtext($2))", [LOCK_CLASS, key]);
}

/** The recorded version of `namespace`: 0 when it has no row (never on other errors). */
export async function readVersion(db: SqlQuerier, namespace: string): Promise<number> {
  const rows = await db.query<{ version: number }>(
    `SELECT "version" FROM ${VERSIONS} WHERE "namespace" = $1`,
    [namespace],
  );
  return rows.length === 0 ? 0 : rows[0].version;
}

/** The fingerprints recorded for `namespace`, by version. */
export async function readFingerprints(
  db: SqlQuerier,
  namespace: string,
): Promise<Map<number, string>> {
  const rows = await db.query<{ version: number; fingerprint: string }>(
    `SELECT "version", "fingerprint" FROM ${STEPS} WHERE "namespace" = $1`,
    [namespace],
  );
  return new Map(rows.map((r) => [r.version, r.fingerprint]));
}

/** One applied step, as recorded. */
export interface AppliedStep {
  version: number;
  fingerprint: string;
  description: string;
}

/**
 * Records the applied steps in one statement (one round trip for the whole run: on PGlite each
 * statement is a round trip through the WebAssembly boundary).
 */
export async function recordSteps(
  tx: SqlQuerier,
  namespace: string,
  steps: readonly AppliedStep[],
): Promise<void> {
  if (steps.length === 0) return;
  // One text parameter (JSON): arrays are bound differently by the two drivers, text is not.
  await tx.query(
    `INSERT INTO ${STEPS} ("namespace", "version", "fingerprint", "description")
     SELECT $1, s."version", s."fingerprint", s."description"
     FROM jsonb_to_recordset($2::text::jsonb) AS s("version" integer, "fingerprint" text, "description" text)
     ON CONFLICT ("namespace", "version") DO UPDATE
     SET "fingerprint" = EXCLUDED."fingerprint", "description" = EXCLUDED."description", "applied_at" = now()`,
    [namespace, JSON.stringify(steps)],
  );
}

/**
 * Moves the recorded version from `from` to `to` with a compare-and-set.
 * @returns false when the row was not at `from` (someone else moved it).
 */
export async function compareAndSetVersion(
  tx: SqlQuerier,
  namespace: string,
  schemaName: string,
  from: number,
  to: number,
): Promise<boolean> {
  const rows = from === 0
    ? await tx.query(
      `INSERT INTO ${VERSIONS} ("namespace", "schema_name", "version") VALUES ($1, $2, $3)
       ON CONFLICT ("namespace") DO UPDATE SET "version" = EXCLUDED."version", "updated_at" = now()
       WHERE ${VERSIONS}."version" = 0
       RETURNING "version"`,
      [namespace, schemaName, to],
    )
    : await tx.query(
      `UPDATE ${VERSIONS} SET "version" = $3, "schema_name" = $2, "updated_at" = now()
       WHERE "namespace" = $1 AND "version" = $4 RETURNING "version"`,
      [namespace, schemaName, to, from],
    );
  return rows.length === 1;
}

/**
 * The first applied step (1 … `version`) whose recorded fingerprint differs
 * from the code's SQL (or is missing), or null.
 */
export async function findDrift(
  db: SqlQuerier,
  schema: PlannableSchema,
  namespace: string,
  version: number,
): Promise<number | null> {
  if (version === 0) return null;
  const recorded = await readFingerprints(db, namespace);
  for (let step = 1; step <= Math.min(version, schema.version); step++) {
    if (recorded.get(step) !== fingerprint(stepStatements(schema, step, namespace))) return step;
  }
  return null;
}
