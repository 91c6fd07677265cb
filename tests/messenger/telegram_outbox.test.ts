// telegramOutbox() against a fake Bot API on 127.0.0.1 (issue 33): 300 sends to 3 chats with
// occasional 429s are each delivered once, in order per chat, never faster than the configured
// limits (checked on the fake server's arrival times, with a tolerance for the loopback's jitter);
// a 429 waits its retry_after without counting an attempt; 5xx and network errors retry; a 400
// fails at once with Telegram's description; `key` is idempotent; the send belongs to the
// caller's transaction; the bot token is in no stored payload or error.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { migrate } from "../../src/migrate/mod.ts";
import { type TelegramOutbox, telegramOutbox } from "../../src/messenger/mod.ts";
import { telegramOutboxSchema } from "../../src/messenger/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import { type BotApiCall, type FakeBotApi, fakeBotApi } from "../helpers/fake_bot_api.ts";
import { closedPort } from "../helpers/local_server.ts";

const BOT_TOKEN = "7000000003:AAH-outbox_test_token_0123456789abcd";
/** Timer and loopback jitter allowed below a configured gap, in milliseconds. */
const TOLERANCE_MS = 6;

let db: SqlAdapter;
let namespaces = 0;
const opened: { outbox: TelegramOutbox; api: FakeBotApi }[] = [];

before(() => {
  db = pgliteAdapter();
});
after(async () => {
  for (const { outbox, api } of opened) {
    await outbox.close();
    await api.close();
  }
  await db.close();
});

/** An outbox in a fresh namespace, on a fake Bot API answering as `script` says. */
async function setUp(
  script: Parameters<typeof fakeBotApi>[0],
  options: Partial<Parameters<typeof telegramOutbox>[0]> = {},
): Promise<{ outbox: TelegramOutbox; api: FakeBotApi; namespace: string }> {
  const namespace = `outbox_${++namespaces}`;
  await migrate(db, telegramOutboxSchema, { namespace });
  const api = await fakeBotApi(script);
  const outbox = telegramOutbox({
    database: db,
    botToken: BOT_TOKEN,
    apiOrigin: api.url,
    namespace,
    autoStart: false,
    retryDelayMs: 10,
    maxRetryDelayMs: 20,
    onError: () => {},
    ...options,
  });
  opened.push({ outbox, api });
  return { outbox, api, namespace };
}

describe("telegramOutbox(): ordering and limits", () => {
  it("300 sends to 3 chats with occasional 429s: each delivered once, in order per chat, never faster than perChat and global", async () => {
    const PER_CHAT = 40; // a 25 ms gap per chat
    const GLOBAL = 100; // a 10 ms gap overall
    const throttled = new Set([20, 95, 170]); // these calls get a 429 with retry_after 1
    const { outbox, api } = await setUp(
      (call) => throttled.has(call.index) ? { status: 429, retryAfter: 1 } : null,
      { perChat: PER_CHAT, global: GLOBAL, concurrency: 4 },
    );
    const chats = [-1001, 42, 777];
    await db.transaction(async (tx) => {
      for (let i = 0; i < 100; i++) {
        for (const chat of chats) {
          await outbox.send(tx, "sendMessage", { chat_id: chat, text: `${chat}:${i}` });
        }
      }
    });
    await outbox.hooks.drain({ waitForScheduled: true, timeoutMs: 60_000 });

    assert.equal(api.delivered.length, 300);
    assert.equal(api.calls.length, 303, "each 429 is called again once");
    for (const chat of chats) {
      const texts = api.delivered.filter((c) => c.params.chat_id === chat).map((c) =>
        c.params.text
      );
      assert.deepEqual(texts, Array.from({ length: 100 }, (_, i) => `${chat}:${i}`));
      // Every call to one chat (429s included) at least 1/PER_CHAT s after the previous one…
      const calls = api.calls.filter((c) => c.params.chat_id === chat);
      for (let i = 1; i < calls.length; i++) {
        const gap = calls[i].at - calls[i - 1].at;
        const wanted = throttled.has(calls[i - 1].index) ? 1000 : 1000 / PER_CHAT;
        assert.ok(gap >= wanted - TOLERANCE_MS, `chat ${chat}: ${gap} ms < ${wanted} ms`);
      }
    }
    // …and never more than GLOBAL a second in all: any 11 consecutive calls span ≥ 10 gaps.
    const all: BotApiCall[] = [...api.calls].sort((a, b) => a.at - b.at);
    for (let i = 10; i < all.length; i++) {
      const span = all[i].at - all[i - 10].at;
      assert.ok(span >= 10 * (1000 / GLOBAL) - TOLERANCE_MS, `11 calls in ${span} ms`);
    }
    // A 429 is not a failed attempt: every occurrence succeeded on its first.
    const page = await outbox.hooks.list({ pageSize: 100, status: "done" });
    assert.ok(page.occurrences.every((o) => o.attempts === 1));
    assert.equal((await outbox.hooks.counts()).failed, 0);
  });
});

describe("telegramOutbox(): failures", () => {
  it("a 400 fails at once with Telegram's description; the chat's next message still goes", async () => {
    const { outbox, api } = await setUp((call) =>
      call.params.text === "bad"
        ? { status: 400, description: "Bad Request: chat not found" }
        : null
    );
    const bad = await outbox.send(null, "sendMessage", { chat_id: 5, text: "bad" });
    await outbox.send(null, "sendMessage", { chat_id: 5, text: "next" });
    await outbox.hooks.drain({ waitForScheduled: true });
    const occurrence = await outbox.hooks.get(bad.id);
    assert.equal(occurrence!.status, "failed");
    assert.equal(occurrence!.attempts, 1);
    assert.match(occurrence!.lastError!, /sendMessage failed: 400 Bad Request: chat not found/);
    assert.deepEqual(api.delivered.map((c) => c.params.text), ["next"]);
  });

  it("5xx answers retry with backoff, then deliver once", async () => {
    let failures = 2;
    const { outbox, api } = await setUp(() =>
      failures-- > 0 ? { status: 502, description: "Bad Gateway" } : null
    );
    const sent = await outbox.send(null, "sendMessage", { chat_id: 9, text: "hi" });
    await outbox.hooks.drain({ waitForScheduled: true });
    const occurrence = await outbox.hooks.get(sent.id);
    assert.equal(occurrence!.status, "done");
    assert.equal(occurrence!.attempts, 3);
    assert.equal(api.delivered.length, 1);
    assert.match(occurrence!.errors[0].error, /502 Bad Gateway/);
  });

  it("network errors retry, and no error names the bot token", async () => {
    const port = await closedPort();
    const { outbox } = await setUp(() => null, {
      apiOrigin: `http://127.0.0.1:${port}`,
      maxAttempts: 2,
    });
    const sent = await outbox.send(null, "getMe", {});
    await outbox.hooks.drain({ waitForScheduled: true });
    const occurrence = await outbox.hooks.get(sent.id);
    assert.equal(occurrence!.status, "failed");
    assert.equal(occurrence!.attempts, 2);
    assert.match(occurrence!.lastError!, /getMe: network error/);
    for (const { error } of occurrence!.errors) {
      assert.ok(!error.includes(BOT_TOKEN) && !error.includes(BOT_TOKEN.split(":")[1]), error);
    }
  });
});

describe("telegramOutbox(): idempotency and transactions", () => {
  it("one delivery per key", async () => {
    const { outbox, api } = await setUp(() => null);
    const first = await outbox.send(null, "sendMessage", { chat_id: 1, text: "once" }, {
      key: "update:1001:reply:1",
    });
    const again = await outbox.send(null, "sendMessage", { chat_id: 1, text: "once" }, {
      key: "update:1001:reply:1",
    });
    assert.equal(again.duplicate, true);
    assert.equal(again.id, first.id);
    await outbox.hooks.drain({ waitForScheduled: true });
    assert.equal(api.delivered.length, 1);
  });

  it("a send in a rolled-back transaction is never delivered; a committed one is", async () => {
    const { outbox, api } = await setUp(() => null);
    await assert.rejects(db.transaction(async (tx) => {
      await outbox.send(tx, "sendMessage", { chat_id: 2, text: "rolled back" });
      throw new Error("abort");
    }));
    await db.transaction((tx) => outbox.send(tx, "sendMessage", { chat_id: 2, text: "kept" }));
    await outbox.hooks.drain({ waitForScheduled: true });
    assert.deepEqual(api.delivered.map((c) => c.params.text), ["kept"]);
    assert.equal(api.delivered[0].token, BOT_TOKEN, "the token travels in the URL only");
  });

  it("stores the method and parameters, never the token", async () => {
    const { outbox, namespace } = await setUp(() => null);
    await outbox.send(null, "sendMessage", { chat_id: 3, text: "stored", skip: undefined });
    const [row] = await db.query<{ text: string }>(
      `SELECT string_agg(row_to_json(h)::text, ' ') AS text FROM "${namespace}".hook_occurrences h`,
    );
    assert.match(row.text, /"method": ?"sendMessage"/);
    assert.ok(!row.text.includes(BOT_TOKEN.split(":")[1]));
    await outbox.hooks.drain({ waitForScheduled: true });
  });

  it("refuses a bad method, params or key, and bad options without quoting the token", async () => {
    const { outbox } = await setUp(() => null);
    await assert.rejects(outbox.send(null, "send/Message", {}), TypeError);
    await assert.rejects(outbox.send(null, "sendMessage", [] as never), TypeError);
    await assert.rejects(outbox.send(null, "sendMessage", {}, { key: "" }), TypeError);
    for (
      const options of [
        { botToken: `${BOT_TOKEN}!` },
        { apiOrigin: "ftp://x" },
        { apiOrigin: "https://api.telegram.org/path" },
        { perChat: 0 },
        { global: -1 },
      ]
    ) {
      assert.throws(
        () => telegramOutbox({ database: db, botToken: BOT_TOKEN, ...options }),
        (error: Error) => error instanceof ModuleConfigError && !error.message.includes(BOT_TOKEN),
      );
    }
  });
});
