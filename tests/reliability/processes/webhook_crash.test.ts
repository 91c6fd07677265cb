// Point 2 of the reliability issue: `kill -9` of a serve process in the middle of a webhook load,
// while its hook worker is inside handlers; then restart it. Every update answered 200 is
// stored; every stored update's hook completes after the restart (the killed worker's runs are
// taken over once their lease expires); no update's handler ever runs twice at the same time;
// deliveries that got no answer succeed when the messenger retries them.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { type Outcome, runPool, send, waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  createRunsTable,
  type HandlerRun,
  handlerRuns,
  messageUpdate,
  migrateSystem,
  newWebhookSecret,
  SECRET_HEADER,
  SYSTEM_APP,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const UPDATES = 600;
const CONCURRENCY = 16;
const CHATS = 32;
const FIRST_ID = 770_000_000;
const slow = { timeout: 600_000 };

describe("kill -9 of a serve process under webhook load", () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  const servers: ServeChild[] = [];
  let env: Record<string, string>;

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrateSystem(database.url, log, secret);
    await createRunsTable(db);
    // Handlers long enough to be interrupted, a lease short enough to be taken over in the test.
    env = systemEnv(database.url, secret, {
      RECORD_RUNS: "1",
      HANDLER_MS: "150",
      HOOK_LEASE_MS: "1500",
      HOOK_POLL_MS: "200",
    });
    servers.push(
      ...await Promise.all(
        ["serve A", "serve B"].map((label) => startServe({ app: SYSTEM_APP, env, log, label })),
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
    "answered updates are stored, stored updates complete, no run overlaps another",
    slow,
    async () => {
      const [a, b] = servers;
      const deliver = (updateId: number, server: ServeChild): Promise<Outcome> =>
        send(`${server.url}${WEBHOOK_PATH}`, {
          // 32 chats: the messenger runs one chat's updates one at a time (orderByChat), so with
          // a single chat one process would run every handler and A might never be inside one
          // while deliveries to it are still in flight.
          body: messageUpdate(updateId, undefined, 1_000 + (updateId % CHATS)),
          headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
          timeoutMs: 60_000,
        });
      const ids = Array.from({ length: UPDATES }, (_, i) => FIRST_ID + i);

      // Kill A once its worker is inside a handler and the load is well under way.
      let killedAt: Date | undefined;
      const killer = (async () => {
        await waitFor("a handler running in serve A", async () => {
          const [row] = await db.query<{ n: number }>(
            `SELECT count(*)::int4 AS n FROM reliability.handler_runs
           WHERE pid = $1 AND finished_at IS NULL`,
            [a.pid],
          );
          return row.n > 0 ? true : undefined;
        }, { timeoutMs: 300_000, intervalMs: 20 });
        const exit = await a.kill("SIGKILL");
        assert.equal(exit.signal, "SIGKILL");
        [{ now: killedAt }] = await db.query<{ now: Date }>("SELECT clock_timestamp() AS now");
      })();
      const first = await runPool(ids, CONCURRENCY, (id, i) => deliver(id, i % 2 === 0 ? a : b));
      await killer;
      assert.ok(killedAt, "serve A was killed during the load");
      const killedPid = a.pid;

      const answered = ids.filter((_, i) => first[i].status === 200);
      const unanswered = ids.filter((_, i) => first[i].status === null);
      assert.deepEqual(
        first.filter((r) => r.status !== null && r.status !== 200).map((r) => r.text),
        [],
        "an answer is 200 or none (the process died)",
      );
      assert.ok(unanswered.length > 0, "some deliveries to the killed process got no answer");

      // Every update answered 200 is stored, before anything else happens.
      const storedNow = new Set(
        (await db.query<{ id: string }>("SELECT update_id::text AS id FROM messenger.updates"))
          .map((r) => r.id),
      );
      assert.deepEqual(answered.filter((id) => !storedNow.has(String(id))), []);

      // Restart A; the messenger retries what got no answer.
      const restarted = await startServe({ app: SYSTEM_APP, env, log, label: "serve A restarted" });
      servers.push(restarted);
      const retried = await runPool(unanswered, CONCURRENCY, (id) => deliver(id, restarted));
      assert.deepEqual(retried.filter((r) => r.status !== 200).map((r) => r.text), []);

      const stored = await db.query<{ id: string }>(
        "SELECT update_id::text AS id FROM messenger.updates ORDER BY update_id",
      );
      assert.deepEqual(stored.map((r) => r.id), ids.map(String), "every update is stored once");

      await waitFor("every stored update's hook done", async () => {
        const [row] = await db.query<{ open: number }>(
          "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
        );
        return row.open === 0 ? true : undefined;
      }, { timeoutMs: 300_000, intervalMs: 250 });
      const [{ n: occurrences }] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM messenger.hook_occurrences",
      );
      assert.equal(occurrences, UPDATES);

      const runs = await handlerRuns(db);
      const byUpdate = Map.groupBy(runs, (r) => r.update_id);
      for (const id of ids) {
        const own = byUpdate.get(String(id)) ?? [];
        assert.ok(own.some((r) => r.finished_at !== null), `update ${id} was processed to the end`);
      }
      const interrupted = runs.filter((r) => r.pid === killedPid && r.finished_at === null);
      assert.ok(interrupted.length > 0, "the kill interrupted running handlers");
      for (const run of interrupted) {
        const later = byUpdate.get(run.update_id)!.filter((r) => r.started_at > run.started_at);
        assert.ok(later.some((r) => r.finished_at !== null), `update ${run.update_id} was rerun`);
      }
      assert.deepEqual(
        runs.filter((r) => r.finished_at === null && r.pid !== killedPid),
        [],
        "only the killed process left runs unfinished",
      );
      assert.deepEqual(overlaps(byUpdate, killedPid, killedAt!), [], "no run overlaps another");
      console.log(
        `kill -9: ${answered.length} deliveries answered, ${unanswered.length} unanswered and ` +
          `retried, ${interrupted.length} handler runs interrupted and rerun, ${runs.length} runs`,
      );
    },
  );

  it("no webhook secret in the servers' output", () => {
    assert.ok(log.size > 0);
    assert.deepEqual(log.leaks(), []);
  });
});

/**
 * Pairs of runs of one update that were in flight at the same time. A run of the killed process
 * that never finished ended, at the latest, when the process died.
 */
function overlaps(
  byUpdate: Map<string, HandlerRun[]>,
  killedPid: number,
  killedAt: Date,
): string[] {
  const found: string[] = [];
  for (const [id, runs] of byUpdate) {
    const sorted = [...runs].sort((x, y) => x.started_at.getTime() - y.started_at.getTime());
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1];
      const end = previous.finished_at ?? (previous.pid === killedPid ? killedAt : null);
      if (end === null || end > sorted[i].started_at) {
        found.push(`update ${id}: run ${i} started while run ${i - 1} was still running`);
      }
    }
  }
  return found;
}
