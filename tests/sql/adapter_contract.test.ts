import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { forEachAdapter } from "../helpers/databases.ts";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { runScript } from "../helpers/spawn_runtime.ts";
import {
  DatabaseUnavailableError,
  SqlError,
  TransactionMisuseError,
} from "../../src/sql/adapter_errors.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";
import type { SqlTransaction } from "../../src/sql/adapter.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachAdapter((name, getAdapter, getUrl) => {
  describe(`${name} adapter contract`, () => {
    it("query() maps every type identically", async () => {
      const rows = await getAdapter().query(
        `SELECT 9007199254740993::int8 AS big, 12.500::numeric AS num, 42::int4 AS i4, 7::int2 AS i2,
                1.5::float8 AS f8, true AS yes, '2024-05-06T07:08:09.123Z'::timestamptz AS at,
                '{"a":[1,"x",null]}'::jsonb AS jb, '[1,2]'::json AS js, '\\x00ff10'::bytea AS bin,
                'hé'::text AS t, 'v'::varchar(3) AS vc,
                '8e2a2c4c-5d5e-4b57-9c3a-000000000001'::uuid AS id, NULL::text AS nothing,
                ARRAY[1,2]::int8[] AS bigs`,
      );
      assert.deepEqual(rows, [{
        big: "9007199254740993",
        num: "12.500",
        i4: 42,
        i2: 7,
        f8: 1.5,
        yes: true,
        at: new Date("2024-05-06T07:08:09.123Z"),
        jb: { a: [1, "x", null] },
        js: [1, 2],
        bin: new Uint8Array([0, 255, 16]),
        t: "hé",
        vc: "v",
        id: "8e2a2c4c-5d5e-4b57-9c3a-000000000001",
        nothing: null,
        bigs: ["1", "2"],
      }]);
      const [row] = rows;
      assert.equal(Object.getPrototypeOf(row.bin), Uint8Array.prototype);
    });

    it("query() binds JavaScript parameters", async () => {
      const db = getAdapter();
      await db.query(
        `CREATE TABLE params (id int8 PRIMARY KEY, at timestamptz, bin bytea, doc jsonb, flag bool,
         label text, amount numeric)`,
      );
      const at = new Date("2020-01-02T03:04:05.678Z");
      await db.query("INSERT INTO params VALUES ($1, $2, $3, $4, $5, $6, $7)", [
        9007199254740993n,
        at,
        new Uint8Array([1, 2, 3]),
        { nested: { list: [1, "two"] }, big: 1n },
        false,
        null,
        "0.1",
      ]);
      await db.query("INSERT INTO params (id, doc) VALUES ($1, $2), ($3, $4)", [
        "2",
        [1, { a: 2 }],
        3,
        "just a string",
      ]);
      const rows = await db.query("SELECT * FROM params ORDER BY id");
      assert.deepEqual(rows, [
        { id: "2", at: null, bin: null, doc: [1, { a: 2 }], flag: null, label: null, amount: null },
        {
          id: "3",
          at: null,
          bin: null,
          doc: "just a string",
          flag: null,
          label: null,
          amount: null,
        },
        {
          id: "9007199254740993",
          at,
          bin: new Uint8Array([1, 2, 3]),
          doc: { nested: { list: [1, "two"] }, big: "1" },
          flag: false,
          label: null,
          amount: "0.1",
        },
      ]);
      const [found] = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM params WHERE at = $1 AND id = $2",
        [at, 9007199254740993n],
      );
      assert.equal(found.n, "1");
      const [text] = await db.query<{ t: string }>("SELECT $1::text AS t", [at]);
      assert.equal(text.t, "2020-01-02T03:04:05.678Z");
      // Timestamps given as text keep their microseconds.
      const [micro] = await db.query<{ t: string }>(
        "SELECT ($1::timestamptz AT TIME ZONE 'UTC')::text AS t",
        ["2024-01-01 00:00:00.123456+00"],
      );
      assert.equal(micro.t, "2024-01-01 00:00:00.123456");
    });

    it("query() reads and binds arrays identically: NULL, quoting, nesting, bounds", async () => {
      const db = getAdapter();
      const [read] = await db.query(
        `SELECT ARRAY['a', NULL, 'NULL', 'x,"y\\z', '', ' {b} ']::text[] AS texts,
                ARRAY[1, NULL]::int4[] AS ints, ARRAY[[1, 2], [3, 4]]::int8[] AS grid,
                '[0:1]={5,6}'::int4[] AS bounded, ARRAY[true, NULL, false] AS flags,
                ARRAY['2024-01-01T00:00:00Z'::timestamptz] AS times,
                ARRAY['{"a":[1,"\\""]}'::jsonb, 'null'::jsonb] AS docs, '{}'::text[] AS empty,
                ARRAY['\\x0102'::bytea] AS bins, ARRAY[1.50]::numeric[] AS amounts,
                ARRAY[box '((0,0),(1,1))', box '((2,2),(3,3))'] AS boxes`,
      );
      assert.deepEqual(read, {
        texts: ["a", null, "NULL", 'x,"y\\z', "", " {b} "],
        ints: [1, null],
        grid: [["1", "2"], ["3", "4"]],
        bounded: [5, 6],
        flags: [true, null, false],
        times: [new Date("2024-01-01T00:00:00Z")],
        docs: [{ a: [1, '"'] }, null],
        empty: [],
        bins: [new Uint8Array([1, 2])],
        amounts: ["1.50"],
        boxes: ["(1,1),(0,0)", "(3,3),(2,2)"],
      });
      const texts = ["a", null, "NULL", 'x,"y\\z', "", " {b} "];
      const [bound] = await db.query(
        `SELECT $1::text[] AS texts, $2::int8[] AS bigs, $3::jsonb[] AS docs,
                $4::timestamptz[] AS times, $5::int4[] AS grid, $6::float8[] AS empty,
                array_length($1::text[], 1) AS n, $7::jsonb AS doc`,
        [
          texts,
          ["9007199254740993", null],
          [{ a: "x,y" }, [1]],
          ["2020-01-02T03:04:05.678Z"],
          [[1, 2], [3, 4]],
          [],
          [1, "two"],
        ],
      );
      assert.deepEqual(bound, {
        texts,
        bigs: ["9007199254740993", null],
        docs: [{ a: "x,y" }, [1]],
        times: [new Date("2020-01-02T03:04:05.678Z")],
        grid: [[1, 2], [3, 4]],
        empty: [],
        n: 6,
        doc: [1, "two"],
      });
    });

    it("query() rejects an undefined parameter instead of storing NULL", async () => {
      await assert.rejects(getAdapter().query("SELECT $1::text", [undefined]), TypeError);
    });

    it("query() errors are SqlError with the SQLSTATE code", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE uniq (email text CONSTRAINT uniq_email UNIQUE)");
      await db.query("INSERT INTO uniq VALUES ($1)", ["a@x"]);
      await assert.rejects(db.query("INSERT INTO uniq VALUES ($1)", ["a@x"]), (error) => {
        assert.ok(error instanceof SqlError);
        assert.equal(error.code, "23505");
        assert.equal(error.constraint, "uniq_email");
        assert.equal(error.table, "uniq");
        return true;
      });
      await assert.rejects(db.query("SELEC 1"), { name: "SqlError", code: "42601" });
      await assert.rejects(db.query("SELECT * FROM missing_table"), { code: "42P01" });
      assert.deepEqual(await db.query("SELECT 1::int4 AS ok"), [{ ok: 1 }]);
    });

    it("a printed SqlError shows no query parameters", async () => {
      const secret = "secret-parameter-6f2b";
      await assert.rejects(
        getAdapter().query("SELECT $1::text AS kept, $2::int AS bad", [secret, "not-a-number"]),
        (error) => {
          assert.ok(error instanceof SqlError);
          // Printed the way an unhandled error or `console.error` prints it, cause included.
          const printed = inspect(error, { depth: 5 });
          assert.match(printed, /not-a-number/, "PostgreSQL's own message names the bad value");
          assert.ok(!printed.includes(secret), printed);
          return true;
        },
      );
    });

    it("transaction() commits and returns the callback's value", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE tx_commit (n int4)");
      const value = await db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_commit VALUES (1), (2)");
        return "done";
      });
      assert.equal(value, "done");
      assert.deepEqual(await db.query("SELECT n FROM tx_commit ORDER BY n"), [{ n: 1 }, { n: 2 }]);
    });

    it("transaction() rolls back and rethrows when the callback throws", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE tx_rollback (n int4)");
      const boom = new Error("boom");
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO tx_rollback VALUES (1)");
          throw boom;
        }),
        (error) => error === boom,
      );
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO tx_rollback VALUES (2)");
          await tx.query("INSERT INTO tx_rollback VALUES ('not a number')");
        }),
        { code: "22P02" },
      );
      assert.deepEqual(await db.query("SELECT n FROM tx_rollback"), []);
    });

    it("nested tx.transaction() is a savepoint", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE tx_nested (n int4)");
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_nested VALUES (1)");
        await assert.rejects(
          tx.transaction(async (inner) => {
            await inner.query("INSERT INTO tx_nested VALUES (2)");
            throw new Error("inner fails");
          }),
          /inner fails/,
        );
        const kept = await tx.transaction(async (inner) => {
          await inner.query("INSERT INTO tx_nested VALUES (3)");
          await inner.transaction((deeper) => deeper.query("INSERT INTO tx_nested VALUES (4)"));
          return "kept";
        });
        assert.equal(kept, "kept");
      });
      assert.deepEqual(await db.query("SELECT n FROM tx_nested ORDER BY n"), [
        { n: 1 },
        { n: 3 },
        { n: 4 },
      ]);
    });

    it("a transaction object used after its callback throws TransactionMisuseError", async () => {
      let leaked: SqlTransaction | undefined;
      await getAdapter().transaction((tx) => {
        leaked = tx;
        return Promise.resolve();
      });
      await assert.rejects(leaked!.query("SELECT 1"), TransactionMisuseError);
    });

    it("calling the adapter inside its own transaction throws instead of escaping it", async () => {
      const db = getAdapter();
      await assert.rejects(
        db.transaction(async () => {
          await db.query("SELECT 1");
        }),
        TransactionMisuseError,
      );
      // The adapter is still usable afterwards.
      assert.deepEqual(await db.query("SELECT 2::int4 AS n"), [{ n: 2 }]);
    });

    it("a query outside a running transaction never sees its uncommitted writes", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE tx_isolation (n int4)");
      let committed = false;
      const running = db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_isolation VALUES (1)");
        await sleep(100);
        committed = true;
      });
      await sleep(20);
      const [row] = await db.query<{ n: string }>("SELECT count(*) AS n FROM tx_isolation");
      if (name === "pglite") {
        // One connection: the query waited for the transaction to finish.
        assert.equal(committed, true);
        assert.equal(row.n, "1");
      } else {
        assert.equal(row.n, "0");
      }
      await running;
    });

    it("concurrent transactions do not interleave", async () => {
      const db = getAdapter();
      await db.query("CREATE TABLE tx_counter (id int4 PRIMARY KEY, n int4)");
      await db.query("INSERT INTO tx_counter VALUES (1, 0)");
      await Promise.all(
        Array.from({ length: 5 }, () =>
          db.transaction(async (tx) => {
            // FOR UPDATE makes the server serialize too; PGlite must serialize on its own.
            const [row] = await tx.query<{ n: number }>(
              "SELECT n FROM tx_counter WHERE id = 1 FOR UPDATE",
            );
            await sleep(10);
            await tx.query("UPDATE tx_counter SET n = $1 WHERE id = 1", [row.n + 1]);
          })),
      );
      assert.deepEqual(await db.query("SELECT n FROM tx_counter"), [{ n: 5 }]);
    });

    it("listen() receives NOTIFY payloads until unsubscribed", async () => {
      const db = getAdapter();
      const received: string[] = [];
      const unlisten = await db.listen("Mixed_Case channel", (payload) => received.push(payload));
      await db.query("SELECT pg_notify($1, $2)", ["Mixed_Case channel", "first"]);
      await db.transaction((tx) =>
        tx.query("SELECT pg_notify($1, $2)", ["Mixed_Case channel", "second"])
      );
      for (let i = 0; i < 50 && received.length < 2; i++) await sleep(20);
      assert.deepEqual(received, ["first", "second"]);
      await unlisten();
      await db.query("SELECT pg_notify($1, $2)", ["Mixed_Case channel", "third"]);
      await sleep(100);
      assert.deepEqual(received, ["first", "second"]);
    });

    it("stats counts queries and transactions", async () => {
      const db = getAdapter();
      const before = db.stats;
      await db.query("SELECT 1");
      await db.transaction((tx) => tx.query("SELECT 1"));
      const after = db.stats;
      assert.equal(after.queries - before.queries >= 2, true);
      assert.equal(after.transactions - before.transactions, 1);
    });

    it("close() lets the process exit promptly", { timeout: 60_000 }, async () => {
      const started = Date.now();
      const result = await runScript(
        fileURLToPath(new URL("../fixtures/close_exits.ts", import.meta.url)),
        [
          name,
          getUrl() ?? "",
        ],
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /closed/);
      assert.ok(Date.now() - started < 20_000);
    });
  });
});

describe("adapter errors when the database is unavailable", () => {
  it("postgresAdapter() on a closed port rejects with DatabaseUnavailableError", async () => {
    const db = postgresAdapter("postgres://postgres:secret@127.0.0.1:1/none", {
      connectTimeout: 2,
    });
    assert.equal(db.target.includes("secret"), false);
    try {
      await assert.rejects(db.connect(), DatabaseUnavailableError);
    } finally {
      await db.close();
    }
  });

  it("postgresAdapter() refuses an unparsable URL at once, without repeating it", async () => {
    for (const url of ["postgres://u:hunter2@host:port/db", "postgres://u:%E0%A4%A@host/db"]) {
      assert.throws(
        () => postgresAdapter(url),
        (error: unknown) =>
          error instanceof TypeError && /Invalid PostgreSQL connection URL/.test(error.message) &&
          !error.message.includes("hunter2") && !error.message.includes("%E0"),
      );
    }
    // Several hosts (postgres.js's failover form) and an encoded password are accepted.
    for (const url of ["postgres://u:p@h1:5432,h2:5433/db", "postgres://u:p%40ss@h/db"]) {
      await postgresAdapter(url).close();
    }
  });

  it("a closed adapter rejects with DatabaseUnavailableError", async () => {
    const db = pgliteAdapter();
    await db.close();
    await assert.rejects(db.query("SELECT 1"), DatabaseUnavailableError);
  });
});
