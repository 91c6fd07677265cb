// Running migrations and reading their status. Run by tests/db/adapters_docs_examples.test.ts.
import {
  column,
  DatabaseAheadError,
  defineSchema,
  migrate,
  MigrationConflictError,
  migrationStatus,
  SchemaDriftError,
  type SqlAdapter,
} from "../../src/db/mod.ts";

export const notes = defineSchema("notes", (s) =>
  s
    .createTable("note", { id: column.text().primaryKey(), body: column.text() })
    .addColumn("note", "pinned", column.boolean().default(false)));

export async function migrateNotes(db: SqlAdapter): Promise<string[]> {
  const lines: string[] = [];
  // Applies versions 1 and 2 in one transaction, under an advisory lock on "notes".
  const first = await migrate(db, notes);
  lines.push(`${first.namespace}: ${first.from} → ${first.to} (${first.status})`);
  // Idempotent: nothing left to do.
  const again = await migrate(db, notes);
  lines.push(`${again.namespace}: ${again.status}`);
  // A second instance of the module, in its own namespace, only up to version 1.
  await migrate(db, notes, { namespace: "notes_archive", to: 1 });

  for (
    const s of await migrationStatus(db, [notes, { schema: notes, namespace: "notes_archive" }])
  ) {
    lines.push(`${s.namespace}: db ${s.databaseVersion}, code ${s.codeVersion}, ${s.status}`);
  }
  return lines;
}

// What a CLI prints: one line per known failure.
export function describeFailure(error: unknown): string {
  if (error instanceof MigrationConflictError) return `conflict: ${error.message}`;
  if (error instanceof SchemaDriftError) return `edited step ${error.step}: ${error.message}`;
  if (error instanceof DatabaseAheadError) return `database ahead: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
