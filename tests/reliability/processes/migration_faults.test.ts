// Point 4 of the reliability issue: migrations are atomic and single-applied. `kill -9` of
// `fragment-cli db migrate` in the middle of a long migration leaves the database at its old
// version with no partial DDL and no partial data change, and a rerun succeeds; two concurrent
// `db migrate` processes both exit 0 and the steps are applied exactly once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { runCliToEnd, spawnCli } from "../helpers/serve_process.ts";

const APP = fileURLToPath(new URL("../fixtures/ledger_app.ts", import.meta.url));
const ROWS = 1_000_000;
const slow = { timeout: 600_000 };

interface LedgerState {
  version: number | null;
  audit: boolean;
  index: boolean;
  rows: number;
  total: string;
}

describe("db migrate under faults (PostgreSQL)", () => {
  const log = new OutputLog();
  let database: TestDatabase;
  let db: SqlAdapter;

  // The server trusts local connections, so this password is never needed, but it is in the URL
  // the CLI prints (redacted) and must not show anywhere.
  const password = log.secret(`pw${crypto.randomUUID().replaceAll("-", "")}`, "database password");
  const urlWithPassword = (): string => {
    const url = new URL(database.url);
    url.password = password;
    return url.toString();
  };
  const env = (namespace: string) => ({
    DATABASE_URL: urlWithPassword(),
    LEDGER_NAMESPACE: namespace,
  });
  const migrate = (namespace: string, label: string, args: string[] = []) =>
    runCliToEnd(["db", "migrate", APP, ...args], { log, label, env: env(namespace) });

  /** What `db info` and the catalog say about a namespace. */
  async function state(namespace: string): Promise<LedgerState> {
    const info = await runCliToEnd(["db", "info", APP, "--json"], {
      log,
      label: "db info",
      env: env(namespace),
    });
    assert.equal(info.code, 0, info.output);
    const json = JSON.parse(info.output.slice(info.output.indexOf("{")));
    const [row] = await db.query<{ audit: boolean; index: boolean; rows: number; total: string }>(
      `SELECT to_regclass($1) IS NOT NULL AS audit, to_regclass($2) IS NOT NULL AS index,
         (SELECT count(*)::int4 FROM ${namespace}.entries) AS rows,
         (SELECT coalesce(sum(amount), 0)::text FROM ${namespace}.entries) AS total`,
      [`${namespace}.audit`, `${namespace}.entries_amount_idx`],
    );
    return { version: json.namespaces[0].databaseVersion, ...row };
  }

  /** Migrates a namespace to version 1 and fills `entries`. */
  async function seed(namespace: string, rows: number): Promise<LedgerState> {
    const result = await migrate(namespace, "db migrate --to 1", ["--to", "1"]);
    assert.equal(result.code, 0, result.output);
    await db.query(
      `INSERT INTO ${namespace}.entries (id, amount) SELECT g, g % 1000 FROM generate_series(1, $1::int4) g`,
      [rows],
    );
    const seeded = await state(namespace);
    assert.deepEqual(
      { version: seeded.version, audit: seeded.audit, index: seeded.index, rows: seeded.rows },
      { version: 1, audit: false, index: false, rows },
    );
    return seeded;
  }

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
  }, slow);

  after(async () => {
    await db?.close();
    await database?.drop();
  }, slow);

  it(
    "kill -9 mid-migration: old version, no partial DDL or data; a rerun applies it",
    slow,
    async () => {
      const seeded = await seed("ledger", ROWS);
      const migrator = await spawnCli(["db", "migrate", APP], {
        log,
        label: "db migrate (killed)",
        env: env("ledger"),
      });
      // Wait until its transaction runs the slow step: versions 2 (CREATE TABLE audit) is done.
      const backend = await waitFor("the migration's UPDATE to run", async () => {
        const rows = await db.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND query LIKE 'UPDATE %entries%'`,
        );
        if (migrator.child.exitCode !== null) {
          throw new Error(`db migrate ended first:\n${log.text()}`);
        }
        return rows[0]?.pid;
      }, { timeoutMs: 120_000, intervalMs: 10 });
      const exit = await migrator.kill("SIGKILL");
      assert.equal(exit.signal, "SIGKILL");

      // The server ends the orphaned backend (rolling its transaction back) once it sees the
      // client gone, at the latest after the running statement.
      await waitFor("the killed migrator's backend to end", async () => {
        const rows = await db.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [backend]);
        return rows.length === 0 ? true : undefined;
      }, { timeoutMs: 300_000, intervalMs: 100 });

      assert.deepEqual(await state("ledger"), seeded, "version 1, no audit table, rows unchanged");
      const [{ locks }] = await db.query<{ locks: number }>(
        "SELECT count(*)::int4 AS locks FROM pg_locks WHERE locktype = 'advisory'",
      );
      assert.equal(locks, 0, "no advisory lock left behind");

      const rerun = await migrate("ledger", "db migrate (rerun)");
      assert.equal(rerun.code, 0, rerun.output);
      assert.match(rerun.output, /✓ ledger \[ledger\]: version 1 → 4/);
      assert.deepEqual(await state("ledger"), {
        version: 4,
        audit: true,
        index: true,
        rows: ROWS,
        total: String(BigInt(seeded.total) + BigInt(ROWS)),
      });
    },
  );

  it("two concurrent db migrate: both exit 0, the steps are applied once", slow, async () => {
    const rows = 200_000;
    const seeded = await seed("ledger_b", rows);
    const [a, b] = await Promise.all([
      migrate("ledger_b", "db migrate A"),
      migrate("ledger_b", "db migrate B"),
    ]);
    assert.equal(a.code, 0, a.output);
    assert.equal(b.code, 0, b.output);
    const applied = [a, b].filter((r) => /✓ ledger \[ledger_b\]: version 1 → 4/.test(r.output));
    assert.equal(applied.length, 1, `exactly one applies:\n${a.output}\n${b.output}`);
    const other = applied[0] === a ? b : a;
    assert.match(
      other.output,
      /already at version 4|No migrations needed: ledger \[ledger_b\] is at version 4/,
    );
    assert.deepEqual(await state("ledger_b"), {
      version: 4,
      audit: true,
      index: true,
      rows,
      total: String(BigInt(seeded.total) + BigInt(rows)),
    }, "the UPDATE ran once, not twice");
  });

  it("no database password in the migrators' output", () => {
    assert.match(log.text(), /postgres:\*\*\*@127\.0\.0\.1/, "the CLI printed the redacted URL");
    assert.deepEqual(log.leaks(), []);
  });
});
