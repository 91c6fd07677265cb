// The messenger processes the updates of one chat one at a time, in the order received (their hooks
// carry the chat id as ordering key), other chats and chat-less updates in parallel;
// `orderByChat: false` turns it off. Over HTTP (module.fetch) on PGlite and PostgreSQL.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  messenger,
  type MessengerEvent,
  type MessengerModule,
  type MessengerOptions,
  messengerSchema,
} from "../../src/messenger/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter } from "../../src/sql/mod.ts";
import { chatIdOf, parseUpdate } from "../../src/messenger/update_payload.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const SECRET = "test_secret-0123456789";

function post(bot: MessengerModule, update: Record<string, unknown>): Promise<Response> {
  return bot.fetch(
    new Request(`http://localhost${bot.mountRoute}/messenger/webhook`, {
      method: "POST",
      body: JSON.stringify(update),
      headers: { "content-type": "application/json", "X-Messenger-Bot-Api-Secret-Token": SECRET },
    }),
  );
}

function message(updateId: number, chat: number): Record<string, unknown> {
  return {
    update_id: updateId,
    message: { message_id: updateId, date: 0, chat: { id: chat, type: "private" }, text: "hi" },
  };
}

function callback(updateId: number, chat: number): Record<string, unknown> {
  return {
    update_id: updateId,
    callback_query: {
      id: String(updateId),
      from: { id: 1 },
      data: "x",
      message: { message_id: 1, date: 0, chat: { id: chat, type: "private" } },
    },
  };
}

function inlineQuery(updateId: number): Record<string, unknown> {
  return { update_id: updateId, inline_query: { id: "q", from: { id: 1 }, query: "", offset: "" } };
}

/** The chat of an event, as the tests record it ("-" for none). */
function chatOf(event: MessengerEvent): string {
  return chatIdOf(event.update, event.kind) ?? "-";
}

describe("chatIdOf()", () => {
  it("chatIdOf() finds the chat of messages, member updates and callback queries, not of inline queries", () => {
    const of = (update: Record<string, unknown>) => {
      const parsed = parseUpdate(JSON.stringify(update));
      return chatIdOf(parsed.update, parsed.kind);
    };
    assert.equal(of(message(1, -1001234567890)), "-1001234567890");
    assert.equal(of(callback(2, 42)), "42");
    assert.equal(of({ update_id: 3, chat_member: { chat: { id: 7 } } }), "7");
    assert.equal(of(inlineQuery(4)), null);
    assert.equal(of({ update_id: 5, callback_query: { id: "1", inline_message_id: "m" } }), null);
    assert.equal(of({ update_id: 6, message: { chat: { id: 1.5 } } }), null);
    assert.equal(of({ update_id: 7, unknown_kind: { chat: { id: 1 } } }), null);
  });

  it("messenger() refuses an orderByChat that is not a boolean", () => {
    assert.throws(
      () =>
        messenger({
          database: pgliteAdapter(),
          webhookSecret: SECRET,
          orderByChat: "no" as unknown as boolean,
        }),
      (e: unknown) => e instanceof ModuleConfigError && /orderByChat/.test(e.message),
    );
  });
});

forEachAdapter((name, getAdapter) => {
  let count = 0;
  async function bot(options: Partial<MessengerOptions>): Promise<MessengerModule> {
    const namespace = `chat_order_${name}_${++count}`;
    await migrate(getAdapter(), messengerSchema, { namespace });
    return messenger({
      database: getAdapter(),
      webhookSecret: SECRET,
      namespace,
      autoStart: false,
      concurrency: 6,
      onError: () => {},
      ...options,
    });
  }

  it(`${name}: one chat's updates are processed one at a time in update order, chats in parallel`, {
    timeout: 60_000,
  }, async () => {
    const runs: { chat: string; updateId: number; start: number; end: number }[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const module = await bot({
      onUpdate: async (event) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 6));
        inFlight--;
        runs.push({
          chat: chatOf(event),
          updateId: Number(event.updateId),
          start,
          end: performance.now(),
        });
      },
    });
    // 4 chats × 8 updates (messages and callback queries), plus 4 inline queries.
    let updateId = 100;
    for (let round = 0; round < 8; round++) {
      for (const chat of [11, 12, 13, -1004]) {
        const update = round % 3 === 2 ? callback(++updateId, chat) : message(++updateId, chat);
        assert.equal((await post(module, update)).status, 200);
      }
      if (round % 2 === 0) assert.equal((await post(module, inlineQuery(++updateId))).status, 200);
    }
    // The second update of a chat waits for the first: blocked, not pending.
    assert.equal((await module.api.getUpdate(101))?.status, "pending");
    assert.equal((await module.api.getUpdate(106))?.status, "blocked");
    const stored = await module.hooks.list({ pageSize: 100 });
    assert.deepEqual(
      [...new Set(stored.occurrences.map((o) => o.orderKey))].sort(),
      ["-1004", "11", "12", "13", null].sort(),
    );
    await module.api.drain({ waitForScheduled: true, timeoutMs: 50_000 });
    assert.equal(runs.length, 36);
    for (const chat of ["11", "12", "13", "-1004"]) {
      const own = runs.filter((r) => r.chat === chat).sort((a, b) => a.start - b.start);
      assert.deepEqual(
        own.map((r) => r.updateId),
        [...own.map((r) => r.updateId)].sort((a, b) => a - b),
        `chat ${chat} in update order`,
      );
      for (let i = 1; i < own.length; i++) {
        assert.ok(own[i].start >= own[i - 1].end, `chat ${chat}: two updates overlapped`);
      }
    }
    assert.ok(maxInFlight > 1, "different chats ran in parallel");
    await module.close();
  });

  it(`${name}: updates of one chat arriving together are stored and processed in update order`, {
    timeout: 60_000,
  }, async () => {
    const seen: string[] = [];
    const module = await bot({
      onUpdate: async (event) => {
        seen.push(`${chatOf(event)}:${event.updateId}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    // Sent at once: they share the webhook's grouped statements.
    const updates = [];
    for (let n = 0; n < 24; n++) updates.push(message(500 + n, n % 3));
    const responses = await Promise.all(updates.map((u) => post(module, u)));
    assert.ok(responses.every((r) => r.status === 200));
    await module.api.drain({ waitForScheduled: true, timeoutMs: 50_000 });
    assert.equal(seen.length, 24);
    for (const chat of ["0", "1", "2"]) {
      const own = seen.filter((s) => s.startsWith(`${chat}:`)).map((s) => Number(s.split(":")[1]));
      assert.deepEqual(own, [...own].sort((a, b) => a - b), `chat ${chat}`);
    }
    await module.close();
  });

  it(`${name}: orderByChat: false processes one chat's updates in parallel`, {
    timeout: 30_000,
  }, async () => {
    let release!: () => void;
    const secondStarted = new Promise<void>((resolve) => (release = resolve));
    const module = await bot({
      orderByChat: false,
      onMessage: async ({ updateId }) => {
        if (updateId === "1") {
          // Finishes only once update 2 (same chat) has started: impossible if ordered.
          const timeout = new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error("update 2 did not start meanwhile")), 5000)
          );
          await Promise.race([secondStarted, timeout]);
        } else release();
      },
    });
    await post(module, message(1, 77));
    await post(module, message(2, 77));
    assert.equal((await module.api.getUpdate(2))?.status, "pending");
    assert.equal((await module.hooks.list()).occurrences.every((o) => o.orderKey === null), true);
    assert.deepEqual(await module.api.drain(), { done: 2, retried: 0, failed: 0 });
    await module.close();
  });
});
