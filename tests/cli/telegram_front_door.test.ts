/**
 * Issue 33's "Done when", through `fragment-cli serve examples/app.ts` (on PostgreSQL, so the test
 * can move a hook the way a dying worker would) against a fake Bot API on 127.0.0.1: a signed-in
 * user asks for the link, a delivered `/start <token>` update links the account, the bot's
 * confirmation reaches the fake Bot API exactly once although both its hooks run again (the
 * outbox's after a 502, the update's as if its worker died after replying), `/me` shows the link,
 * initData signs the user in, a 400 is visible in `fragment-cli hooks … show`, and the bot token
 * is in no output of the server.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { runCli, type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { type FakeBotApi, fakeBotApi } from "../helpers/fake_bot_api.ts";
import { signedInitData } from "../helpers/telegram_signing.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const slow = { timeout: 180_000 };
const BOT_TOKEN = "7000000004:AAH-front_door_token_0123456789abcd";
const SECRET = "front-door-webhook-secret-0123";
const TELEGRAM_USER = { id: 777000111, is_bot: false, first_name: "Ada", username: "ada_tg" };
const BROKEN_CHAT = 400400;

describe("serve examples/app.ts with a Telegram bot (fake Bot API)", {
  skip: !enabledAdapters().includes("postgres"),
}, () => {
  const dir = tempDir();
  let database: TestDatabase;
  let sql: ReturnType<typeof postgres>;
  let api: FakeBotApi;
  let server: ServeProcess | undefined;
  let confirmations = 0;

  before(async () => {
    database = await createTestDatabase();
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
    api = await fakeBotApi((call) => {
      if (call.params?.chat_id === BROKEN_CHAT) {
        return { status: 400, description: "Bad Request: chat not found" };
      }
      // The first confirmation meets a 502: the outbox's hook retries it.
      if (call.method === "sendMessage" && confirmations++ === 0) return { status: 502 };
      return null;
    });
    server = await startServe([app, "--port", "0", "--host", "127.0.0.1", "--migrate"], {
      cwd: dir.path,
      env: {
        DATABASE_URL: database.url,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_BOT_USERNAME: "front_door_bot",
        TELEGRAM_API_ORIGIN: api.url,
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_SECRET_HEADER: "X-Telegram-Bot-Api-Secret-Token",
      },
    });
  }, slow);
  after(async () => {
    await server?.stop();
    await sql?.end();
    await api?.close();
    await database?.drop();
    dir.remove();
  });

  async function deliver(updateId: number, chatId: number, text: string): Promise<void> {
    const response = await fetch(`${server!.url}/api/messenger/messenger/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": SECRET,
      },
      body: JSON.stringify({
        update_id: updateId,
        message: {
          message_id: updateId,
          from: TELEGRAM_USER,
          chat: { id: chatId, type: "private" },
          date: Math.floor(Date.now() / 1000),
          text,
        },
      }),
    });
    assert.equal(response.status, 200, await response.text());
  }

  /** Polls the database (no sleeping on a clock): resolves once `query` answers a row. */
  async function until<T>(query: () => Promise<T[]>, what: string): Promise<T> {
    for (let i = 0; i < 600; i++) {
      const [row] = await query();
      if (row !== undefined) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  let token = "";

  it(
    "links the account from /start <token>, confirms once through the outbox, and /me shows it",
    slow,
    async () => {
      const signUp = await fetch(`${server!.url}/api/auth/sign-up`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
      });
      token = (await signUp.json()).token;
      const link = await fetch(`${server!.url}/api/auth/telegram/link`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(link.status, 200);
      const { url } = await link.json();
      assert.match(url, /^https:\/\/t\.me\/front_door_bot\?start=[A-Za-z0-9_-]{43}$/);
      await deliver(9001, TELEGRAM_USER.id, `/start ${new URL(url).searchParams.get("start")}`);

      const delivered = await api.waitForDelivered(1, 60_000);
      assert.equal(delivered[0].method, "sendMessage");
      assert.equal(delivered[0].token, BOT_TOKEN);
      assert.deepEqual(delivered[0].params, {
        chat_id: TELEGRAM_USER.id,
        text: "Linked to ada@example.com. You can sign in with Telegram now.",
      });
      const me = await fetch(`${server!.url}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual((await me.json()).user.telegram, { id: "777000111", username: "ada_tg" });

      // The update's hook runs again, as when its worker died after replying (lease expired).
      await until(
        () => sql`SELECT 1 FROM messenger.hook_occurrences WHERE key = '9001' AND status = 'done'`,
        "the update processed",
      );
      await sql`UPDATE messenger.hook_occurrences SET status = 'pending', due_at = now(),
              finished_at = NULL WHERE key = '9001'`;
      await until(
        () =>
          sql`SELECT 1 FROM messenger.hook_occurrences
            WHERE key = '9001' AND status = 'done' AND attempts = 2`,
        "the update processed again",
      );
      const replies = await sql<{ status: string; attempts: number }[]>`
      SELECT status, attempts FROM telegram_outbox.hook_occurrences`;
      assert.deepEqual(replies.map((r) => ({ ...r })), [{ status: "done", attempts: 2 }]);
      const sent = api.calls.filter((c) => c.method === "sendMessage");
      assert.equal(sent.length, 2, "one 502, then the confirmation");
      assert.equal(api.delivered.length, 1, "the confirmation reached the Bot API once");
    },
  );

  it("signs the linked user in with initData built from the bot token", slow, async () => {
    const response = await fetch(`${server!.url}/api/auth/telegram/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ initData: signedInitData(BOT_TOKEN, TELEGRAM_USER) }),
    });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).user.email, "ada@example.com");
    const forged = await fetch(`${server!.url}/api/auth/telegram/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        initData: signedInitData("7000000009:AAH-some_other_bot_token_012345", TELEGRAM_USER),
      }),
    });
    assert.equal(forged.status, 401);
    assert.equal((await forged.json()).error.code, "INVALID_TELEGRAM_DATA");
  });

  it(
    "a reply Telegram refuses (400) fails at once, its description in `hooks … show`",
    slow,
    async () => {
      await deliver(9002, BROKEN_CHAT, "/start AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
      const failed = await until(
        () =>
          sql<{ id: string }[]>`SELECT id::text FROM telegram_outbox.hook_occurrences
                              WHERE status = 'failed'`,
        "the refused reply",
      );
      const env = {
        DATABASE_URL: database.url,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_BOT_USERNAME: "front_door_bot",
      };
      const shown = await runCli(
        ["hooks", app, "show", failed.id, "--namespace", "telegram_outbox"],
        { cwd: dir.path, env },
      );
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /sendMessage failed: 400 Bad Request: chat not found/);
      assert.match(shown.stdout, /^ {2}Status: +failed$/m);
      assert.match(shown.stdout, /^ {2}Attempts: +1$/m);
      assert.match(shown.stdout, /^ {2}Order key: +chat:400400$/m);
      assert.ok(!shown.stdout.includes(BOT_TOKEN.split(":")[1]));
    },
  );

  it("never prints the bot token", () => {
    const secret = BOT_TOKEN.split(":")[1];
    assert.ok(!server!.stdout().includes(secret), server!.stdout());
    assert.ok(!server!.stderr().includes(secret), server!.stderr());
  });
});
