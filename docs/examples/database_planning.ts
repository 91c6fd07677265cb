// Planning migrations without a database. Type-checked and run by tests/db/docs_examples.test.ts.
import { planMigration, renderMigrationSql, stepStatements } from "../../src/db/mod.ts";
import { authSchema } from "./database_schema.ts";

// Everything from an empty namespace to the latest version, in the default namespace "auth".
export const fullPlan = planMigration(authSchema, { from: 0 });

// A second instance of the module in the same database: its own namespace.
export const secondInstance = planMigration(authSchema, { from: 0, namespace: "auth_admin" });

// Only the steps a database at version 3 still needs.
export const upgrade = planMigration(authSchema, { from: 3, to: authSchema.version });

// One file of SQL, e.g. for review. A caller that records versions itself (the CLI writing a
// migration file) passes its statements as `bookkeeping`; they are appended last.
export const sqlFile: string = renderMigrationSql(upgrade);

// The statements of a single step (what the runner fingerprints).
export const step2: string[] = stepStatements(authSchema, 2, "auth");
