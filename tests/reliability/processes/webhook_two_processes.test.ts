// Point 1 of the reliability issue: two `fragment-cli serve` processes (one on Deno, one on
// Node) on one PostgreSQL database take 2,000 webhook deliveries of 200 distinct update_ids (each
// id delivered 10 times, copies racing on both processes): every delivery answers 200, exactly
// 200 records are stored, exactly one delivery per id is the new one, and each update's hook runs
// to completion exactly once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  createRunsTable,
  deliverExactlyOnce,
  handlerRuns,
  messageUpdate,
  migrateSystem,
  newWebhookSecret,
  seededRandom,
  shuffle,
  SYSTEM_APP,
  systemEnv,
} from "../helpers/system.ts";

const DISTINCT = 200;
const COPIES = 10;
const CONCURRENCY = 32;
const FIRST_ID = 880_000_000;
const slow = { timeout: 600_000 };

describe("two serve processes, one database: exactly-once storage per update_id", () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  let servers: ServeChild[] = [];

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrateSystem(database.url, log, secret);
    await createRunsTable(db);
    const env = systemEnv(database.url, secret, {
      RECORD_RUNS: "1",
      HANDLER_MS: "5",
      HOOK_POLL_MS: "250",
    });
    // A mixed fleet: the claim protocol of durable hooks must hold across runtimes too.
    servers = await Promise.all(
      (["deno", "node"] as const).map((runtime) =>
        startServe({ app: SYSTEM_APP, env, log, label: `serve (${runtime})`, runtime })
      ),
    );
  }, slow);

  after(async () => {
    // Teardown only (graceful shutdown is not under test here), within any runner's hook limit.
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await db?.close();
    await database?.drop();
  }, slow);

  it(
    "2,000 deliveries of 200 update_ids over both processes: 200 records, one run each",
    slow,
    async () => {
      // Blocks of 20 ids × 10 copies, shuffled inside the block: copies of one id are in flight at
      // once, on both processes.
      const random = seededRandom(20_240_601);
      const deliveries: Array<{ updateId: number; server: number }> = [];
      for (let block = 0; block < DISTINCT; block += 20) {
        const batch = [];
        for (let id = block; id < block + 20; id++) {
          for (let copy = 0; copy < COPIES; copy++) {
            batch.push({ updateId: FIRST_ID + id, server: Math.floor(random() * 2) });
          }
        }
        deliveries.push(...shuffle(batch, random));
      }
      assert.equal(deliveries.length, 2_000);

      await deliverExactlyOnce(servers.map((s) => s.url), deliveries, {
        secret,
        concurrency: CONCURRENCY,
        distinct: DISTINCT,
      });
      assert.ok(
        new Set(deliveries.map((d) => d.server)).size === 2,
        "the deliveries went to both processes",
      );

      const stored = await db.query<{ update_id: string; raw: string }>(
        "SELECT update_id::text AS update_id, raw FROM messenger.updates ORDER BY update_id",
      );
      assert.equal(stored.length, DISTINCT);
      stored.forEach((row, i) => {
        assert.equal(row.update_id, String(FIRST_ID + i));
        assert.equal(row.raw, messageUpdate(FIRST_ID + i), "the raw body is stored verbatim");
      });

      await waitFor("every hook done", async () => {
        const [row] = await db.query<{ open: number }>(
          "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
        );
        return row.open === 0 ? true : undefined;
      }, { timeoutMs: 300_000, intervalMs: 200 });

      const occurrences = await db.query<{ key: string; attempts: number }>(
        "SELECT key, attempts FROM messenger.hook_occurrences ORDER BY key",
      );
      assert.equal(occurrences.length, DISTINCT, "one hook occurrence per update");
      assert.deepEqual(occurrences.filter((o) => o.attempts !== 1), [], "each ran in one attempt");

      const runs = await handlerRuns(db);
      assert.equal(runs.length, DISTINCT, "the handler ran once per update, no more");
      assert.deepEqual(
        runs.map((r) => r.update_id),
        stored.map((s) => s.update_id),
        "one run for each stored update",
      );
      assert.deepEqual(runs.filter((r) => r.finished_at === null), [], "every run completed");
    },
  );

  it("no webhook secret in the servers' output", () => {
    assert.ok(log.size > 0, "the servers' output was captured");
    assert.deepEqual(log.leaks(), []);
  });
});
