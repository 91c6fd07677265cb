/**
 * `db.batch()`: statements run in one transaction, sent together. All are committed or none; the
 * failing statement's own error reaches the caller; the connection goes back to the pool idle, or
 * not at all when it was lost; a statement that went stale under postgres.js's prepared-statement
 * cache is not run again outside the transaction.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { forEachAdapter } from "../helpers/databases.ts";
import {
  DatabaseUnavailableError,
  SqlError,
  TransactionMisuseError,
} from "../../src/sql/adapter_errors.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";
import type { SqlAdapter, SqlStatement } from "../../src/sql/adapter.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the adapter's statements run outside any transaction block (each in its own). */
async function outsideTransaction(db: SqlAdapter): Promise<boolean> {
  const xid = async () =>
    (await db.query<{ xid: string }>("SELECT txid_current()::text AS xid"))[0].xid;
  return await xid() !== await xid();
}

/** Waits until a backend of `db`'s database waits for a lock; its pid. */
async function lockWaiter(admin: SqlAdapter, marker: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const rows = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
      [`%${marker}%`],
    );
    if (rows.length > 0) return rows[0].pid;
    await sleep(25);
  }
  throw new Error(`no backend waits for a lock with ${marker}`);
}

forEachAdapter((name, getAdapter, getUrl) => {
  describe(`${name}: batch()`, () => {
    it("commits every statement and answers each one's rows, in order", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE b_commit (n int4 PRIMARY KEY, label text)");
      const before = db.stats;
      const [inserted, none, counted] = await db.batch<
        [{ n: number }[], unknown[], { total: number; labels: string }[]]
      >([
        {
          sql: "INSERT INTO b_commit VALUES ($1, $2), ($3, $4) RETURNING n",
          params: [1, "a", 2, "b"],
        },
        { sql: "UPDATE b_commit SET label = upper(label) WHERE n = $1", params: [2] },
        // Sees what the statements before it did: same transaction.
        {
          sql:
            "SELECT count(*)::int AS total, string_agg(label, ',' ORDER BY n) AS labels FROM b_commit",
        },
      ]);
      assert.deepEqual(inserted, [{ n: 1 }, { n: 2 }]);
      assert.deepEqual(none, []);
      assert.deepEqual(counted, [{ total: 2, labels: "a,B" }]);
      const after = db.stats;
      assert.ok(after.queries - before.queries >= 3); // PGlite counts its BEGIN and COMMIT too
      assert.equal(after.transactions - before.transactions, 1);
      assert.deepEqual(await db.query("SELECT n, label FROM b_commit ORDER BY n"), [
        { n: 1, label: "a" },
        { n: 2, label: "B" },
      ]);
    });

    it("an empty batch runs nothing", async () => {
      const db = getAdapter();
      const before = db.stats;
      assert.deepEqual(await db.batch([]), []);
      assert.deepEqual(db.stats, before);
    });

    it("a failing statement rolls every statement back and rejects with its own error", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE b_fail (n int4 PRIMARY KEY)");
      await db.query("INSERT INTO b_fail VALUES (7)");
      const insert = (n: number): SqlStatement => ({
        sql: "INSERT INTO b_fail VALUES ($1)",
        params: [n],
      });
      // The duplicate's unique violation, not the "transaction is aborted" of the statement after.
      await assert.rejects(db.batch([insert(1), insert(7), insert(3)]), (error) => {
        assert.ok(error instanceof SqlError);
        assert.equal(error.code, "23505");
        assert.equal(error.constraint, "b_fail_pkey");
        return true;
      });
      await assert.rejects(
        db.batch([insert(4), { sql: "SELECT 1 / $1::int4", params: [0] }]),
        { code: "22012" },
      );
      assert.deepEqual(await db.query("SELECT n FROM b_fail ORDER BY n"), [{ n: 7 }]);
      // The adapter works on, outside any transaction, and the same statements now commit.
      assert.equal(await outsideTransaction(db), true);
      await db.batch([insert(1), insert(3)]);
      assert.deepEqual(await db.query("SELECT n FROM b_fail ORDER BY n"), [
        { n: 1 },
        { n: 3 },
        { n: 7 },
      ]);
    });

    it("parameters that cannot be sent are refused and nothing is kept", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE b_params (n int4, doc jsonb)");
      const first: SqlStatement = { sql: "INSERT INTO b_params (n) VALUES ($1)", params: [1] };
      await assert.rejects(
        db.batch([first, { sql: "INSERT INTO b_params (n) VALUES ($1)", params: [undefined] }]),
        TypeError,
      );
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await assert.rejects(
        db.batch([first, { sql: "INSERT INTO b_params (doc) VALUES ($1)", params: [circular] }]),
        TypeError,
      );
      assert.deepEqual(await db.query("SELECT n FROM b_params"), []);
      assert.equal(await outsideTransaction(db), true);
    });

    it("inside the adapter's own transaction it throws instead of escaping it", async () => {
      const db = getAdapter();
      await assert.rejects(
        db.transaction(async () => {
          await db.batch([{ sql: "SELECT 1" }]);
        }),
        TransactionMisuseError,
      );
    });

    it("a lock taken first holds concurrent batches to a limit (lock, then count and insert)", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE b_room (id int4 PRIMARY KEY)");
      await db.query("CREATE TABLE b_seat (room int4 REFERENCES b_room, guest int4)");
      await db.query("INSERT INTO b_room VALUES (1)");
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, guest) =>
          db.batch<[unknown[], { seated: number }[]]>([
            { sql: "SELECT id FROM b_room WHERE id = $1 FOR UPDATE", params: [1] },
            {
              // Its snapshot is taken once the lock is granted: it counts every seat committed
              // by the batches that held the lock before.
              sql: `WITH seated AS (
                      INSERT INTO b_seat SELECT $1, $2
                      WHERE (SELECT count(*) FROM b_seat WHERE room = $1) < $3
                      RETURNING 1)
                    SELECT count(*)::int AS seated FROM seated`,
              params: [1, guest, 5],
            },
          ])),
      );
      assert.equal(results.filter(([, [row]]) => row.seated === 1).length, 5);
      assert.deepEqual(await db.query("SELECT count(*)::int AS n FROM b_seat"), [{ n: 5 }]);
    });

    if (name !== "postgres") return;

    it("a statement after a lock sees what the lock's previous holder committed", async () => {
      const url = getUrl()!;
      const db = postgresAdapter(url, { max: 1 });
      const holder = postgresAdapter(url, { max: 1 });
      const admin = getAdapter();
      try {
        await admin.query("CREATE TABLE b_snap_lock (id int4 PRIMARY KEY)");
        await admin.query("CREATE TABLE b_snap_rows (n int4)");
        await admin.query("INSERT INTO b_snap_lock VALUES (1)");
        let counted: Promise<[unknown[], { n: number }[]]> | undefined;
        await holder.transaction(async (tx) => {
          await tx.query("SELECT id FROM b_snap_lock WHERE id = 1 FOR UPDATE");
          await tx.query("INSERT INTO b_snap_rows VALUES (1)");
          counted = db.batch([
            {
              sql: "SELECT id FROM b_snap_lock WHERE id = $1 FOR UPDATE /* b_snap */",
              params: [1],
            },
            { sql: "SELECT count(*)::int AS n FROM b_snap_rows" },
          ]);
          await lockWaiter(admin, "b_snap");
        });
        const [, [row]] = await counted!;
        assert.equal(row.n, 1);
      } finally {
        await db.close();
        await holder.close();
      }
    });

    it("a connection lost mid-batch rejects with DatabaseUnavailableError; the pool opens another", async () => {
      const url = getUrl()!;
      // One connection: were the lost one handed back to the pool, the next query would be
      // written on its closed socket (an uncaught TypeError in postgres.js).
      const db = postgresAdapter(url, { max: 1 });
      const holder = postgresAdapter(url, { max: 1 });
      const admin = getAdapter();
      try {
        await admin.query("CREATE TABLE b_lost_lock (id int4 PRIMARY KEY)");
        await admin.query("CREATE TABLE b_lost_rows (n int4)");
        await admin.query("INSERT INTO b_lost_lock VALUES (1)");
        await holder.transaction(async (tx) => {
          await tx.query("SELECT id FROM b_lost_lock WHERE id = 1 FOR UPDATE");
          // First run on this connection: the insert waits in the connection's queue behind
          // the lock's description, and is never sent once the connection is gone.
          const batch = db.batch([
            {
              sql: "SELECT id FROM b_lost_lock WHERE id = $1 FOR UPDATE /* b_lost */",
              params: [1],
            },
            { sql: "INSERT INTO b_lost_rows VALUES ($1)", params: [1] },
          ]);
          const pid = await lockWaiter(admin, "b_lost");
          await admin.query("SELECT pg_terminate_backend($1)", [pid]);
          await assert.rejects(batch, DatabaseUnavailableError);
        });
        // postgres.js hands the lost connection's termination notice (57P01) to the first
        // statement of the connection it opens again; the statements after it run.
        await db.query("SELECT 1").catch((error) => {
          assert.ok(error instanceof DatabaseUnavailableError, String(error));
        });
        assert.deepEqual(await db.query("SELECT 1::int4 AS n"), [{ n: 1 }]);
        assert.equal(await outsideTransaction(db), true);
        await db.batch([{ sql: "INSERT INTO b_lost_rows VALUES ($1)", params: [2] }]);
        assert.deepEqual(await admin.query("SELECT n FROM b_lost_rows"), [{ n: 2 }]);
      } finally {
        await db.close();
        await holder.close();
      }
    });

    it("a prepared statement gone stale fails the batch and is not run again outside it", async () => {
      const db = postgresAdapter(getUrl()!, { max: 1 });
      try {
        await db.query("CREATE TABLE b_stale (id serial PRIMARY KEY, v int4)");
        await db.query("CREATE TABLE b_stale_other (v int4)");
        const batch = (v: number) =>
          db.batch<[Record<string, unknown>[], unknown[]]>([
            { sql: "INSERT INTO b_stale (v) VALUES ($1) RETURNING *", params: [v] },
            { sql: "INSERT INTO b_stale_other VALUES ($1)", params: [v] },
          ]);
        await batch(1); // described and prepared
        await batch(2); // run as prepared
        // Its result type changes: the prepared insert fails ("cached plan must not change
        // result type") and postgres.js runs it again, after what was already sent.
        await db.query("ALTER TABLE b_stale ADD COLUMN w int4");
        await assert.rejects(batch(3), { code: "0A000" });
        assert.deepEqual(await db.query("SELECT v FROM b_stale ORDER BY id"), [{ v: 1 }, { v: 2 }]);
        assert.deepEqual(await db.query("SELECT v FROM b_stale_other ORDER BY v"), [
          { v: 1 },
          { v: 2 },
        ]);
        assert.equal(await outsideTransaction(db), true);
        // Prepared again: the next batch commits, with the new shape.
        const [[row]] = await batch(4);
        assert.deepEqual({ v: row.v, w: row.w }, { v: 4, w: null });
      } finally {
        await db.close();
      }
    });
  });
});
