// Issue 30, point 1: the first requests after a cold start bind arrays (the webhook's
// `unnest($1::int8[], …)`, `/me`, organization lists, the hook worker's first claim) while
// postgres.js may not have fetched the server's array types yet; an array sent before that
// reached the server as `800000107` (22P02 `malformed array literal`, a 500). Here: 20 cold
// starts per runtime (Deno, Node, Bun), each answering at once a burst of concurrent first
// requests while the previous start's updates wait for the new worker's first claim: no 5xx, every
// delivery stored, one hook occurrence per update, none failed.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createInterface } from "node:readline";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { childEnv } from "../../helpers/cli_process.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { AuthClient, type SignedUp } from "../helpers/auth_client.ts";
import { type Outcome, send } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { argsFor, runtimeBinary, type RuntimeName } from "../helpers/serve_process.ts";
import {
  messageUpdate,
  migrateSystem,
  newWebhookSecret,
  SECRET_HEADER,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const STARTS = 20;
const DELIVERIES = 8;
const RUNTIMES: readonly RuntimeName[] = ["deno", "node", "bun"];
const APP = fileURLToPath(new URL("../fixtures/cold_start_app.ts", import.meta.url));
const slow = { timeout: 900_000 };

/** Starts the app on `runtime`; resolves with its URL and a kill switch. */
async function coldStart(
  runtime: RuntimeName,
  env: Record<string, string>,
  log: OutputLog,
  label: string,
): Promise<{ url: string; kill(): Promise<void> }> {
  const child = spawn(await runtimeBinary(runtime), argsFor(runtime, APP, []), {
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  log.attach(label, child);
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const found = /^listening (\S+)$/.exec(line)?.[1];
      if (found) resolve(found);
    });
    exited.then(() => reject(new Error(`${label} exited before listening:\n${log.text(label)}`)));
  });
  return {
    url,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

describe("cold starts on postgres.js: concurrent first requests binding arrays", () => {
  const log = new OutputLog();
  const client = new AuthClient(log);
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  let user: SignedUp;
  let env: Record<string, string>;

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrateSystem(database.url, log, secret);
    env = systemEnv(database.url, secret, { HOOK_POLL_MS: "200" });
    const warm = await coldStart("deno", env, log, "set-up");
    try {
      user = await client.signUp(warm.url, "cold");
      const created = await client.call(warm.url, "POST", "/organizations", user.token, {
        name: "Cold starts",
        slug: `cold-${crypto.randomUUID().slice(0, 8)}`,
      });
      assert.equal(created.status, 201, created.text);
    } finally {
      await warm.kill();
    }
  }, slow);

  after(async () => {
    await db?.close();
    await database?.drop();
  }, slow);

  it(
    `${STARTS} cold starts per runtime answer their first requests without a 5xx`,
    slow,
    async () => {
      const sent = new Set<number>();
      const failures: string[] = [];
      await Promise.all(RUNTIMES.map(async (runtime, r) => {
        for (let start = 0; start < STARTS; start++) {
          const label = `${runtime} start ${start}`;
          const app = await coldStart(runtime, env, log, label);
          try {
            const base = 800_000_000 + r * 10_000 + start * 100;
            const ids = Array.from({ length: DELIVERIES }, (_, i) => base + i);
            ids.forEach((id) => sent.add(id));
            const requests: Array<Promise<Outcome>> = [
              ...ids.map((id, i) =>
                send(`${app.url}${WEBHOOK_PATH}`, {
                  body: messageUpdate(id, `cold ${id}`, i % 3),
                  headers: { [SECRET_HEADER]: secret, "content-type": "application/json" },
                })
              ),
              client.call(app.url, "GET", "/me", user.token),
              client.call(app.url, "GET", "/me", user.token),
              client.call(app.url, "GET", "/organizations", user.token),
              client.call(app.url, "GET", "/organizations?pageSize=5", user.token),
            ];
            const outcomes = await Promise.all(requests);
            outcomes.forEach((o) => {
              if (o.status !== 200) failures.push(`${label}: ${o.status ?? o.error} ${o.text}`);
            });
          } finally {
            await app.kill();
          }
        }
      }));
      assert.deepEqual(failures, [], `${failures.length} first requests failed`);
      assert.doesNotMatch(log.text(), /malformed array literal|unhandled error/);

      const [stored] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM messenger.updates WHERE update_id = ANY($1::int8[])",
        [[...sent].map(String)],
      );
      assert.equal(stored.n, sent.size, "every delivery answered 200 is stored");
      // The killed processes left updates behind (pending, or running until their lease ends):
      // one occurrence per update, none given up, no attempt failed (on an array or otherwise).
      const [hooks] = await db.query<{ n: number; failed: number }>(
        `SELECT count(*)::int4 AS n,
                (count(*) FILTER (WHERE status = 'failed' OR last_error IS NOT NULL))::int4 AS failed
         FROM messenger.hook_occurrences`,
      );
      assert.deepEqual(hooks, { n: sent.size, failed: 0 });
    },
  );
});
