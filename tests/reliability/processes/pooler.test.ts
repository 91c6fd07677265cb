// Issue 30, point 3: PostgreSQL behind PgBouncer in transaction mode (Debian's 1.18, started by
// `.ci/pgbouncer.sh` on 127.0.0.1:6432). Three `fragment-cli serve` processes (Deno, Node, Bun)
// whose DATABASE_URL goes through the pooler, without a direct URL (hooks wake up by polling),
// take 3 × 1,000 webhook deliveries with random duplicates: exactly one record per update_id, each
// update's hook run once, none left pending. With DIRECT_DATABASE_URL the hooks LISTEN on the
// server itself. `db migrate` works through the pooler alone, and with DIRECT_DATABASE_URL runs
// on the direct URL only.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { send, waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { noPooler, pooledUrl } from "../../helpers/pooler.ts";
import { runCliToEnd, type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  createRunsTable,
  deliverExactlyOnce,
  handlerRuns,
  messageUpdate,
  newWebhookSecret,
  SECRET_HEADER,
  seededRandom,
  shuffle,
  SYSTEM_APP,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const DISTINCT = 1_200;
const PER_PROCESS = 1_000;
const CONCURRENCY = 48;
const FIRST_ID = 770_000_000;
const RUNTIMES = ["deno", "node", "bun"] as const;
const slow = { timeout: 600_000 };
const skip = await noPooler();

/** Counts of each namespace's recorded version. */
async function versions(db: SqlAdapter): Promise<Record<string, number>> {
  const rows = await db.query<{ namespace: string; version: number }>(
    `SELECT namespace, version FROM fragment_internal.schema_versions ORDER BY namespace`,
  ).catch(() => []);
  return Object.fromEntries(rows.map((r) => [r.namespace, r.version]));
}

describe("behind PgBouncer in transaction mode", { skip }, () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  let servers: ServeChild[] = [];

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
  }, slow);

  after(async () => {
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await db?.close();
    await database?.drop();
  }, slow);

  it("db migrate with DIRECT_DATABASE_URL runs on the direct URL only", slow, async () => {
    // Nothing listens on port 1: had any statement gone to DATABASE_URL, the command had failed.
    const unreachable = new URL(database.url);
    unreachable.port = "1";
    const result = await runCliToEnd(["db", "migrate", SYSTEM_APP], {
      log,
      label: "db migrate (direct)",
      env: { ...systemEnv(unreachable.toString(), secret), DIRECT_DATABASE_URL: database.url },
    });
    assert.equal(result.code, 0, result.output);
    assert.deepEqual(Object.keys(await versions(db)).sort(), ["auth", "messenger"]);
  });

  it(
    "db migrate through the pooler alone works (every lock is transaction-scoped)",
    slow,
    async () => {
      const other = await createTestDatabase();
      const check = postgresAdapter(other.url, { max: 1 });
      try {
        const result = await runCliToEnd(["db", "migrate", SYSTEM_APP], {
          log,
          label: "db migrate (pooled)",
          env: systemEnv(pooledUrl(other.url), secret),
        });
        assert.equal(result.code, 0, result.output);
        assert.deepEqual(await versions(check), await versions(db));
      } finally {
        await check.close();
        await other.drop();
      }
    },
  );

  it(
    "3 processes × 1,000 deliveries with duplicates: one record per update_id, one run each",
    // Until the adapter reopened its pool with postgres.js's own `prepare: false` behind a pooler
    // (issue 30), claims and completions, then short transactions, were silently rolled back: the
    // driver's prepared `commit` was missing on the next server connection (see
    // tests/sql/postgres_pooler.test.ts). Claims re-ran, completions matched nothing.
    slow,
    async () => {
      await createRunsTable(db);
      const env = systemEnv(pooledUrl(database.url), secret, {
        RECORD_RUNS: "1",
        HANDLER_MS: "2",
        HOOK_POLL_MS: "250",
      });
      servers = await Promise.all(
        RUNTIMES.map((runtime) =>
          startServe({ app: SYSTEM_APP, env, log, label: `serve (${runtime}, pooled)`, runtime })
        ),
      );
      // Every id once, the rest random duplicates, shuffled: copies race on all processes.
      const random = seededRandom(30_003);
      const ids = Array.from({ length: DISTINCT }, (_, i) => FIRST_ID + i);
      while (ids.length < PER_PROCESS * RUNTIMES.length) {
        ids.push(FIRST_ID + Math.floor(random() * DISTINCT));
      }
      const deliveries = shuffle(ids, random).map((updateId, i) => ({
        updateId,
        server: i % RUNTIMES.length,
      }));
      await deliverExactlyOnce(servers.map((s) => s.url), deliveries, {
        secret,
        concurrency: CONCURRENCY,
        distinct: DISTINCT,
        body: (id) => messageUpdate(id, `hello ${id}`, id % 64),
      });

      const [stored] = await db.query<{ n: number; ids: number }>(
        "SELECT count(*)::int4 AS n, count(DISTINCT update_id)::int4 AS ids FROM messenger.updates",
      );
      assert.deepEqual(stored, { n: DISTINCT, ids: DISTINCT });

      // Polling (no direct URL, so no LISTEN) is the wake-up: every hook done, none skipped.
      await waitFor("every hook done", async () => {
        const [row] = await db.query<{ open: number }>(
          "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
        );
        return row.open === 0 ? true : undefined;
      }, { timeoutMs: 300_000, intervalMs: 250 });
      const occurrences = await db.query<{ key: string; attempts: number }>(
        "SELECT key, attempts FROM messenger.hook_occurrences ORDER BY key",
      );
      assert.equal(occurrences.length, DISTINCT, "one hook occurrence per update");
      assert.deepEqual(occurrences.filter((o) => o.attempts !== 1), [], "each ran in one attempt");
      const runs = await handlerRuns(db);
      assert.equal(runs.length, DISTINCT, "the handler ran once per update, no more");
      assert.equal(new Set(runs.map((r) => r.update_id)).size, DISTINCT);
      assert.equal(
        new Set(runs.map((r) => r.pid)).size,
        RUNTIMES.length,
        "all processes ran hooks",
      );
      assert.doesNotMatch(log.text(), /prepared statement/i, "no prepared-statement error logged");
      await Promise.all(servers.map((s) => s.kill("SIGKILL")));
      servers = [];
    },
  );

  it("with DIRECT_DATABASE_URL, the hook worker LISTENs on the server itself", slow, async () => {
    const env = {
      ...systemEnv(pooledUrl(database.url), secret),
      DIRECT_DATABASE_URL: database.url,
    };
    servers = [await startServe({ app: SYSTEM_APP, env, log, label: "serve (pooled + direct)" })];
    const delivered = await send(`${servers[0].url}${WEBHOOK_PATH}`, {
      body: messageUpdate(FIRST_ID + DISTINCT + 1),
      headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
    });
    assert.equal(delivered.status, 200, delivered.text);
    await waitFor("the hook done", async () => {
      const [row] = await db.query<{ open: number }>(
        "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
      );
      return row.open === 0 ? true : undefined;
    }, { timeoutMs: 120_000, intervalMs: 100 });
    const [listening] = await db.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM pg_stat_activity
       WHERE datname = current_database() AND query ILIKE 'listen %'`,
    );
    assert.ok(listening.n >= 1, "a LISTEN session on the direct URL");
  });
});
