// Planning migrations without a database (docs/database.md). A program that checks what it
// shows: `deno run -A docs/examples/database_planning.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import { planMigration, renderMigrationSql } from "@app/fragment-cli/migrate";
import { authSchema } from "./database_schema.ts";

// Everything from an empty namespace to the latest version, in the default namespace "auth".
const fullPlan = planMigration(authSchema, { from: 0 });

// A second instance of the module in the same database: its own namespace.
const secondInstance = planMigration(authSchema, { from: 0, namespace: "auth_admin" });

// Only the steps a database at version 3 still needs.
const upgrade = planMigration(authSchema, { from: 3, to: authSchema.version });

// One file of SQL, e.g. for review. A caller that records versions itself (the CLI writing a
// migration file) passes its statements as `bookkeeping`; they are appended last.
const sqlFile: string = renderMigrationSql(upgrade);

// The statements of a single step (what the runner fingerprints).
const step2: readonly string[] = planMigration(authSchema, { from: 1, to: 2 }).steps[0].statements;

assert.equal(fullPlan.steps.length, 15);
assert.equal(secondInstance.steps[0].statements[0], 'CREATE SCHEMA IF NOT EXISTS "auth_admin"');
assert.deepEqual(upgrade.steps.map((step) => step.version), [
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
]);
assert.match(sqlFile, /-- Step 15: sql\nCOMMENT ON TABLE "auth"."users"/);
assert.match(step2[0], /^CREATE TABLE "auth"."sessions"/);
