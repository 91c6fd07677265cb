// Runs the code examples of docs/adapters.md; importing them also makes `deno test` type-check them.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pgliteAdapter } from "../../src/db/pglite_adapter.ts";
import type { SqlAdapter } from "../../src/db/adapter.ts";
import { MigrationConflictError } from "../../src/db/migration_errors.ts";
import { usage } from "../../docs/examples/adapters_usage.ts";
import { inMemory, server } from "../../docs/examples/adapters_choose.ts";
import { describeFailure, migrateNotes } from "../../docs/examples/adapters_migrate.ts";
import { listMembers } from "../../docs/examples/adapters_pagination.ts";

describe("docs/examples (adapters)", () => {
  let db: SqlAdapter;
  before(() => {
    db = pgliteAdapter();
  });
  after(() => db.close());

  it("adapters_usage.ts runs", { timeout: 120_000 }, async () => {
    assert.deepEqual(await usage(db), [
      "9007199254740993 10.50 dark",
      "duplicate email",
      "balance changed",
    ]);
  });

  it("adapters_choose.ts builds adapters lazily", async () => {
    const a = inMemory();
    const b = server("postgres://user:secret@127.0.0.1:5432/app");
    assert.equal(a.kind, "pglite");
    assert.equal(b.kind, "postgres");
    assert.equal(b.target.includes("secret"), false);
    await a.close();
    await b.close();
  });

  it("adapters_migrate.ts migrates and reports", async () => {
    assert.deepEqual(await migrateNotes(db), [
      "notes: 0 → 2 (applied)",
      "notes: up-to-date",
      "notes: db 2, code 2, up-to-date",
      "notes_archive: db 1, code 2, pending",
    ]);
    assert.match(describeFailure(new MigrationConflictError("notes", 1, 2)), /^conflict: /);
  });

  it("adapters_pagination.ts pages through members", async () => {
    const SECRET = "a deployment secret of 32+ chars";
    await db.query(
      `CREATE TABLE member (id text PRIMARY KEY, organization_id text NOT NULL, email text NOT NULL,
       joined_at timestamptz NOT NULL)`,
    );
    await db.query(
      `INSERT INTO member SELECT 'm' || g, 'org', 'm' || g || '@x', TIMESTAMPTZ '2024-01-01'
       FROM generate_series(1, 25) g`,
    );
    const first = await listMembers(db, "org", new URLSearchParams(), SECRET);
    assert.equal(first.items.length, 20);
    const second = await listMembers(
      db,
      "org",
      new URLSearchParams({ cursor: first.cursor! }),
      SECRET,
    );
    assert.equal(second.items.length, 5);
    assert.equal(second.hasNextPage, false);
    await assert.rejects(
      listMembers(db, "other-org", new URLSearchParams({ cursor: first.cursor! }), SECRET),
      { name: "InvalidCursorError", status: 400 },
    );
  });
});
