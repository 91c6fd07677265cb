// Issue 30, point 4: an exhausted pool and a runaway statement. A `serve` process whose pool has
// `max: 2` connections, both held by `pg_sleep`, takes 50 concurrent requests: every one is
// answered (none hangs), those that found no connection within the acquire timeout with 503,
// `Retry-After` and SERVICE_UNAVAILABLE, and the service answers 200 again once the connections
// are free. With `statementTimeout`, a runaway statement is cancelled by the server and answered
// 503, and the next request is served.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { type Outcome, runPool, send, waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  messageUpdate,
  migrateSystem,
  newWebhookSecret,
  SECRET_HEADER,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const SLEEP_APP = fileURLToPath(new URL("../fixtures/sleep_app.ts", import.meta.url));
const HOLD_SECONDS = 6;
const CONCURRENT = 50;
/** A request without an answer after this long counts as hanging. */
const HANG_MS = 30_000;
const slow = { timeout: 300_000 };

describe("an exhausted pool answers 503 with Retry-After, then recovers", () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  let server: ServeChild;

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 1 });
    await migrateSystem(database.url, log, secret);
    server = await startServe({
      app: SLEEP_APP,
      env: systemEnv(database.url, secret, {
        DB_MAX: "2",
        DB_ACQUIRE_TIMEOUT_MS: "1000",
        DB_STATEMENT_TIMEOUT_MS: "20000",
      }),
      log,
      label: "serve (max 2)",
    });
  }, slow);

  after(async () => {
    await server?.kill("SIGKILL");
    await db?.close();
    await database?.drop();
  }, slow);

  /** Sleeping statements of the served database. */
  async function sleeping(): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state = 'active' AND query LIKE '%pg_sleep%'
         AND pid <> pg_backend_pid()`,
    );
    return row.n;
  }

  it(
    "50 requests while both connections sleep: each answered, 503s carry Retry-After",
    slow,
    async () => {
      const holds = [1, 2].map(() =>
        send(`${server.url}/api/sleep/hold?seconds=${HOLD_SECONDS}`, { timeoutMs: HANG_MS })
      );
      await waitFor("both connections held", async () => (await sleeping()) === 2 || undefined, {
        timeoutMs: 60_000,
      });
      const results: Outcome[] = await runPool(
        Array.from({ length: CONCURRENT }, (_, i) => i),
        CONCURRENT,
        (i) =>
          i % 2 === 0
            ? send(`${server.url}/api/sleep/ping`, { timeoutMs: HANG_MS })
            : send(`${server.url}${WEBHOOK_PATH}`, {
              body: messageUpdate(600_000 + i),
              headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
              timeoutMs: HANG_MS,
            }),
      );
      const hanging = results.filter((r) => r.status === null);
      assert.deepEqual(hanging.map((r) => r.error), [], "no request hangs");
      const unexpected = results.filter((r) => r.status !== 200 && r.status !== 503);
      assert.deepEqual(unexpected.map((r) => `${r.status} ${r.text}`), []);
      const refused = results.filter((r) => r.status === 503);
      assert.ok(refused.length > 0, "requests that found no free connection were refused");
      for (const r of refused) {
        assert.equal(r.body?.error?.code, "SERVICE_UNAVAILABLE", r.text);
        assert.match(r.headers?.get("retry-after") ?? "", /^\d+$/);
      }
      for (const hold of await Promise.all(holds)) assert.equal(hold.status, 200, hold.text);

      // The connections are free again: service resumes.
      const ping = await send(`${server.url}/api/sleep/ping`);
      assert.equal(ping.status, 200, ping.text);
      // Deliveries answered 200 are stored; those answered 503 are Telegram's to retry.
      const accepted = results.flatMap((r, i) =>
        r.status === 200 && i % 2 === 1 ? [600_000 + i] : []
      );
      const [stored] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM messenger.updates WHERE update_id = ANY($1::int8[])",
        [accepted.map(String)],
      );
      assert.equal(stored.n, accepted.length);
    },
  );

  it(
    "statementTimeout cancels a runaway statement: 503, and the next request is served",
    slow,
    async () => {
      const runaway = await send(`${server.url}/api/sleep/hold?seconds=50`, { timeoutMs: 60_000 });
      assert.equal(runaway.status, 503, runaway.text);
      assert.match(runaway.headers?.get("retry-after") ?? "", /^\d+$/);
      const ping = await send(`${server.url}/api/sleep/ping`);
      assert.equal(ping.status, 200, ping.text);
    },
  );
});
