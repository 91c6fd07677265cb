/**
 * The migration runner: applies a schema's pending steps to one namespace,
 * atomically, once, and refuses what would make databases diverge.
 *
 * - One transaction per run, under a Postgres advisory lock keyed by the
 *   namespace: a second runner waits, then finds nothing to do.
 * - The recorded version moves with a compare-and-set.
 * - Each applied step's SQL fingerprint (sha256) is recorded; an edited step is
 *   reported as drift instead of silently diverging.
 * - The bookkeeping lives in the internal namespace `fragment_internal`.
 *
 * @module
 */

import type { SqlAdapter } from "../sql/adapter.ts";
import {
  type AppliedStep,
  BOOTSTRAP_STATEMENTS,
  compareAndSetVersion,
  findDrift,
  fingerprint,
  INTERNAL_NAMESPACE,
  lockKey,
  readVersion,
  recordSteps,
  storeExists,
} from "./migration_store.ts";
import {
  DatabaseAheadError,
  MigrationConflictError,
  MigrationStepError,
  MigrationTargetError,
  SchemaDriftError,
} from "./migration_errors.ts";
import {
  describeStep,
  type PlannableSchema,
  resolveNamespace,
  stepStatements,
} from "./migration_plan.ts";

export { INTERNAL_NAMESPACE };

/**
 * Options of {@link migrate}.
 *
 * @example Migrate to a given version in a given namespace
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate, type MigrateOptions } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const db = pgliteAdapter();
 * // Only version 1, in a namespace of its own, and only if nothing ran there before.
 * const options: MigrateOptions = { namespace: "notes_test", to: 1, expectedFrom: 0 };
 * await migrate(db, notes, options);
 * await db.close();
 * ```
 */
export interface MigrateOptions {
  /**
   * The Postgres schema holding the tables.
   * @default the schema's name
   */
  namespace?: string;
  /**
   * The version to migrate to; lower than the database's version is an error
   * (there are no down migrations).
   * @default the schema's latest version
   */
  to?: number;
  /**
   * The version the caller believes the database is at (e.g. from a reviewed
   * SQL file); a different version fails with `MigrationConflictError`.
   */
  expectedFrom?: number;
}

/**
 * A step, by version and description.
 *
 * @example Log the steps a run applied
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate, type StepSummary } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const db = pgliteAdapter();
 * const applied: StepSummary[] = (await migrate(db, notes)).applied;
 * for (const step of applied) console.log(step.version, step.description);
 * await db.close();
 * ```
 */
export interface StepSummary {
  /** The step's version. */
  version: number;
  /** A one-line description, e.g. `createTable "users"`. */
  description: string;
}

/**
 * What {@link migrate} did.
 *
 * @example Report a run
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate, type MigrateResult } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const db = pgliteAdapter();
 * const result: MigrateResult = await migrate(db, notes);
 * console.log(result.status, result.from, result.to); // applied 0 2
 * await db.close();
 * ```
 */
export interface MigrateResult {
  /** The schema's name. */
  schema: string;
  /** The namespace migrated. */
  namespace: string;
  /** The version before the run. */
  from: number;
  /** The version after the run. */
  to: number;
  /** The steps applied, in order; empty when already up to date. */
  applied: StepSummary[];
  /** `"applied"` when steps ran, `"up-to-date"` when there was nothing to do. */
  status: "applied" | "up-to-date";
}

/**
 * Applies the steps of `schema` between the database's version and `to` to one
 * namespace, in one transaction under an advisory lock keyed by the namespace.
 * Running it again changes nothing and reports `status: "up-to-date"`.
 *
 * @param database The database (its `direct` adapter when it has one: behind a connection pooler,
 *   migrations run on the server itself).
 * @param schema The schema (from `defineSchema`).
 * @param options Namespace, target version, expected starting version.
 * @returns What was applied.
 * @throws {MigrationConflictError} `expectedFrom` differs from the database's version.
 * @throws {DatabaseAheadError} The database is newer than the code.
 * @throws {SchemaDriftError} An applied step was edited since (names the step).
 * @throws {MigrationTargetError} `to` is below the database's version or beyond the code.
 * @throws {MigrationStepError} A statement failed; everything was rolled back.
 *
 * @example Migrate the embedded database
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * const db = pgliteAdapter();
 * const result = await migrate(db, schema); // { status: "applied", from: 0, to: 1, … }
 * await migrate(db, schema); // { status: "up-to-date", … }
 * await db.close();
 * ```
 */
export async function migrate(
  database: SqlAdapter,
  schema: PlannableSchema,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  // Behind a connection pooler, the server itself when the adapter has a direct URL.
  const adapter = database.direct ?? database;
  const namespace = resolveNamespace(schema, options.namespace);
  if (namespace === INTERNAL_NAMESPACE) {
    throw new MigrationTargetError(`Namespace "${INTERNAL_NAMESPACE}" is reserved`);
  }
  const to = options.to ?? schema.version;
  if (!Number.isInteger(to) || to < 0 || to > schema.version) {
    throw new MigrationTargetError(
      `Cannot migrate "${namespace}" to version ${to}: schema "${schema.name}" has versions 0 … ${schema.version}`,
    );
  }
  await ensureStore(adapter);
  return await adapter.transaction(async (tx) => {
    await lockKey(tx, namespace);
    const from = await readVersion(tx, namespace);
    if (from > schema.version) throw new DatabaseAheadError(namespace, from, schema.version);
    if (options.expectedFrom !== undefined && options.expectedFrom !== from) {
      throw new MigrationConflictError(namespace, options.expectedFrom, from);
    }
    const drift = await findDrift(tx, schema, namespace, from);
    if (drift !== null) {
      throw new SchemaDriftError(namespace, drift, describeStep(schema.steps[drift - 1]));
    }
    if (to < from) {
      throw new MigrationTargetError(
        `Cannot migrate "${namespace}" down from version ${from} to ${to}: there are no down migrations`,
      );
    }
    const applied: StepSummary[] = [];
    const records: AppliedStep[] = [];
    for (let version = from + 1; version <= to; version++) {
      const statements = stepStatements(schema, version, namespace);
      const description = describeStep(schema.steps[version - 1]);
      for (const statement of statements) {
        try {
          await tx.query(statement);
        } catch (error) {
          throw new MigrationStepError(namespace, version, description, statement, error);
        }
      }
      records.push({ version, fingerprint: fingerprint(statements), description });
      applied.push({ version, description });
    }
    await recordSteps(tx, namespace, records);
    if (applied.length === 0) {
      return { schema: schema.name, namespace, from, to: from, applied, status: "up-to-date" };
    }
    if (!(await compareAndSetVersion(tx, namespace, schema.name, from, to))) {
      // Unreachable under the advisory lock unless the row was edited by hand.
      throw new MigrationConflictError(namespace, from, await readVersion(tx, namespace));
    }
    return { schema: schema.name, namespace, from, to, applied, status: "applied" };
  });
}

/** Creates the bookkeeping tables once, serialized by an advisory lock. */
async function ensureStore(adapter: SqlAdapter): Promise<void> {
  if (await storeExists(adapter)) return;
  await adapter.transaction(async (tx) => {
    await lockKey(tx, INTERNAL_NAMESPACE);
    for (const statement of BOOTSTRAP_STATEMENTS) await tx.query(statement);
  });
}
