// Running migrations and reading their status (docs/adapters.md). A program that checks what it
// shows, on an in-memory PGlite or, when DATABASE_URL is set, on that (empty) PostgreSQL database:
// `deno run -A docs/examples/adapters_migrate.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import { column, defineSchema, migrate, pgliteAdapter, postgresAdapter } from "@app/fragment-cli";
import {
  DatabaseAheadError,
  MigrationConflictError,
  migrationStatus,
  SchemaDriftError,
} from "@app/fragment-cli/migrate";

const notes = defineSchema("notes", (s) =>
  s
    .createTable("note", { id: column.text().primaryKey(), body: column.text() })
    .addColumn("note", "pinned", column.boolean().default(false)));

const url = process.env.DATABASE_URL;
const db = url ? postgresAdapter(url) : pgliteAdapter();

// Applies versions 1 and 2 in one transaction, under an advisory lock on "notes".
const first = await migrate(db, notes);
assert.deepEqual([first.namespace, first.from, first.to, first.status], ["notes", 0, 2, "applied"]);
// Idempotent: nothing left to do.
const again = await migrate(db, notes);
assert.equal(again.status, "up-to-date");
// A second instance of the module, in its own namespace, only up to version 1.
await migrate(db, notes, { namespace: "notes_archive", to: 1 });

const statuses = await migrationStatus(db, [notes, { schema: notes, namespace: "notes_archive" }]);
assert.deepEqual(
  statuses.map((s) =>
    `${s.namespace}: db ${s.databaseVersion}, code ${s.codeVersion}, ${s.status}`
  ),
  ["notes: db 2, code 2, up-to-date", "notes_archive: db 1, code 2, pending"],
);

// What a CLI prints: one line per known failure.
function describeFailure(error: unknown): string {
  if (error instanceof MigrationConflictError) return `conflict: ${error.message}`;
  if (error instanceof SchemaDriftError) return `edited step ${error.step}: ${error.message}`;
  if (error instanceof DatabaseAheadError) return `database ahead: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

// A runner that expected the archive still at version 0 applies nothing.
const stale = await migrate(db, notes, { namespace: "notes_archive", expectedFrom: 0 })
  .then(() => "applied", describeFailure);
assert.match(stale, /^conflict: /);

for (const namespace of ["notes", "notes_archive", "fragment_internal"]) {
  await db.query(`DROP SCHEMA "${namespace}" CASCADE`);
}
await db.close();
