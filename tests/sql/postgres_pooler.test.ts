/**
 * The postgres.js adapter behind PgBouncer in transaction mode (Debian's 1.18 on 127.0.0.1:6432,
 * started by `.ci/pgbouncer.sh`; the tests skip when none answers), with several connections:
 * every transaction (and batch) that answered commits, concurrent statements get their own
 * answers, and no statement depends on a prepared statement a pooled server connection does not
 * have.
 *
 * The defect these tests pin down (issue 30): the adapter turned its own statements' preparation
 * off behind a pooler, but postgres.js prepares the statements it sends itself — `commit`,
 * `rollback`, `savepoint` — under the pool's `prepare` option. A transaction that landed on
 * another server connection than the one its client connection had prepared `commit` on failed
 * with `prepared statement … does not exist` (which aborts the transaction), postgres.js prepared
 * the `commit` again and sent it, and the server answered the aborted transaction's COMMIT with
 * ROLLBACK: the transaction reported success and its writes were gone.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { noPooler, pooledUrl } from "../helpers/pooler.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";
import type { SqlAdapter } from "../../src/sql/adapter.ts";
import { DatabaseUnavailableError } from "../../src/sql/adapter_errors.ts";

const skip = !enabledAdapters().includes("postgres") ? "postgres not enabled" : await noPooler();
const WORKERS = 8;
const ROUNDS = 25;

describe("postgresAdapter behind PgBouncer (transaction mode, several connections)", {
  skip,
}, () => {
  let database: TestDatabase;
  let direct: SqlAdapter;
  let pooled: SqlAdapter;

  before(async () => {
    database = await createTestDatabase();
    direct = postgresAdapter(database.url, { max: 1 });
    await direct.query("CREATE TABLE written (id int8 PRIMARY KEY, label text NOT NULL)");
    pooled = postgresAdapter(pooledUrl(database.url), { max: 4 });
  });

  after(async () => {
    await pooled?.close();
    await direct?.close();
    await database?.drop();
  });

  it("every transaction that answered is committed, savepoints included", async () => {
    const failures: unknown[] = [];
    await Promise.all(Array.from({ length: WORKERS }, async (_, worker) => {
      for (let round = 0; round < ROUNDS; round++) {
        const id = worker * 1_000 + round;
        try {
          await pooled.transaction(async (tx) => {
            await tx.query("SELECT set_config('jit', 'off', true)");
            await tx.query("INSERT INTO written (id, label) VALUES ($1, $2)", [id, `t${id}`]);
            await tx.transaction(async (inner) => {
              await inner.query("UPDATE written SET label = label || '+' WHERE id = $1", [id]);
            });
          });
        } catch (error) {
          failures.push(error);
        }
        // Read back at once, on whichever server connection the pooler hands out.
        const [row] = await pooled.query<{ label: string }>(
          "SELECT label FROM written WHERE id = $1",
          [id],
        );
        assert.deepEqual(row, { label: `t${id}+` }, `transaction ${id} answered but is not there`);
      }
    }));
    assert.deepEqual(failures, []);
    const [count] = await direct.query<{ n: number }>("SELECT count(*)::int4 AS n FROM written");
    assert.equal(count.n, WORKERS * ROUNDS);
  });

  it("a transaction that throws leaves nothing, and the next ones commit", async () => {
    await Promise.all(Array.from({ length: WORKERS }, async (_, worker) => {
      for (let round = 0; round < ROUNDS; round++) {
        const id = 100_000 + worker * 1_000 + round;
        const refused = new Error("refused");
        await assert.rejects(
          pooled.transaction(async (tx) => {
            await tx.query("INSERT INTO written (id, label) VALUES ($1, 'rolled back')", [id]);
            throw refused;
          }),
          (error) => error === refused,
        );
        await pooled.transaction(async (tx) => {
          await tx.query("INSERT INTO written (id, label) VALUES ($1, 'kept')", [id + 500]);
        });
      }
    }));
    const rows = await direct.query<{ label: string; n: number }>(
      "SELECT label, count(*)::int4 AS n FROM written WHERE id >= 100000 GROUP BY label",
    );
    assert.deepEqual(rows, [{ label: "kept", n: WORKERS * ROUNDS }]);
  });

  it("every batch that answered is committed; a failing one leaves nothing", async () => {
    await Promise.all(Array.from({ length: WORKERS }, async (_, worker) => {
      for (let round = 0; round < ROUNDS; round++) {
        const id = 200_000 + worker * 1_000 + round;
        const [[inserted]] = await pooled.batch<[{ id: string }[], unknown[]]>([
          {
            sql: "INSERT INTO written (id, label) VALUES ($1, 'batch') RETURNING id",
            params: [id],
          },
          { sql: "UPDATE written SET label = label || '+' WHERE id = $1", params: [id] },
        ]);
        assert.equal(inserted.id, String(id));
        await assert.rejects(
          pooled.batch([
            {
              sql: "INSERT INTO written (id, label) VALUES ($1, 'rolled back')",
              params: [id + 500],
            },
            { sql: "INSERT INTO written (id, label) VALUES ($1, 'duplicate')", params: [id] },
          ]),
          { code: "23505" },
        );
      }
    }));
    const rows = await direct.query<{ label: string; n: number }>(
      "SELECT label, count(*)::int4 AS n FROM written WHERE id >= 200000 GROUP BY label",
    );
    assert.deepEqual(rows, [{ label: "batch+", n: WORKERS * ROUNDS }]);
  });

  it("concurrent statements, with and without parameters, each get their own answer", async () => {
    const wrong: string[] = [];
    await Promise.all(Array.from({ length: WORKERS }, async (_, worker) => {
      for (let round = 0; round < ROUNDS * 2; round++) {
        const n = worker * 1_000 + round;
        const [withParams] = await pooled.query<{ ids: string[]; n: string }>(
          "SELECT $1::int8[] AS ids, $2::text AS n",
          [[n, n + 1], String(n)],
        );
        if (withParams.n !== String(n) || Number(withParams.ids[1]) !== n + 1) {
          wrong.push(`${n}: ${JSON.stringify(withParams)}`);
        }
        const [simple] = await pooled.query<{ n: string }>(`SELECT '${n}'::text AS n`);
        if (simple.n !== String(n)) wrong.push(`${n}: ${JSON.stringify(simple)}`);
      }
    }));
    assert.deepEqual(wrong, []);
  });

  it("statementTimeout, which PgBouncer refuses, fails with a message naming the role setting", async () => {
    const db = postgresAdapter(pooledUrl(database.url), { max: 2, statementTimeout: 1_000 });
    try {
      await assert.rejects(
        db.query("SELECT 1"),
        (error) =>
          error instanceof DatabaseUnavailableError &&
          /statement_timeout/.test(error.message) && /ALTER ROLE/.test(error.message),
      );
    } finally {
      await db.close();
    }
  });
});
