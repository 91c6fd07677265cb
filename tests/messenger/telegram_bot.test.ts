// `fragment-cli serve` of the Telegram bot of docs/telegram.md (tests/fixtures/messenger/
// telegram_bot.ts): grammY from npm handles the stored updates inside the durable hook and calls a
// fake Bot API on localhost (no network). Checked through the real process: the printed webhook URL
// and secret header, a reply reaching the fake Bot API once, a hook retried after its reply that
// does not reply twice, a redelivery that does not either, and one update of every kind stored and
// handled with its kind (an unknown future field as `other`).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { UPDATE_FIXTURES } from "../fixtures/messenger/updates.ts";

const app = fileURLToPath(new URL("../fixtures/messenger/telegram_bot.ts", import.meta.url));
const slow = { timeout: 180_000 };
const TOKEN = "123456:TEST-token";
const SECRET = "telegram_secret-0123456789";
const HEADER = "X-Telegram-Bot-Api-Secret-Token";
const ORIGIN = "https://bot.example.com";
const WEBHOOK_PATH = "/api/telegram/messenger/webhook";

/** One call the bot made to the fake Bot API. */
interface ApiCall {
  method: string;
  payload: Record<string, unknown>;
  ok: boolean;
}

/** A Bot API on localhost that records every call; `setMessageReaction` on message 77 fails once. */
function fakeBotApi(calls: ApiCall[]): Promise<LocalServer> {
  let failedReaction = false;
  let messageId = 5000;
  return listenLocal(async (request) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(request.url).pathname);
    if (!match || match[1] !== TOKEN) {
      return Response.json({ ok: false, error_code: 404, description: "Not Found" }, {
        status: 404,
      });
    }
    const method = match[2];
    const text = await request.text();
    const payload = text ? JSON.parse(text) as Record<string, unknown> : {};
    if (method === "setMessageReaction" && payload.message_id === 77 && !failedReaction) {
      failedReaction = true;
      calls.push({ method, payload, ok: false });
      return Response.json(
        { ok: false, error_code: 500, description: "Internal Server Error: try again" },
        { status: 500 },
      );
    }
    calls.push({ method, payload, ok: true });
    const results: Record<string, unknown> = {
      getMe: {
        id: 7000000001,
        is_bot: true,
        first_name: "Helper",
        username: "helper_bot",
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
      sendMessage: {
        message_id: ++messageId,
        date: 1764072000,
        chat: { id: payload.chat_id, type: "private", first_name: "Ada" },
        text: payload.text,
      },
    };
    return Response.json({ ok: true, result: results[method] ?? true });
  });
}

function deliver(
  server: ServeProcess,
  body: unknown,
  headers: Record<string, string> = { [HEADER]: SECRET },
): Promise<Response> {
  return fetch(`${server.url}${WEBHOOK_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** A text message from the user of the fixtures, in their private chat. */
function textUpdate(updateId: number, messageId: number, text: string): unknown {
  const user = { id: 111222333, is_bot: false, first_name: "Ada" };
  return {
    update_id: updateId,
    message: {
      message_id: messageId,
      date: 1764072000,
      from: user,
      chat: { id: user.id, type: "private", first_name: "Ada" },
      text,
    },
  };
}

/** Resolves once `output()` matches `pattern` (the test's timeout bounds the wait). */
async function printed(output: () => string, pattern: RegExp): Promise<void> {
  while (!pattern.test(output())) await new Promise((r) => setTimeout(r, 50));
}

describe("serve a grammY bot on the messenger module (fake Bot API on localhost)", () => {
  const dir = tempDir();
  const calls: ApiCall[] = [];
  let api: LocalServer;
  let server: ServeProcess | undefined;
  const replies = (text: string) =>
    calls.filter((c) => c.method === "sendMessage" && c.payload.text === text);

  before(async () => {
    api = await fakeBotApi(calls);
  });
  after(async () => {
    await server?.stop();
    await api.close();
    dir.remove();
  });

  it(
    "prints the webhook URL on PUBLIC_ORIGIN and the secret header's name, not the secret",
    slow,
    async () => {
      server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
        cwd: dir.path,
        env: {
          BOT_TOKEN: TOKEN,
          BOT_API_ROOT: api.url,
          WEBHOOK_SECRET: SECRET,
          PUBLIC_ORIGIN: ORIGIN,
        },
      });
      const out = server.stdout();
      assert.match(out, /^ {4}POST +\/api\/telegram\/messenger\/webhook$/m);
      assert.match(
        out,
        new RegExp(`^ {2}Webhook URL \\(for setWebhook\\): ${ORIGIN}${WEBHOOK_PATH}$`, "m"),
      );
      assert.match(
        out,
        new RegExp(`^ {4}Secret header: ${HEADER} \\(its value: webhookSecret\\)$`, "m"),
      );
      assert.ok(
        !out.includes(SECRET) && !server.stderr().includes(SECRET),
        "the secret is not shown",
      );
    },
  );

  it(
    "a stored message reaches the grammY handler, which replies through the Bot API",
    slow,
    async () => {
      // The messenger's default header is not Telegram's: refused, nothing stored.
      const wrongHeader = await deliver(server!, textUpdate(100, 70, "hi grammY"), {
        "X-Messenger-Bot-Api-Secret-Token": SECRET,
      });
      assert.equal(wrongHeader.status, 401);
      await wrongHeader.body?.cancel();
      const response = await deliver(server!, textUpdate(100, 70, "hi grammY"));
      assert.deepEqual(await response.json(), { ok: true });
      await printed(server!.stdout, /^\[telegram\] update 100 \(message\) handled on attempt 1$/m);
      assert.deepEqual(replies("You said: hi grammY").map((c) => c.payload.chat_id), [111222333]);
      const reactions = calls.filter((c) => c.method === "setMessageReaction");
      assert.deepEqual(reactions.map((c) => c.payload.message_id), [70]);
      // getMe once, before the first update; never again.
      assert.equal(calls.filter((c) => c.method === "getMe").length, 1);
    },
  );

  it("a redelivered update is a duplicate and gets no second reply", slow, async () => {
    const again = await deliver(server!, textUpdate(100, 70, "hi grammY"));
    assert.deepEqual(await again.json(), { ok: true, duplicate: true });
    // A later update is handled after it: had the duplicate been processed, it would be by now.
    assert.deepEqual(await (await deliver(server!, textUpdate(102, 72, "later"))).json(), {
      ok: true,
    });
    await printed(server!.stdout, /^\[telegram\] update 102 \(message\) handled/m);
    assert.equal(replies("You said: hi grammY").length, 1);
    assert.equal(server!.stdout().match(/update 100 \(message\) handled/g)?.length, 1);
  });

  it(
    "a hook retried after its reply (the next Bot API call failed) does not reply twice",
    slow,
    async () => {
      const response = await deliver(server!, textUpdate(101, 77, "flaky reaction"));
      assert.deepEqual(await response.json(), { ok: true });
      await printed(server!.stdout, /^\[telegram\] update 101 \(message\) handled on attempt 2$/m);
      assert.doesNotMatch(server!.stdout(), /update 101 \(message\) handled on attempt 1/);
      // Attempt 1 replied, then its reaction failed; attempt 2 replayed the reply and reacted.
      assert.equal(replies("You said: flaky reaction").length, 1);
      const reactions = calls.filter((c) =>
        c.method === "setMessageReaction" && c.payload.message_id === 77
      );
      assert.deepEqual(reactions.map((c) => c.ok), [false, true]);
    },
  );

  it(
    "an update of every Bot API kind is stored and handled with its kind; an unknown field is `other`",
    slow,
    async () => {
      const updates: Array<[unknown, string]> = Object.entries(UPDATE_FIXTURES).map((
        [kind, update],
      ) => [update, kind]);
      updates.push([{ update_id: 999, some_future_update: { id: "x" } }, "other"]);
      for (const [update] of updates) {
        const response = await deliver(server!, update);
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), { ok: true });
      }
      for (const [update, kind] of updates) {
        const id = (update as { update_id: number }).update_id;
        await printed(
          server!.stdout,
          new RegExp(`^\\[telegram\\] update ${id} \\(${kind}\\) handled`, "m"),
        );
      }
      // The callback_query reached grammY's callback_query handler.
      const answers = calls.filter((c) => c.method === "answerCallbackQuery");
      assert.deepEqual(answers.map((c) => c.payload), [
        { callback_query_id: "4382bfdwdsb323b2d9", text: "Got it" },
      ]);
    },
  );
});
