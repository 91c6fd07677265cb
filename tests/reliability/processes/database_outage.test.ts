// Point 3 of the reliability issue: the database goes away under load. On a private PostgreSQL
// cluster started by this file (its own port, a password), a serve process takes mixed traffic
// (webhook deliveries, sign-ups, GET /me, organization creation); the cluster is stopped with
// `pg_ctl stop -m immediate` mid-load. Every request sent while it is down answers 503 in the
// JSON error shape before the client's deadline (no hang); nothing is half-written; once the
// cluster is started again, the same serve process answers normally and its hook worker resumes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { type Outcome, runPool, send, sleep, waitFor } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import {
  canRunPrivateCluster,
  type PrivateCluster,
  startPrivateCluster,
} from "../helpers/private_cluster.ts";
import { type RuntimeName, type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  messageUpdate,
  migrateSystem,
  newPassword,
  newWebhookSecret,
  SECRET_HEADER,
  SYSTEM_APP,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const slow = { timeout: 600_000 };
const RUNTIMES: RuntimeName[] = ["deno", "node", "bun"];
/**
 * The client gives up after this long: an answer later than this counts as a hang. It is the
 * adapter's connect timeout; a refused connection is retried within 2 s (postgres_adapter.ts).
 */
const DEADLINE_MS = 10_000;
const FIRST_ID = 660_000_000;
/** Requests sent while the database is down, per run. */
const DURING_OUTAGE = 60;

type Kind = "webhook" | "sign-up" | "me" | "create organization";
interface Sent extends Outcome {
  kind: Kind;
  server: string;
  sentAt: number;
  updateId?: number;
  email?: string;
}

describe("database outage under load", { skip: !canRunPrivateCluster() }, () => {
  const log = new OutputLog();
  const secret = newWebhookSecret(log);
  let cluster: PrivateCluster;
  let db: SqlAdapter;
  let servers: ServeChild[] = [];
  let token: string;
  let nextId = FIRST_ID;
  let requests = 0;
  const sent: Sent[] = [];

  const api = (server: ServeChild, path: string): string => `${server.url}/api/auth${path}`;

  /** One request of the next kind in the rotation; records it. */
  async function mixedRequest(): Promise<Sent> {
    const kinds: Kind[] = ["webhook", "me", "sign-up", "webhook", "create organization"];
    // 3 servers and 5 kinds of request: every kind reaches every server.
    const server = servers[requests % servers.length];
    const kind = kinds[requests++ % kinds.length];
    const sentAt = performance.now();
    let outcome: Outcome;
    let updateId: number | undefined;
    let email: string | undefined;
    if (kind === "webhook") {
      updateId = nextId++;
      outcome = await send(`${server.url}${WEBHOOK_PATH}`, {
        body: messageUpdate(updateId),
        headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
        timeoutMs: DEADLINE_MS,
      });
    } else if (kind === "sign-up") {
      email = `outage-${crypto.randomUUID()}@example.com`;
      outcome = await send(api(server, "/sign-up"), {
        json: { email, password: newPassword(log) },
        timeoutMs: DEADLINE_MS,
      });
      if (outcome.status === 200) log.secret(outcome.body.token, "session token");
    } else if (kind === "me") {
      outcome = await send(api(server, "/me"), {
        headers: { authorization: `Bearer ${token}` },
        timeoutMs: DEADLINE_MS,
      });
    } else {
      outcome = await send(api(server, "/organizations"), {
        json: { name: "Outage", slug: `outage-${crypto.randomUUID().slice(0, 13)}` },
        headers: { authorization: `Bearer ${token}` },
        timeoutMs: DEADLINE_MS,
      });
    }
    const record: Sent = { ...outcome, kind, server: server.label, sentAt, updateId, email };
    sent.push(record);
    return record;
  }

  /** Each server's state and the end of its own output, for a failure message. */
  function serversReport(): string {
    return servers.map((server) => {
      const { exitCode, signalCode } = server.child;
      const state = exitCode === null && signalCode === null
        ? "running"
        : `exited (code ${exitCode}, signal ${signalCode})`;
      return `--- ${server.label}: ${state}; its last output:\n${
        log.text(server.label).slice(-4000)
      }`;
    }).join("\n");
  }

  before(async () => {
    cluster = await startPrivateCluster();
    log.secret(cluster.password, "database password");
    db = postgresAdapter(cluster.url, { max: 2 });
    await migrateSystem(cluster.url, log, secret);
    // One serve process per runtime: how a driver's connections fail and recover differs.
    servers = await Promise.all(RUNTIMES.map((runtime) =>
      startServe({
        app: SYSTEM_APP,
        env: systemEnv(cluster.url, secret, {
          HOOK_POLL_MS: "200",
          HOOK_RETRY_MS: "100",
          HOOK_MAX_RETRY_MS: "1000",
          // An attempt whose outcome could not be written stays leased until the lease expires.
          HOOK_LEASE_MS: "3000",
        }),
        log,
        label: `serve (${runtime})`,
        runtime,
      })
    ));
    const signUp = await send(api(servers[0], "/sign-up"), {
      json: { email: "owner@example.com", password: newPassword(log) },
    });
    assert.equal(signUp.status, 200, signUp.text);
    token = log.secret(signUp.body.token, "session token");
  }, slow);

  after(async () => {
    // Teardown only (graceful shutdown is not under test here), within any runner's hook limit.
    await Promise.all(servers.map((server) => server.kill("SIGKILL")));
    await db?.close();
    await cluster?.destroy();
  }, slow);

  it("healthy: every kind of request succeeds", slow, async () => {
    const results = await runPool(Array.from({ length: 30 }), 4, () => mixedRequest());
    assert.deepEqual(results.filter((r) => !isSuccess(r)).map(describe_), []);
  });

  it(
    "stopped mid-load: 503 in the JSON error shape before the deadline, never a hang",
    slow,
    async () => {
      let stoppedAt = Infinity;
      let stop = false;
      const afterStop: Sent[] = [];
      const loader = runPool(Array.from({ length: 4 }), 4, async () => {
        while (!stop) {
          const result = await mixedRequest();
          if (result.sentAt > stoppedAt) afterStop.push(result);
          if (afterStop.length >= DURING_OUTAGE) stop = true;
        }
      });
      await sleep(300);
      await cluster.stop();
      stoppedAt = performance.now();
      await loader;

      assert.ok(afterStop.length >= DURING_OUTAGE);
      const wrong = afterStop.filter((r) =>
        r.status !== 503 || !isErrorShape(r.body) || r.body.error.code !== "SERVICE_UNAVAILABLE" ||
        r.headers?.get("retry-after") === null
      );
      assert.deepEqual(
        wrong.map(describe_),
        [],
        `every request while down answers 503; the servers:\n${serversReport()}`,
      );
      const codes = new Set(afterStop.map((r) => `${r.kind}: ${r.body.error.code}`));
      const slowest = Math.max(...afterStop.map((r) => r.ms));
      console.log(
        `outage: ${afterStop.length} requests while down, slowest answer ${
          slowest.toFixed(0)
        } ms, ` +
          `codes ${[...codes].sort().join(", ")}`,
      );
      // Straddling requests (sent before the stop) answer either normally or 503, never a hang.
      const straddling = sent.filter((r) => r.sentAt <= stoppedAt);
      assert.deepEqual(
        straddling.filter((r) => !isSuccess(r) && r.status !== 503).map(describe_),
        [],
      );
    },
  );

  it(
    "started again: the same serve processes answer normally, without a restart",
    slow,
    async () => {
      await cluster.start();
      for (const server of servers) {
        await waitFor(`GET /me on ${server.label} to answer 200 again`, async () => {
          const result = await send(api(server, "/me"), {
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: DEADLINE_MS,
          });
          return result.status === 200 ? true : undefined;
        }, { timeoutMs: 120_000, intervalMs: 250 });
        assert.equal(server.child.exitCode, null, `${server.label} was not restarted`);
      }
      // Service has resumed when a whole round of every kind of request on every process
      // succeeds. Rounds before it may fail: postgres.js 3.4.9 can leave a pooled connection
      // that was writing when the server went away unable to connect for a while (see
      // docs/guarantees.md); they are printed, and the wait is bounded.
      const degraded: string[] = [];
      await waitFor("a whole round of requests to succeed", async () => {
        const results = await runPool(Array.from({ length: 30 }), 6, () => mixedRequest());
        const failed = results.filter((r) => !isSuccess(r));
        degraded.push(...failed.map(describe_));
        return failed.length === 0 ? true : undefined;
      }, { timeoutMs: 180_000, intervalMs: 0 });
      console.log(
        `after the outage: ${degraded.length} requests failed before a clean round` +
          (degraded.length > 0 ? `:\n  ${degraded.join("\n  ")}` : ""),
      );
    },
  );

  it(
    "nothing half-written; every accepted update is processed after the outage",
    slow,
    async () => {
      const updates = new Set(
        (await db.query<{ id: string }>("SELECT update_id::text AS id FROM messenger.updates"))
          .map((r) => r.id),
      );
      const accepted = sent.filter((r) => r.kind === "webhook" && r.status === 200);
      assert.deepEqual(accepted.filter((r) => !updates.has(String(r.updateId))), []);
      const refused = sent.filter((r) => r.kind === "webhook" && r.status === 503);
      assert.ok(refused.length > 0);

      // An update and its hook occurrence are written together or not at all.
      const [orphans] = await db.query<{ updates: number; hooks: number }>(
        `SELECT
         (SELECT count(*)::int4 FROM messenger.updates u WHERE NOT EXISTS (
            SELECT 1 FROM messenger.hook_occurrences h WHERE h.key = u.update_id::text)) AS updates,
         (SELECT count(*)::int4 FROM messenger.hook_occurrences h WHERE NOT EXISTS (
            SELECT 1 FROM messenger.updates u WHERE h.key = u.update_id::text)) AS hooks`,
      );
      assert.deepEqual(orphans, { updates: 0, hooks: 0 });

      // A user and their first session, an organization and its owner: together or not at all.
      const [auth] = await db.query<{ users: number; organizations: number }>(
        `SELECT
         (SELECT count(*)::int4 FROM auth.users u WHERE NOT EXISTS (
            SELECT 1 FROM auth.sessions s WHERE s.user_id = u.id)) AS users,
         (SELECT count(*)::int4 FROM auth.organizations o WHERE NOT EXISTS (
            SELECT 1 FROM auth.members m WHERE m.organization_id = o.id)) AS organizations`,
      );
      assert.deepEqual(auth, { users: 0, organizations: 0 });
      const signedUp = sent.filter((r) => r.kind === "sign-up" && r.status === 200);
      const [{ n }] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM auth.users WHERE email = ANY($1::text[])",
        [signedUp.map((r) => r.email!)],
      );
      assert.equal(n, signedUp.length, "every sign-up answered 200 has its user");

      await waitFor("the hook worker to finish every stored update", async () => {
        const [row] = await db.query<{ open: number }>(
          "SELECT count(*)::int4 AS open FROM messenger.hook_occurrences WHERE status <> 'done'",
        );
        return row.open === 0 ? true : undefined;
      }, { timeoutMs: 120_000, intervalMs: 250 });
    },
  );

  it("no password, token, webhook secret or database password in the server's output", () => {
    for (const server of servers) {
      assert.ok(
        log.text(server.label).includes("unavailable"),
        `${server.label} logged the outage`,
      );
    }
    assert.deepEqual(log.leaks(), []);
    assert.deepEqual(
      log.leaks(
        sent.filter((r) => r.status !== null && r.status >= 400)
          .map((r) => ({ source: `${r.kind} error body`, text: r.text })),
      ),
      [],
    );
  });
});

function isSuccess(r: Outcome): boolean {
  return r.status !== null && r.status >= 200 && r.status < 300;
}

function isErrorShape(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === "string" && /^[A-Z][A-Z0-9_]*$/.test(error.code) &&
    typeof error.message === "string";
}

function describe_(r: Sent): string {
  return `${r.kind} on ${r.server}: ${r.status ?? r.error} ${r.text.slice(0, 200)} (${
    r.ms.toFixed(0)
  } ms)`;
}
