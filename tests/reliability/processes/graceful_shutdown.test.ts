// Issue 30, point 5: SIGTERM to `fragment-cli serve` while 200 webhook deliveries are in flight.
// Every delivery the server took is answered — 200, or 503 with Retry-After once it is draining —
// and every one answered 200 is stored; the process exits by itself (within its shutdown grace
// period, 10 s by default: past it, it exits anyway); the hooks it had in flight either finished or
// are run by the next process, once each in the end.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { type Outcome, send, sleep, waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  createRunsTable,
  handlerRuns,
  messageUpdate,
  migrateSystem,
  newWebhookSecret,
  SECRET_HEADER,
  SYSTEM_APP,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const DELIVERIES = 200;
const FIRST_ID = 550_000_000;
const slow = { timeout: 300_000 };

describe("graceful shutdown of serve under load", () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  const servers: ServeChild[] = [];

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrateSystem(database.url, log, secret);
    await createRunsTable(db);
  }, slow);

  after(async () => {
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await db?.close();
    await database?.drop();
  }, slow);

  it(
    "SIGTERM during 200 in-flight deliveries: each answered 200 or 503, stored, run once",
    slow,
    async () => {
      const env = systemEnv(database.url, secret, {
        RECORD_RUNS: "1",
        HANDLER_MS: "40",
        HOOK_LEASE_MS: "3000",
        HOOK_POLL_MS: "250",
      });
      const first = await startServe({ app: SYSTEM_APP, env, log, label: "serve (terminated)" });
      servers.push(first);
      let answered = 0;
      const deliveries = Array.from(
        { length: DELIVERIES },
        (_, i) =>
          send(`${first.url}${WEBHOOK_PATH}`, {
            body: messageUpdate(FIRST_ID + i, `bye ${i}`, i % 16),
            headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
          }).then((outcome) => {
            answered++;
            return outcome;
          }),
      );
      // Terminate while deliveries are in flight: once some are answered, not all.
      await waitFor("first answers", () => Promise.resolve(answered >= 20 || undefined), {
        intervalMs: 5,
      });
      first.child.kill("SIGTERM");
      const results: Outcome[] = await Promise.all(deliveries);
      // It exits by itself (nothing here sends SIGKILL); Deno's child_process reports a child
      // that got SIGTERM as killed by it even when it exited on its own: its code is not checked.
      await first.exited;

      const ok = results.flatMap((r, i) => r.status === 200 ? [FIRST_ID + i] : []);
      const refused = results.filter((r) => r.status === 503);
      const other = results.filter((r) =>
        r.status !== 200 && r.status !== 503 && r.status !== null
      );
      assert.deepEqual(other.map((r) => `${r.status} ${r.text}`), [], "only 200 and 503 answers");
      for (const r of refused) assert.match(r.headers?.get("retry-after") ?? "", /^\d+$/);
      // No answer at all only for connections the stopped server never took.
      for (const r of results.filter((r) => r.status === null)) {
        assert.match(r.error ?? "", /refused|ECONNREFUSED|connect/i, r.error);
      }
      assert.ok(ok.length > 0, "deliveries taken before SIGTERM were answered 200");
      const [stored] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM messenger.updates WHERE update_id = ANY($1::int8[])",
        [ok.map(String)],
      );
      assert.equal(stored.n, ok.length, "every delivery answered 200 is stored");

      // The next process runs what the first left: every stored update's hook done, once.
      await sleep(100);
      const next = await startServe({ app: SYSTEM_APP, env, log, label: "serve (next)" });
      servers.push(next);
      await waitFor("every hook done", async () => {
        const [row] = await db.query<{ open: number }>(
          "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
        );
        return row.open === 0 ? true : undefined;
      }, { timeoutMs: 120_000, intervalMs: 200 });
      const runs = await handlerRuns(db);
      const finished = new Map<string, number>();
      for (const run of runs) {
        if (run.finished_at !== null) {
          finished.set(run.update_id, (finished.get(run.update_id) ?? 0) + 1);
        }
      }
      const [all] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM messenger.updates",
      );
      assert.equal(finished.size, all.n, "every stored update's handler finished");
      assert.deepEqual([...finished.values()].filter((n) => n !== 1), [], "and finished once");
    },
  );
});
