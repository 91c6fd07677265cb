/**
 * The PGlite adapter runs parameterized statements as named prepared statements: prepared once,
 * the same rows and errors as PGlite's unnamed `query()`, and still right when a table changes
 * under a statement, when the statements are deallocated behind its back, inside transactions, and
 * past the number it keeps.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { PREPARED_STATEMENT_LIMIT } from "../../src/sql/pglite_statements.ts";
import { SqlError } from "../../src/sql/adapter_errors.ts";
import type { SqlAdapter } from "../../src/sql/adapter.ts";

/** The statements PGlite holds prepared whose text contains `marker`. */
async function preparedWith(db: SqlAdapter, marker: string): Promise<string[]> {
  const rows = await db.query<{ statement: string }>(
    "SELECT statement FROM pg_prepared_statements",
  );
  return rows.map((row) => row.statement).filter((statement) => statement.includes(marker));
}

describe("pgliteAdapter prepared statements", () => {
  let db: SqlAdapter;
  let unprepared: SqlAdapter;
  before(async () => {
    db = pgliteAdapter();
    unprepared = pgliteAdapter({ prepare: false });
    for (const each of [db, unprepared]) {
      await each.query(
        `CREATE TABLE notes (id int8 PRIMARY KEY, body jsonb, at timestamptz DEFAULT now(),
           amount numeric, tags text[], done bool, code uuid, bytes bytea)`,
      );
    }
  });
  after(async () => {
    await db?.close();
    await unprepared?.close();
  });

  it("prepares a parameterized statement once and reuses it", async () => {
    const text = "SELECT $1::int4 + 1 AS n /* reuse */";
    assert.deepEqual(await db.query(text, [1]), [{ n: 2 }]);
    assert.deepEqual(await db.query(text, [41]), [{ n: 42 }]);
    assert.equal((await preparedWith(db, "reuse")).length, 1);
  });

  it("prepare: false prepares nothing", async () => {
    const text = "SELECT $1::text || '!' AS s /* unprepared */";
    assert.deepEqual(await unprepared.query(text, ["hi"]), [{ s: "hi!" }]);
    assert.deepEqual(await unprepared.query(text, ["yo"]), [{ s: "yo!" }]);
    assert.deepEqual(await preparedWith(unprepared, "unprepared"), []);
  });

  it("binds and parses every kind of value as PGlite's unnamed query does", async () => {
    const insert = `INSERT INTO notes (id, body, amount, tags, done, code, bytes, at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`;
    const values = [
      12345678901234567890n % 9223372036854775807n,
      { nested: [1, "two", null], big: 7n },
      "12.50",
      ["a", "b,c", 'd"e', null],
      true,
      "8f14e45f-ceea-467f-a0e6-4a1b2c3d4e5f",
      new Uint8Array([0, 1, 254, 255]),
      new Date("2026-11-29T10:00:00.123Z"),
    ];
    const ours = await db.query(insert, values);
    const theirs = await unprepared.query(insert, values);
    assert.deepEqual(ours, theirs);
    assert.equal(typeof (ours[0] as { id: unknown }).id, "string");
    const select = "SELECT id, body, tags, NULL::text AS nothing, amount FROM notes WHERE id = $1";
    assert.deepEqual(
      await db.query(select, [values[0]]),
      await unprepared.query(select, [values[0]]),
    );
    assert.deepEqual(await db.query(select, [-1]), []);
  });

  it("a statement without rows answers an empty list", async () => {
    assert.deepEqual(await db.query("UPDATE notes SET done = $1 WHERE id = -1", [false]), []);
    assert.deepEqual(await db.query("SELECT set_config('app.x', $1, false)", ["1"]), [
      { set_config: "1" },
    ]);
  });

  it("errors carry the SQLSTATE and the statement keeps working after them", async () => {
    const insert = "INSERT INTO notes (id) VALUES ($1) /* errors */";
    await db.query(insert, [1]);
    await assert.rejects(db.query(insert, [1]), (error: unknown) => {
      assert.ok(error instanceof SqlError);
      assert.equal(error.code, "23505");
      assert.equal(error.constraint, "notes_pkey");
      return true;
    });
    await assert.rejects(db.query(insert, ["not a number"]), { code: "22P02" });
    await assert.rejects(db.query("SELEC $1", [1]), { code: "42601" });
    await db.query(insert, [2]);
    assert.equal((await preparedWith(db, "errors")).length, 1);
  });

  it("follows a table that changed after the statement was prepared", async () => {
    await db.query("CREATE TABLE changing (id int4 PRIMARY KEY)");
    await db.query("INSERT INTO changing VALUES (1)");
    const text = "SELECT * FROM changing WHERE id = $1";
    assert.deepEqual(await db.query(text, [1]), [{ id: 1 }]);
    await db.query("ALTER TABLE changing ADD COLUMN label text NOT NULL DEFAULT 'new'");
    assert.deepEqual(await db.query(text, [1]), [{ id: 1, label: "new" }]);
  });

  it("prepares again after DEALLOCATE ALL", async () => {
    const text = "SELECT $1::int4 * 2 AS n /* deallocated */";
    assert.deepEqual(await db.query(text, [2]), [{ n: 4 }]);
    await db.query("DEALLOCATE ALL");
    assert.deepEqual(await db.query(text, [3]), [{ n: 6 }]);
  });

  it("inside a transaction, an error leaves the transaction to roll back, not retried", async () => {
    await db.query("CREATE TABLE tx_changing (id int4 PRIMARY KEY)");
    const text = "SELECT * FROM tx_changing WHERE id = $1";
    await db.query(text, [1]);
    await db.query("ALTER TABLE tx_changing ADD COLUMN label text");
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(text, [1]);
      }),
      /cached plan must not change result type/,
    );
    // Outside the transaction the statement is prepared again.
    await db.query("INSERT INTO tx_changing VALUES (1, 'x')");
    assert.deepEqual(await db.query(text, [1]), [{ id: 1, label: "x" }]);
    // A rolled-back transaction keeps no row but the statements it prepared stay usable.
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_changing VALUES ($1, 'rolled back')", [2]);
        throw new Error("abort");
      }),
      /abort/,
    );
    assert.deepEqual(await db.query(text, [2]), []);
    await db.query("INSERT INTO tx_changing VALUES ($1, 'rolled back')", [2]);
    assert.equal((await db.query(text, [2])).length, 1);
  });

  it(`keeps at most ${PREPARED_STATEMENT_LIMIT} statements, closing the least recently used`, async () => {
    const first = "SELECT $1::int4 AS n /* limit-first */";
    await db.query(first, [0]);
    for (let i = 0; i < PREPARED_STATEMENT_LIMIT + 20; i++) {
      await db.query(`SELECT $1::int4 + ${i} AS n /* limit-many */`, [i]);
    }
    const held = await db.query<{ n: number }>(
      "SELECT count(*)::int4 AS n FROM pg_prepared_statements",
    );
    assert.ok(held[0].n <= PREPARED_STATEMENT_LIMIT, `${held[0].n} statements prepared`);
    assert.deepEqual(await preparedWith(db, "limit-first"), []);
    assert.deepEqual(await db.query(first, [5]), [{ n: 5 }]);
  });
});
