/**
 * The system under test, as a user runs it: `tests/reliability/fixtures/system_app.ts` (auth +
 * messenger on one PostgreSQL database) migrated with `fragment-cli db migrate` and served by
 * `fragment-cli serve` processes; plus the update payloads and secrets the tests send.
 *
 * @example
 * ```ts ignore
 * const database = await createTestDatabase();
 * await migrateSystem(database.url, log);
 * const server = await startServe({ app: SYSTEM_APP, env: systemEnv(database.url, secret), log, label: "A" });
 * ```
 *
 * @module
 */
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { SqlQuerier } from "../../../src/sql/mod.ts";
import type { OutputLog } from "./output_log.ts";
import { runPool, send } from "./http_load.ts";
import { runCliToEnd } from "./serve_process.ts";

/** The app file served by the reliability tests. */
export const SYSTEM_APP: string = fileURLToPath(
  new URL("../fixtures/system_app.ts", import.meta.url),
);

/** The namespaces whose tables the system writes. */
export const SYSTEM_NAMESPACES: readonly string[] = ["auth", "messenger"];

/** The webhook path under the messenger mount. */
export const WEBHOOK_PATH = "/api/messenger/messenger/webhook";

/** The secret header of the webhook. */
export const SECRET_HEADER = "x-messenger-bot-api-secret-token";

const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/** A fresh webhook secret (48 characters of the allowed alphabet), registered in `log`. */
export function newWebhookSecret(log: OutputLog): string {
  const bytes = crypto.getRandomValues(new Uint8Array(48));
  const secret = Array.from(bytes, (b) => SECRET_ALPHABET[b % SECRET_ALPHABET.length]).join("");
  return log.secret(secret, "webhook secret");
}

/** A fresh password, registered in `log`. */
export function newPassword(log: OutputLog): string {
  return log.secret(`pw-${crypto.randomUUID()}`, "password");
}

/**
 * The file the system's verification mails go to (`VERIFICATION_MAILBOX`), one per test process;
 * read by `AuthClient.verify`.
 */
export const VERIFICATION_MAILBOX: string = join(
  tmpdir(),
  `fragment-verification-${process.pid}-${crypto.randomUUID().slice(0, 8)}.jsonl`,
);

/** The environment of a serve process of the system. */
export function systemEnv(
  databaseUrl: string,
  webhookSecret: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET: webhookSecret,
    VERIFICATION_MAILBOX,
    ...extra,
  };
}

/** Runs `fragment-cli db migrate` on the system's database and checks it succeeded. */
export async function migrateSystem(
  databaseUrl: string,
  log: OutputLog,
  webhookSecret = "migrate-only-secret",
): Promise<void> {
  const result = await runCliToEnd(["db", "migrate", SYSTEM_APP], {
    log,
    label: "db migrate",
    env: systemEnv(databaseUrl, webhookSecret),
  });
  assert.equal(result.code, 0, result.output);
}

/** Creates `reliability.handler_runs`, where the fixture's handler records its runs. */
export async function createRunsTable(db: SqlQuerier): Promise<void> {
  await db.query("CREATE SCHEMA IF NOT EXISTS reliability");
  await db.query(
    `CREATE TABLE IF NOT EXISTS reliability.handler_runs (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       update_id text NOT NULL,
       pid int4 NOT NULL,
       attempt int4 NOT NULL,
       started_at timestamptz NOT NULL,
       finished_at timestamptz
     )`,
  );
}

/** One handler run as recorded by the fixture. */
export interface HandlerRun {
  update_id: string;
  pid: number;
  attempt: number;
  started_at: Date;
  finished_at: Date | null;
}

/** Every recorded handler run, by update and start time. */
export async function handlerRuns(db: SqlQuerier): Promise<HandlerRun[]> {
  return await db.query<HandlerRun>(
    `SELECT update_id, pid, attempt, started_at, finished_at FROM reliability.handler_runs
     ORDER BY update_id, started_at, id`,
  );
}

/**
 * A message update as the messenger sends it, with an extra field the module does not interpret
 * (it must be stored verbatim).
 */
export function messageUpdate(
  updateId: number,
  text = `hello ${updateId}`,
  chatId = 42,
): string {
  return JSON.stringify({
    update_id: updateId,
    message: {
      message_id: updateId % 100_000,
      date: 1_700_000_000,
      chat: { id: chatId, type: "private" },
      text,
    },
    x_unknown_field: { kept: true },
  });
}

/** A small seeded PRNG (mulberry32): the same seed gives the same load plan. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `items` in place with `random`. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** One webhook delivery of a load: which update, to which server (an index of `urls`). */
export interface Delivery {
  updateId: number;
  server: number;
}

/**
 * Sends `deliveries` to the webhook of the servers at `urls`, `concurrency` at a time, and checks
 * the exactly-once answers: every delivery answered 200 `ok`, and for each of the `distinct`
 * update ids exactly one delivery answered as new (the others as duplicates). `body` makes each
 * delivery's body (default {@link messageUpdate}).
 */
export async function deliverExactlyOnce(
  urls: readonly string[],
  deliveries: readonly Delivery[],
  options: {
    secret: string;
    concurrency: number;
    distinct: number;
    body?: (updateId: number) => string;
  },
): Promise<void> {
  const results = await runPool(
    deliveries,
    options.concurrency,
    (d) =>
      send(`${urls[d.server]}${WEBHOOK_PATH}`, {
        body: (options.body ?? messageUpdate)(d.updateId),
        headers: { [SECRET_HEADER]: options.secret, "content-type": "application/json" },
      }),
  );
  const bad = results.filter((r) => r.status !== 200 || r.body?.ok !== true);
  assert.deepEqual(bad.slice(0, 3), [], `${bad.length} deliveries did not answer 200 ok`);
  const fresh = new Map<number, number>();
  results.forEach((r, i) => {
    if (r.body.duplicate !== true) {
      const id = deliveries[i].updateId;
      fresh.set(id, (fresh.get(id) ?? 0) + 1);
    }
  });
  assert.equal(fresh.size, options.distinct, "every update_id has one delivery answered as new");
  assert.ok([...fresh.values()].every((n) => n === 1), "no update_id answered as new twice");
}
