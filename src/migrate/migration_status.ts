/**
 * Read-only migration status per namespace: what `fragment-cli db info` shows.
 *
 * @module
 */

import type { SqlAdapter } from "../sql/adapter.ts";
import { findDrift, readVersion, storeExists } from "./migration_store.ts";
import { describeStep, type PlannableSchema, resolveNamespace } from "./migration_plan.ts";
import type { StepSummary } from "./migration_runner.ts";
import type { NamespacedSchema } from "./orm_model.ts";

/**
 * The migration state of one namespace.
 *
 * @example Refuse to start with pending steps
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrationStatus, type NamespaceStatus } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() })
 *     .addColumn("notes", "body", column.text().nullable()));
 * const db = pgliteAdapter();
 * const [status]: NamespaceStatus[] = await migrationStatus(db, [notes]);
 * if (status.status === "pending") console.log(`${status.pendingSteps.length} steps to apply`); // 2 steps
 * await db.close();
 * ```
 */
export interface NamespaceStatus {
  /** The namespace (Postgres schema). */
  namespace: string;
  /** The schema's name. */
  schema: string;
  /** The latest version in the code. */
  codeVersion: number;
  /** The version recorded in the database (0 when never migrated). */
  databaseVersion: number;
  /** The steps `migrate()` would apply (empty when ahead or drifting). */
  pendingSteps: StepSummary[];
  /** The first applied step edited since it was applied, or null. */
  drift: number | null;
  /**
   * `up-to-date`, `pending` (steps to apply), `ahead` (database newer than the
   * code) or `drift` (an applied step was edited).
   */
  status: "up-to-date" | "pending" | "ahead" | "drift";
}

/**
 * Reports, per namespace, the code's and the database's versions, the pending
 * steps and any drift. Reads only: it creates nothing and takes no lock.
 *
 * @param database The database (read on its `direct` adapter when it has one).
 * @param schemas The schemas (or `{ schema, namespace }` pairs) to report on.
 * @returns One status per entry, in order.
 *
 * @example The state of two instances of one schema
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate, migrationStatus } from "@app/fragment-cli/migrate";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * const db = pgliteAdapter();
 * await migrate(db, notes);
 * for (const s of await migrationStatus(db, [notes, { schema: notes, namespace: "notes2" }])) {
 *   console.log(s.namespace, s.databaseVersion, "→", s.codeVersion, s.status);
 * } // notes 1 → 1 up-to-date, then notes2 0 → 1 pending
 * await db.close();
 * ```
 */
export async function migrationStatus(
  database: SqlAdapter,
  schemas: readonly (PlannableSchema | NamespacedSchema)[],
): Promise<NamespaceStatus[]> {
  // Read where migrate() writes: on the direct adapter when there is one.
  const adapter = database.direct ?? database;
  const exists = await storeExists(adapter);
  const result: NamespaceStatus[] = [];
  for (const entry of schemas) {
    const { schema, namespace: override } = "schema" in entry ? entry : { schema: entry };
    const namespace = resolveNamespace(schema, override);
    const databaseVersion = exists ? await readVersion(adapter, namespace) : 0;
    const drift = exists ? await findDrift(adapter, schema, namespace, databaseVersion) : null;
    const ahead = databaseVersion > schema.version;
    const pendingSteps: StepSummary[] = [];
    if (!ahead && drift === null) {
      for (let version = databaseVersion + 1; version <= schema.version; version++) {
        pendingSteps.push({ version, description: describeStep(schema.steps[version - 1]) });
      }
    }
    result.push({
      namespace,
      schema: schema.name,
      codeVersion: schema.version,
      databaseVersion,
      pendingSteps,
      drift,
      status: ahead
        ? "ahead"
        : drift !== null
        ? "drift"
        : pendingSteps.length > 0
        ? "pending"
        : "up-to-date",
    });
  }
  return result;
}
