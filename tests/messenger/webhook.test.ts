// POST /messenger/webhook over HTTP (module.fetch) on PGlite and the PostgreSQL server: the secret,
// body validation, each update kind, exact raw storage, duplicates, concurrency, the processing
// status from the durable hook, and the database errors.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ModuleConfigError } from "../../mod.ts";
import {
  type KnownMessengerUpdateKind,
  messenger,
  MESSENGER_UPDATE_KINDS,
  type MessengerEvent,
  type MessengerModule,
  type MessengerOptions,
  messengerSchema,
} from "../../src/messenger/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { parseUpdate } from "../../src/messenger/update_payload.ts";
import { secretMatcher } from "../../src/messenger/webhook_secret.ts";
import { UPDATE_FIXTURES } from "../fixtures/messenger/updates.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const SECRET = "test_secret-0123456789";
const HEADER = "X-Messenger-Bot-Api-Secret-Token";

function post(
  bot: MessengerModule,
  body: BodyInit | null,
  headers: Record<string, string> = { [HEADER]: SECRET },
): Promise<Response> {
  return bot.fetch(
    new Request(`http://localhost${bot.mountRoute}/messenger/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
      // Needed by Node for a streamed body; ignored otherwise.
      duplex: "half",
    } as RequestInit),
  );
}

async function expectError(response: Response, status: number, code: string): Promise<void> {
  assert.equal(response.status, status);
  const body = await response.json();
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, "string");
}

describe("secretMatcher()", () => {
  it("secretMatcher() accepts the secret only: not a prefix, an extension or another case", () => {
    const longest = "a".repeat(256);
    for (const secret of ["s", "test_secret-0123456789", longest]) {
      const matches = secretMatcher(secret);
      assert.equal(matches(secret), true);
      for (
        const other of [null, "", secret.slice(0, -1), `${secret}a`, `${secret}\u0000`, "S", "t"]
      ) {
        if (other !== secret) assert.equal(matches(other), false, JSON.stringify(other));
      }
      assert.equal(matches(`${longest}a`), false);
    }
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (a, b) => {
      const secret = a.slice(0, 256) || "x";
      assert.equal(secretMatcher(secret)(b), b === secret);
    }));
  });
});

describe("parseUpdate()", () => {
  it("parseUpdate() reads update_id from the text: exact beyond 2^53, top level only", () => {
    const tricky = `{"message": {"update_id": 1, "text": "}\\"{[", "x": [{"update_id": 2}]},` +
      ` "update\\u005fid": 9007199254740993}`;
    const parsed = parseUpdate(tricky);
    assert.equal(parsed.updateId, "9007199254740993");
    assert.equal(parsed.kind, "message");
    assert.equal(parseUpdate('{"update_id":1,"update_id":0}').updateId, "0");
    assert.equal(parseUpdate('{"update_id": 7, "message": "text"}').kind, "other");
    assert.equal(parseUpdate('{"update_id": 8, "poll": {"id": "1"}}').kind, "poll");
    assert.equal(parseUpdate('{"update_id": 9, "a_future_kind": {}}').kind, "other");
    assert.throws(() => parseUpdate('{"message": {"update_id": 1}}'), /no update_id/);
  });

  it("parseUpdate() finds the top-level update_id of any JSON text around it", () => {
    // Keys and strings with quotes, backslashes (escaped quotes after an even or odd number of
    // them), braces and brackets, nested update_ids, repeated keys, any whitespace.
    const text = fc.string({
      unit: fc.constantFrom("a", '"', "\\", "{", "}", "[", "]", ",", ":", " "),
    });
    const key = fc.oneof(fc.constant("update_id"), text, fc.constant("message"));
    const scalar = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: "small" }, scalar, tie("array"), tie("object")),
      array: fc.array(tie("tree"), { maxLength: 4 }),
      object: fc.array(fc.tuple(key, tie("tree")), { maxLength: 4 }),
    }));
    const space = fc.constantFrom("", " ", "\n\t ", "\r\n");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, tree), { maxLength: 5 }),
        fc.nat({ max: 2 ** 53 - 1 }),
        fc.nat(),
        space,
        (entries, updateId, at, ws) => {
          // Built by hand so that repeated keys survive; update_id goes somewhere among them.
          const members = entries.map(([k, v]) =>
            `${JSON.stringify(k)}${ws}:${ws}${stringify(v, ws)}`
          );
          members.splice(at % (members.length + 1), 0, `"update_id"${ws}:${ws}${updateId}`);
          const body = `${ws}{${ws}${members.join(`${ws},${ws}`)}${ws}}${ws}`;
          const expected = (JSON.parse(body) as { update_id: unknown }).update_id;
          if (typeof expected !== "number") {
            assert.throws(() => parseUpdate(body), /update_id must be an integer/);
          } else if (expected < 0) {
            assert.throws(() => parseUpdate(body), /written without sign/);
          } else {
            assert.equal(parseUpdate(body).updateId, String(expected));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** JSON text of a tree of `[key, value]` lists (objects) and arrays, keys possibly repeated. */
function stringify(value: unknown, ws: string): string {
  if (Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2)) {
    // An object (as built by the arbitrary), or an array of pairs: both are valid either way.
    const pairs = value as [unknown, unknown][];
    if (pairs.every(([k]) => typeof k === "string")) {
      return `{${
        pairs.map(([k, v]) => `${JSON.stringify(k)}${ws}:${ws}${stringify(v, ws)}`).join(",")
      }}`;
    }
  }
  if (Array.isArray(value)) {
    return `[${ws}${value.map((v) => stringify(v, ws)).join(`,${ws}`)}${ws}]`;
  }
  return JSON.stringify(value);
}

describe("messenger() options", () => {
  const database = pgliteAdapter();
  for (
    const [label, secret] of [
      ["missing", undefined],
      ["empty", ""],
      ["with a space", "a b"],
      ["too long", "x".repeat(257)],
      ["not a string", 42],
    ] as const
  ) {
    it(`messenger() refuses a ${label} webhookSecret at instantiation`, () => {
      assert.throws(
        () => messenger({ database, webhookSecret: secret as unknown as string }),
        (e: unknown) => e instanceof ModuleConfigError && /webhookSecret/.test(e.message),
      );
    });
  }
  it("messenger() refuses a missing database and a non-function handler", () => {
    assert.throws(
      () => messenger({ webhookSecret: SECRET } as MessengerOptions),
      (e: unknown) => e instanceof ModuleConfigError && /database/.test(e.message),
    );
    assert.throws(
      () => messenger({ database, webhookSecret: SECRET, onMessage: "x" as never }),
      /onMessage: must be a function/,
    );
  });
  it("messenger() refuses a publicOrigin that is not an origin", () => {
    for (const publicOrigin of ["bot.example.com", "https://bot.example.com/", "https://x/hook"]) {
      assert.throws(
        () => messenger({ database, webhookSecret: SECRET, publicOrigin }),
        (e: unknown) => e instanceof ModuleConfigError && /publicOrigin/.test(e.message),
      );
    }
  });
  it("messenger() declares its webhook for serve: full path, header name, never the secret", () => {
    const bot = messenger({
      database,
      webhookSecret: SECRET,
      mountRoute: "/api/telegram",
      secretHeader: "X-Telegram-Bot-Api-Secret-Token",
      publicOrigin: "https://bot.example.com",
    });
    assert.deepEqual(bot.endpoints, [{
      label: "Webhook URL (for setWebhook)",
      path: "/api/telegram/messenger/webhook",
      origin: "https://bot.example.com",
      notes: ["Secret header: X-Telegram-Bot-Api-Secret-Token (its value: webhookSecret)"],
    }]);
    assert.ok(!JSON.stringify(bot.endpoints).includes(SECRET));
  });
  it("messenger() refuses an invalid secretHeader", () => {
    assert.throws(
      () => messenger({ database, webhookSecret: SECRET, secretHeader: "bad header" }),
      (e: unknown) => e instanceof ModuleConfigError && /secretHeader/.test(e.message),
    );
  });
  it("messenger() mounts the webhook under its mount route and binds its schema", () => {
    const bot = messenger({ database, webhookSecret: SECRET, namespace: "bot_one" });
    assert.deepEqual(bot.routes, [
      { method: "POST", path: "/api/messenger/messenger/webhook" },
      { method: "GET", path: "/api/messenger/openapi.json" },
    ]);
    assert.equal(bot.database?.schema, messengerSchema);
    assert.equal(bot.database?.namespace, "bot_one");
    assert.equal(typeof bot.background.start, "function");
  });
});

forEachAdapter((name, getAdapter) => {
  let count = 0;
  const events: Array<[string, string, string]> = [];
  const record = (handler: string) => (event: MessengerEvent): void => {
    events.push([handler, event.updateId, event.kind]);
  };

  /** A bot on a freshly migrated namespace of its own. */
  async function freshBot(options: Partial<MessengerOptions> = {}): Promise<MessengerModule> {
    const namespace = `messenger_${name}_${++count}`;
    await migrate(getAdapter(), messengerSchema, { namespace });
    events.length = 0;
    return messenger({
      database: getAdapter(),
      webhookSecret: SECRET,
      namespace,
      mountRoute: `/bots/${count}`,
      onMessage: record("onMessage"),
      onEditedMessage: record("onEditedMessage"),
      onChannelPost: record("onChannelPost"),
      onUpdate: record("onUpdate"),
      retryDelayMs: 1,
      maxRetryDelayMs: 2,
      onError: () => {},
      // The tests process the updates with drain(), when they choose.
      autoStart: false,
      ...options,
    });
  }

  async function storedCount(bot: MessengerModule): Promise<{ updates: number; hooks: number }> {
    const ns = bot.database!.namespace;
    const [row] = await getAdapter().query<{ updates: number; hooks: number }>(
      `SELECT (SELECT count(*)::int4 FROM "${ns}".updates) AS updates,
              (SELECT count(*)::int4 FROM "${ns}".hook_occurrences) AS hooks`,
    );
    return row;
  }

  it(`${name}: a missing or wrong secret is 401 and stores nothing; the right one is 200`, async () => {
    const bot = await freshBot();
    const body = JSON.stringify({ update_id: 1, message: { text: "hi" } });
    await expectError(await post(bot, body, {}), 401, "UNAUTHORIZED");
    await expectError(await post(bot, body, { [HEADER]: "" }), 401, "UNAUTHORIZED");
    await expectError(await post(bot, body, { [HEADER]: SECRET + "x" }), 401, "UNAUTHORIZED");
    await expectError(
      await post(bot, body, { [HEADER]: SECRET.slice(0, -1) }),
      401,
      "UNAUTHORIZED",
    );
    await expectError(
      await post(bot, body, { [HEADER]: SECRET.toUpperCase() }),
      401,
      "UNAUTHORIZED",
    );
    assert.deepEqual(await storedCount(bot), { updates: 0, hooks: 0 });
    const response = await post(bot, body);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
    assert.deepEqual(await storedCount(bot), { updates: 1, hooks: 1 });
  });

  it(`${name}: secretHeader names the header to check (Telegram's own)`, async () => {
    const telegram = "X-Telegram-Bot-Api-Secret-Token";
    const bot = await freshBot({ secretHeader: telegram });
    const body = JSON.stringify({ update_id: 2, message: { text: "hi" } });
    await expectError(await post(bot, body), 401, "UNAUTHORIZED");
    assert.deepEqual(await (await post(bot, body, { [telegram]: SECRET })).json(), { ok: true });
  });

  it(`${name}: bad bodies are 400 (or 413 when too large) and store nothing`, async () => {
    const bot = await freshBot({ bodyLimit: 4096 });
    const cases: Array<[string, string]> = [
      ["{not json", "INVALID_JSON"],
      ["", "INVALID_JSON"],
      // A control character unescaped in a string (U+001E separates a group's bodies when stored).
      ['{"update_id": 7, "message": {"text": "a\u001eb"}}', "INVALID_JSON"],
      ["[1, 2]", "INVALID_UPDATE"],
      ['"text"', "INVALID_UPDATE"],
      ["null", "INVALID_UPDATE"],
      ['{"message": {"text": "no id"}}', "INVALID_UPDATE"],
      ['{"update_id": "5"}', "INVALID_UPDATE"],
      ['{"update_id": null}', "INVALID_UPDATE"],
      ['{"update_id": -1}', "INVALID_UPDATE"],
      ['{"update_id": -0}', "INVALID_UPDATE"],
      ['{"update_id": 1.5}', "INVALID_UPDATE"],
      ['{"update_id": 2.0}', "INVALID_UPDATE"],
      ['{"update_id": 1e3}', "INVALID_UPDATE"],
      ['{"update_id": 9223372036854775808}', "INVALID_UPDATE"],
      ['{"update_id": 5, "update_id": "6"}', "INVALID_UPDATE"],
    ];
    for (const [body, code] of cases) {
      await expectError(await post(bot, body), 400, code);
    }
    await expectError(await post(bot, new Uint8Array([0x7b, 0xff, 0x7d])), 400, "INVALID_BODY");
    const huge = JSON.stringify({ update_id: 7, message: { text: "x".repeat(5000) } });
    await expectError(await post(bot, huge), 413, "PAYLOAD_TOO_LARGE");
    const chunk = new TextEncoder().encode("x".repeat(1000));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    await expectError(await post(bot, stream), 413, "PAYLOAD_TOO_LARGE");
    assert.deepEqual(await storedCount(bot), { updates: 0, hooks: 0 });
  });

  it(`${name}: each update kind reaches its handler, and every one reaches onUpdate`, async () => {
    const bot = await freshBot();
    const updates = [
      { update_id: 10, message: { message_id: 1, text: "hello" } },
      { update_id: 11, edited_message: { message_id: 1, text: "hello!" } },
      { update_id: 12, channel_post: { message_id: 2, text: "news" } },
      { update_id: 13, callback_query: { id: "cb", data: "yes" } },
      { update_id: 14, a_future_kind: { id: "x" } },
    ];
    for (const update of updates) {
      const response = await post(bot, JSON.stringify(update));
      assert.deepEqual(await response.json(), { ok: true });
    }
    await bot.api.drain();
    assert.deepEqual(events.sort(), [
      ["onChannelPost", "12", "channel_post"],
      ["onEditedMessage", "11", "edited_message"],
      ["onMessage", "10", "message"],
      ["onUpdate", "10", "message"],
      ["onUpdate", "11", "edited_message"],
      ["onUpdate", "12", "channel_post"],
      ["onUpdate", "13", "callback_query"],
      ["onUpdate", "14", "other"],
    ]);
    const stored = await bot.api.getUpdate(13);
    assert.equal(stored?.kind, "callback_query");
    assert.equal(stored?.status, "done");
    assert.equal((await bot.api.getUpdate(14))?.kind, "other");
  });

  it(`${name}: every Bot API kind is stored with its kind and reaches onUpdate with its payload`, async () => {
    const seen: MessengerEvent[] = [];
    const bot = await freshBot({ onUpdate: (event) => void seen.push(event) });
    assert.deepEqual(Object.keys(UPDATE_FIXTURES), [...MESSENGER_UPDATE_KINDS]);
    for (const update of Object.values(UPDATE_FIXTURES)) {
      assert.deepEqual(await (await post(bot, JSON.stringify(update))).json(), { ok: true });
    }
    const page = await bot.api.listUpdates({ pageSize: 100 });
    assert.deepEqual(page.updates.map((u) => u.kind), [...MESSENGER_UPDATE_KINDS]);
    const polls = await bot.api.listUpdates({ kind: "poll_answer" });
    assert.deepEqual(polls.updates.map((u) => u.updateId), ["20"]);
    await bot.api.drain();
    seen.sort((a, b) => Number(a.updateId) - Number(b.updateId));
    assert.deepEqual(seen.map((e) => e.kind), [...MESSENGER_UPDATE_KINDS]);
    for (const event of seen) {
      const update = UPDATE_FIXTURES[event.kind as KnownMessengerUpdateKind];
      assert.deepEqual(event.payload, update[event.kind as keyof typeof update], event.kind);
    }
    // `message` is the Message of the kinds that carry one, and only of those.
    const withMessage = seen.filter((e) => e.message !== undefined).map((e) => e.kind);
    assert.deepEqual(withMessage, [
      "message",
      "edited_message",
      "channel_post",
      "edited_channel_post",
      "business_message",
      "edited_business_message",
      "guest_message",
    ]);
    // The spec's three still reach their own handlers as well.
    // Sorted by update: updates of different chats run in parallel, so in any order.
    const own = events.filter((e) => e[0] !== "onUpdate").sort((a, b) =>
      Number(a[1]) - Number(b[1])
    );
    assert.deepEqual(own, [
      ["onMessage", "1", "message"],
      ["onEditedMessage", "2", "edited_message"],
      ["onChannelPost", "3", "channel_post"],
    ]);
  });

  it(`${name}: onUpdate narrows on kind`, async () => {
    const answers: string[] = [];
    const bot = await freshBot({
      onUpdate: (event) => {
        // Compile-time: payload is defined once kind is known, undefined for "other".
        if (event.kind === "callback_query") answers.push(`button ${event.payload.data}`);
        else if (event.kind === "message") answers.push(`text ${event.message.text}`);
        else if (event.kind === "other") answers.push(`other ${event.payload === undefined}`);
      },
    });
    await post(bot, JSON.stringify(UPDATE_FIXTURES.callback_query));
    await post(bot, JSON.stringify(UPDATE_FIXTURES.message));
    await post(bot, JSON.stringify({ update_id: 99, later_kind: { id: 1 } }));
    await bot.api.drain();
    assert.deepEqual(answers.sort(), ["button vote:yes", "other true", "text hello"]);
  });

  it(`${name}: a row stored as other by an older version is handled with its kind`, async () => {
    const bot = await freshBot();
    await post(bot, JSON.stringify(UPDATE_FIXTURES.chat_join_request));
    await getAdapter().query(
      `UPDATE "${bot.database!.namespace}".updates SET kind = 'other' WHERE update_id = 23`,
    );
    await bot.api.drain();
    assert.deepEqual(events, [["onUpdate", "23", "chat_join_request"]]);
  });

  it(`${name}: handlers get the update, its message and the occurrence`, async () => {
    const seen: MessengerEvent[] = [];
    const bot = await freshBot({ onMessage: (event) => void seen.push(event) });
    await post(bot, JSON.stringify({ update_id: 20, message: { message_id: 5, text: "ping" } }));
    await bot.api.drain();
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0].message, { message_id: 5, text: "ping" });
    assert.equal(seen[0].occurrence.attempt, 1);
    assert.equal(seen[0].occurrence.key, "20");
    assert.match(seen[0].occurrence.id, /^[0-9]+$/);
  });

  it(`${name}: the raw payload is stored exactly: unknown fields, layout, 2^63-1`, async () => {
    const bot = await freshBot();
    const raw =
      `{ "update_id" : 9223372036854775807,\n  "message": {"message_id": 18446744073709551617,` +
      ` "text": "caf\\u00e9 \u{1F600}", "chat": {"id": -1001234567890123456789}},` +
      ` "unknown_field": {"nested": [1.0, 2e10, true, null]}, "zzz": "kept" }`;
    const response = await post(bot, raw);
    assert.deepEqual(await response.json(), { ok: true });
    const stored = await bot.api.getUpdate("9223372036854775807");
    assert.equal(stored?.updateId, "9223372036854775807");
    assert.equal(stored?.raw, raw);
    const [row] = await getAdapter().query<{ id: string; chat: string; text: string }>(
      `SELECT update_id::text AS id, (raw::jsonb #>> '{message,chat,id}') AS chat,
              (raw::jsonb #>> '{message,text}') AS text
       FROM "${bot.database!.namespace}".updates`,
    );
    assert.deepEqual(row, {
      id: "9223372036854775807",
      chat: "-1001234567890123456789",
      text: "café \u{1F600}",
    });
    await bot.api.drain();
    assert.deepEqual(events.find((e) => e[0] === "onMessage"), [
      "onMessage",
      "9223372036854775807",
      "message",
    ]);
  });

  it(`${name}: the handler gets the exact body, handed over in memory, then read for a retry`, async () => {
    const seen: string[] = [];
    const bot = await freshBot({
      onMessage: (event) => {
        seen.push(event.raw);
        if (seen.length === 1) throw new Error("first attempt fails");
      },
    });
    const raw =
      `{"message": {"text": "caf\\u00e9 \u{1F600}"},  "update_id": 9223372036854775806}\n`;
    await post(bot, raw);
    await bot.api.drain({ waitForScheduled: true });
    assert.deepEqual(seen, [raw, raw]);
    assert.equal((await bot.api.getUpdate("9223372036854775806"))?.status, "done");
  });

  it(`${name}: bodies stored together in one statement each keep their exact text`, async () => {
    const bot = await freshBot();
    // What an array literal treats specially (braces, commas, quotes, backslashes, NULL, spaces)
    // and the separator of the group's one body parameter, escaped as JSON has it (U+001E).
    const texts = [
      '"}, {"',
      'a\\"b',
      "NULL",
      "  ",
      "{}",
      "\\",
      "\u0000",
      ",\n\t",
      "é\u2028😀",
      "\u001e",
    ];
    const raws = texts.map((text, i) =>
      `{"update_id": ${500 + i}, "message": {"text": ${JSON.stringify(text)}}}${i % 2 ? " \n" : ""}`
    );
    const statementsBefore = getAdapter().stats.queries;
    const statuses = await Promise.all(raws.map(async (raw) => (await post(bot, raw)).status));
    assert.deepEqual(statuses, raws.map(() => 200));
    assert.ok(getAdapter().stats.queries - statementsBefore < raws.length, "stored in groups");
    for (const [i, raw] of raws.entries()) {
      assert.equal((await bot.api.getUpdate(500 + i))?.raw, raw);
    }
  });

  it(`${name}: a repeated update_id is acknowledged as a duplicate with no second record or hook`, async () => {
    const bot = await freshBot();
    const first = JSON.stringify({ update_id: 30, message: { text: "first" } });
    const retry = JSON.stringify({ update_id: 30, message: { text: "changed" } });
    assert.deepEqual(await (await post(bot, first)).json(), { ok: true });
    const again = await post(bot, retry);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { ok: true, duplicate: true });
    assert.deepEqual(await storedCount(bot), { updates: 1, hooks: 1 });
    assert.equal((await bot.api.getUpdate(30))?.raw, first);
    await bot.api.drain();
    assert.deepEqual(await (await post(bot, first)).json(), { ok: true, duplicate: true });
    await bot.api.drain();
    assert.equal(events.filter((e) => e[0] === "onMessage").length, 1);
  });

  it(`${name}: two messenger instances in one database do not collide on update_id`, async () => {
    const one = await freshBot();
    const two = await freshBot();
    const body = JSON.stringify({ update_id: 40, message: { text: "same id" } });
    assert.deepEqual(await (await post(one, body)).json(), { ok: true });
    assert.deepEqual(await (await post(two, body)).json(), { ok: true });
    assert.deepEqual(await storedCount(one), { updates: 1, hooks: 1 });
    assert.deepEqual(await storedCount(two), { updates: 1, hooks: 1 });
  });

  it(`${name}: 200 concurrent deliveries of 20 update_ids store exactly 20 updates and 20 hooks`, async () => {
    const bot = await freshBot();
    const deliveries = Array.from({ length: 200 }, (_, i) => 1000 + (i % 20));
    const statementsBefore = getAdapter().stats.queries;
    const responses = await Promise.all(deliveries.map(async (id) => {
      const response = await post(
        bot,
        JSON.stringify({ update_id: id, message: { text: `${id}` } }),
      );
      return { status: response.status, body: await response.json() };
    }));
    assert.ok(
      responses.every((r) => r.status === 200 && r.body.ok === true),
      "every answer 200 ok",
    );
    assert.equal(responses.filter((r) => r.body.duplicate !== true).length, 20);
    assert.equal(responses.filter((r) => r.body.duplicate === true).length, 180);
    // Deliveries that arrive together share a statement (one per delivery before grouping).
    const statements = getAdapter().stats.queries - statementsBefore;
    assert.ok(statements <= 20, `${statements} statements for 200 concurrent deliveries`);
    assert.deepEqual(await storedCount(bot), { updates: 20, hooks: 20 });
    await bot.api.drain();
    assert.equal(events.filter((e) => e[0] === "onMessage").length, 20);
  });

  it(`${name}: a delivery the database refuses fails alone; the others of its group are stored`, async () => {
    const bot = await freshBot();
    const ns = bot.database!.namespace;
    // An application's trigger refusing one update, as a constraint or trigger of its own would.
    await getAdapter().query(
      `CREATE FUNCTION "${ns}".refuse_13() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.update_id = 13 THEN RAISE EXCEPTION 'update 13 refused'; END IF;
         RETURN NEW;
       END $$`,
    );
    await getAdapter().query(
      `CREATE TRIGGER refuse_13 BEFORE INSERT ON "${ns}".updates
       FOR EACH ROW EXECUTE FUNCTION "${ns}".refuse_13()`,
    );
    const ids = [11, 12, 13, 14, 15];
    const statuses = await Promise.all(ids.map(async (id) => {
      const response = await post(bot, JSON.stringify({ update_id: id, message: {} }));
      await response.body?.cancel();
      return response.status;
    }));
    assert.deepEqual(statuses, [200, 200, 500, 200, 200]);
    const stored = (await bot.api.listUpdates()).updates.map((u) => u.updateId);
    assert.deepEqual(stored, ["11", "12", "14", "15"]);
    assert.deepEqual(await storedCount(bot), { updates: 4, hooks: 4 });
  });

  it(`${name}: the processing status comes from the hook; failed updates can be retried`, async () => {
    let fail = true;
    const bot = await freshBot({
      maxAttempts: 2,
      onMessage: () => {
        if (fail) throw new Error("handler down");
      },
    });
    await post(bot, JSON.stringify({ update_id: 50, message: { text: "a" } }));
    await post(bot, JSON.stringify({ update_id: 51, channel_post: { text: "b" } }));
    assert.equal((await bot.api.getUpdate(50))?.status, "pending");
    await bot.api.drain({ waitForScheduled: true });
    const failed = await bot.api.getUpdate(50);
    assert.equal(failed?.status, "failed");
    assert.equal(failed?.attempts, 2);
    assert.match(failed?.lastError ?? "", /handler down/);
    assert.equal((await bot.api.getUpdate("51"))?.status, "done");
    const failedList = await bot.api.listUpdates({ status: "failed" });
    assert.deepEqual(failedList.updates.map((u) => u.updateId), ["50"]);
    fail = false;
    assert.equal(await bot.api.retryFailed(["50"]), 1);
    assert.equal((await bot.api.getUpdate(50))?.status, "pending");
    await bot.api.drain();
    assert.equal((await bot.api.getUpdate(50))?.status, "done");
    assert.equal(await bot.api.getUpdate(52), null);
    assert.equal(await bot.api.getUpdate("not-a-number"), null);
  });

  it(`${name}: retention purges done processing hooks, never the updates (read as done)`, async () => {
    const bot = await freshBot({ retention: { done: "0s" } });
    await post(bot, JSON.stringify({ update_id: 70, message: { text: "kept" } }));
    const occurrence = (await bot.hooks.find("process_update", "70"))!;
    const described = await bot.hooks.describe(occurrence) as { update: { raw: string } };
    assert.equal(JSON.parse(described.update.raw).message.text, "kept");
    await bot.api.drain();
    assert.equal(await bot.hooks.find("process_update", "70"), null);
    const update = await bot.api.getUpdate(70);
    assert.equal(update?.status, "done");
    assert.match(update?.raw ?? "", /"kept"/);
    const done = await bot.api.listUpdates({ status: "done" });
    assert.deepEqual(done.updates.map((u) => u.updateId), ["70"]);
  });

  it(`${name}: listUpdates() pages by update_id with cursors and filters by kind`, async () => {
    const bot = await freshBot();
    for (const id of [64, 60, 62, 61, 63]) {
      const kind = id % 2 === 0 ? "message" : "channel_post";
      await post(bot, JSON.stringify({ update_id: id, [kind]: { text: String(id) } }));
    }
    const first = await bot.api.listUpdates({ pageSize: 2 });
    assert.deepEqual(first.updates.map((u) => u.updateId), ["60", "61"]);
    assert.equal(first.hasNextPage, true);
    const second = await bot.api.listUpdates({ pageSize: 2, cursor: first.cursor });
    const third = await bot.api.listUpdates({ pageSize: 2, cursor: second.cursor });
    assert.deepEqual(second.updates.map((u) => u.updateId), ["62", "63"]);
    assert.deepEqual(third.updates.map((u) => u.updateId), ["64"]);
    assert.equal(third.cursor, null);
    const messages = await bot.api.listUpdates({ kind: "message", order: "desc" });
    assert.deepEqual(messages.updates.map((u) => u.updateId), ["64", "62", "60"]);
    assert.ok(messages.updates.every((u) => u.status === "pending" && u.attempts === 0));
  });

  it(`${name}: an unmigrated namespace answers 503 DATABASE_NOT_MIGRATED`, async () => {
    const bot = messenger({
      database: getAdapter(),
      webhookSecret: SECRET,
      namespace: `never_migrated_${name}`,
      autoStart: false, // the answer is the point; a worker would report the missing tables
    });
    const response = await post(bot, JSON.stringify({ update_id: 1, message: {} }));
    await expectError(response, 503, "DATABASE_NOT_MIGRATED");
  });
});

describe("messenger() with the database down", () => {
  it("answers 503 SERVICE_UNAVAILABLE with Retry-After in the error shape", async () => {
    const database: SqlAdapter = pgliteAdapter();
    await database.close();
    const bot = messenger({ database, webhookSecret: SECRET });
    const response = await post(bot, JSON.stringify({ update_id: 1, message: {} }));
    assert.equal(response.headers.get("retry-after"), "5");
    await expectError(response, 503, "SERVICE_UNAVAILABLE");
  });
});
