/**
 * The postgres.js adapter runs parameterized statements as prepared statements (one round trip
 * each once prepared), keeps working when a table changes under a prepared statement, and can be
 * told not to prepare (for poolers that cannot keep statements).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";

describe("postgresAdapter prepared statements", {
  skip: !enabledAdapters().includes("postgres"),
}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  /** The statements prepared on the pool's only connection. */
  async function preparedOnConnection(db: ReturnType<typeof postgresAdapter>) {
    const rows = await db.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements",
    );
    return rows.map((row) => row.statement);
  }

  it("prepares a parameterized statement once and reuses it", async () => {
    const db = postgresAdapter(database.url, { max: 1 });
    try {
      const text = "SELECT $1::int4 + 1 AS n /* prepared-reuse */";
      assert.deepEqual(await db.query(text, [1]), [{ n: 2 }]);
      assert.deepEqual(await db.query(text, [41]), [{ n: 42 }]);
      const statements = (await preparedOnConnection(db)).filter((s) =>
        s.includes("prepared-reuse")
      );
      assert.equal(statements.length, 1);
    } finally {
      await db.close();
    }
  });

  it("a prepared statement follows a table that changed after it was prepared", async () => {
    const db = postgresAdapter(database.url, { max: 1 });
    try {
      await db.query("CREATE TABLE changing (id int4 PRIMARY KEY)");
      await db.query("INSERT INTO changing VALUES (1)");
      const text = "SELECT * FROM changing WHERE id = $1";
      assert.deepEqual(await db.query(text, [1]), [{ id: 1 }]);
      await db.query("ALTER TABLE changing ADD COLUMN label text NOT NULL DEFAULT 'new'");
      assert.deepEqual(await db.query(text, [1]), [{ id: 1, label: "new" }]);
    } finally {
      await db.close();
    }
  });

  it("prepare: false prepares nothing and binds the same values", async () => {
    const db = postgresAdapter(database.url, { max: 1, prepare: false });
    try {
      const text = "SELECT $1::text || '!' AS s /* unprepared */";
      assert.deepEqual(await db.query(text, ["hi"]), [{ s: "hi!" }]);
      assert.deepEqual(await db.query(text, ["yo"]), [{ s: "yo!" }]);
      // (postgres.js prepares its own type lookup at connect; none of ours is there.)
      const ours = (await preparedOnConnection(db)).filter((s) => s.includes("unprepared"));
      assert.deepEqual(ours, []);
    } finally {
      await db.close();
    }
  });
});
