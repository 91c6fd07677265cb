// deno-lint-ignore-file no-explicit-any
// Telegram accounts over HTTP and authModule.api on PGlite and PostgreSQL (issue 33): the link
// (`POST /telegram/link`, a single-use hashed token completed by the bot's `/start <token>`), the
// event, `GET /me`'s `user.telegram`, unlinking, `api.telegramAccount`, and sign-in with a Mini
// App's initData or the Login Widget, with the abuse cases first: tampered initData, a wrong bot
// token, a stale auth_date, a replayed link token, another account's token, CSRF and a flood.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { signedInitData, signedWidget } from "../helpers/telegram_signing.ts";
import { assertError, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send } from "./helpers/account.ts";

const BOT_TOKEN = "7000000001:AAH-telegram_test_token_0123456789ab";
const OTHER_TOKEN = "7000000002:AAH-another_bot_token_0123456789abc";
const TELEGRAM = { botToken: BOT_TOKEN, botUsername: "fragment_test_bot" };

let nextTelegramId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const telegramUser = () => nextTelegramId++;

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let outbox: Outbox;

  before(async () => {
    db = getAdapter();
    ({ module, outbox } = await accountModule(db, { telegram: TELEGRAM }));
  });

  /** Signs up and asks for a link; answers the user, their credential and the link's token. */
  async function withLink(label: string) {
    const signed = await signUp(module, uniqueEmail(label));
    const result = await send(module, "POST", "/telegram/link", { token: signed.token });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    const token = new URL(result.body.url).searchParams.get("start")!;
    return { ...signed, link: result.body, linkToken: token };
  }

  /** A user linked to a fresh Telegram id. */
  async function linkedUser(label: string) {
    const signed = await withLink(label);
    const id = telegramUser();
    const done = await module.api.confirmTelegramLink(signed.linkToken, { id, username: label });
    assert.equal(done.ok, true, JSON.stringify(done));
    return { ...signed, telegramId: id };
  }

  describe(`${name}: linking a Telegram account`, () => {
    it("POST /telegram/link answers a t.me link with a single-use token (≤ 64 of [A-Za-z0-9_-], 10 minutes, hashed at rest)", async () => {
      const { user, link, linkToken } = await withLink("link");
      assert.deepEqual(Object.keys(link).sort(), ["expiresAt", "url"]);
      assert.equal(link.url, `https://t.me/fragment_test_bot?start=${linkToken}`);
      assert.match(linkToken, /^[A-Za-z0-9_-]{1,64}$/);
      const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
      assert.ok(minutes > 9.5 && minutes <= 10.01, `${minutes} minutes`);
      const rows = await db.query<{ token_hash: string }>(
        `SELECT token_hash FROM auth.telegram_link_tokens WHERE user_id = $1`,
        [user.id],
      );
      assert.deepEqual(rows.map((r) => r.token_hash), [hashToken(linkToken)]);
    });

    it("needs a credential (401)", async () => {
      assertError(await send(module, "POST", "/telegram/link"), 401, "UNAUTHENTICATED");
    });

    it("/start <token> links the Telegram user, records telegramLinked, and GET /me shows it", async () => {
      const { token, user, linkToken } = await withLink("start");
      const me0 = await send(module, "GET", "/me", { token });
      assert.equal(me0.body.user.telegram, null);
      const id = telegramUser();
      const result = await module.api.confirmTelegramLink(linkToken, { id, username: "ada_l" });
      assert.deepEqual(result, {
        ok: true,
        user,
        telegram: { id: String(id), username: "ada_l" },
      });
      const me = await send(module, "GET", "/me", { token });
      assert.deepEqual(me.body.user, {
        ...user,
        telegram: { id: String(id), username: "ada_l" },
        twoFactorEnabled: false,
      });
      await module.api.hooks!.drain();
      const events = outbox.events.filter((e) =>
        e.name === "telegramLinked" && e.payload.user.id === user.id
      );
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].payload.telegram, { id: String(id), username: "ada_l" });
    });

    it("a replayed token: the same Telegram user gets the same link (no second event), anyone else a refusal", async () => {
      const { user, linkToken } = await withLink("replay");
      const id = telegramUser();
      assert.equal((await module.api.confirmTelegramLink(linkToken, { id })).ok, true);
      const again = await module.api.confirmTelegramLink(linkToken, { id });
      assert.equal(again.ok, true);
      assert.deepEqual((again as any).user, user);
      const stranger = await module.api.confirmTelegramLink(linkToken, { id: telegramUser() });
      assert.deepEqual(stranger, { ok: false, reason: "INVALID_LINK_TOKEN" });
      await module.api.hooks!.drain();
      const events = outbox.events.filter((e) =>
        e.name === "telegramLinked" && e.payload.user.id === user.id
      );
      assert.equal(events.length, 1);
    });

    it("another account's token cannot move a linked Telegram user: refused, both links unchanged", async () => {
      const alice = await linkedUser("alice");
      const bob = await withLink("bob");
      const result = await module.api.confirmTelegramLink(bob.linkToken, { id: alice.telegramId });
      assert.deepEqual(result, { ok: false, reason: "TELEGRAM_ACCOUNT_TAKEN" });
      assert.deepEqual(
        (await module.api.telegramAccount(alice.telegramId))!.user.id,
        alice.user.id,
      );
      const bobMe = await send(module, "GET", "/me", { token: bob.token });
      assert.equal(bobMe.body.user.telegram, null);
      // The refusal used nothing up: Bob's token still links a free Telegram user.
      assert.equal(
        (await module.api.confirmTelegramLink(bob.linkToken, { id: telegramUser() })).ok,
        true,
      );
    });

    it("a forged, malformed or expired token links nothing", async () => {
      const { user, linkToken } = await withLink("expired");
      await db.query(
        `UPDATE auth.telegram_link_tokens SET expires_at = now() - interval '1 second'
         WHERE user_id = $1`,
        [user.id],
      );
      const id = telegramUser();
      assert.deepEqual(await module.api.confirmTelegramLink(linkToken, { id }), {
        ok: false,
        reason: "LINK_TOKEN_EXPIRED",
      });
      for (const forged of ["A".repeat(43), "short", "x".repeat(65), "'; DROP TABLE x; --"]) {
        assert.deepEqual(await module.api.confirmTelegramLink(forged, { id }), {
          ok: false,
          reason: "INVALID_LINK_TOKEN",
        });
      }
      assert.equal(await module.api.telegramAccount(id), null);
      await assert.rejects(module.api.confirmTelegramLink(linkToken, { id: "12x" }), TypeError);
    });

    it("a newer link voids the older token", async () => {
      const { token, linkToken } = await withLink("newer");
      await send(module, "POST", "/telegram/link", { token });
      assert.deepEqual(await module.api.confirmTelegramLink(linkToken, { id: telegramUser() }), {
        ok: false,
        reason: "INVALID_LINK_TOKEN",
      });
    });

    it("DELETE /telegram/link unlinks (204): /me shows null and sign-in answers TELEGRAM_NOT_LINKED", async () => {
      const { token, telegramId } = await linkedUser("unlink");
      const result = await send(module, "DELETE", "/telegram/link", { token });
      assert.equal(result.status, 204);
      assert.equal((await send(module, "GET", "/me", { token })).body.user.telegram, null);
      assert.equal(await module.api.telegramAccount(telegramId), null);
      assertError(
        await send(module, "POST", "/telegram/sign-in", {
          body: { initData: signedInitData(BOT_TOKEN, { id: telegramId }) },
        }),
        401,
        "TELEGRAM_NOT_LINKED",
      );
      assert.equal((await send(module, "DELETE", "/telegram/link", { token })).status, 204);
    });
  });

  describe(`${name}: api.telegramAccount`, () => {
    it("answers the user with their Telegram account and active organization in one call, null for others", async () => {
      const { user, token, telegramId } = await linkedUser("reader");
      const created = await send(module, "POST", "/organizations", {
        token,
        body: { name: "Reader Org" },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await send(module, "POST", "/organizations/active", {
        token,
        body: { organizationId: created.body.organization.id },
      });
      const account = await module.api.telegramAccount(String(telegramId));
      assert.deepEqual(account!.user, {
        ...user,
        telegram: { id: String(telegramId), username: "reader" },
      });
      assert.equal(account!.activeOrganization!.organization.id, created.body.organization.id);
      assert.deepEqual(account!.activeOrganization!.member.roles, ["owner"]);
      assert.equal(account!.activeOrganization!.access, "member");
      assert.equal(await module.api.telegramAccount(telegramUser()), null);
      assert.equal(await module.api.telegramAccount("not a number"), null);
    });
  });

  describe(`${name}: POST /telegram/sign-in`, () => {
    it("initData built with Telegram's algorithm signs the linked user in, like POST /sign-in", async () => {
      const { user, telegramId } = await linkedUser("mini");
      const initData = signedInitData(BOT_TOKEN, { id: telegramId, username: "mini" });
      const result = await send(module, "POST", "/telegram/sign-in", { body: { initData } });
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual(Object.keys(result.body).sort(), ["expiresAt", "token", "user"]);
      assert.deepEqual(result.body.user, user);
      assert.match(result.headers.get("set-cookie")!, /^service_auth=[A-Za-z0-9_-]{43};.*HttpOnly/);
      const me = await send(module, "GET", "/me", { token: result.body.token });
      assert.equal(me.body.user.telegram.id, String(telegramId));
      assert.ok(!JSON.stringify(result.body).includes(BOT_TOKEN));
    });

    it("the Login Widget's fields sign in too", async () => {
      const { user, telegramId } = await linkedUser("widget");
      const widget = signedWidget(BOT_TOKEN, { id: telegramId, username: "widget" });
      const result = await send(module, "POST", "/telegram/sign-in", { body: { widget } });
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual(result.body.user, user);
    });

    it("any changed field, a wrong bot token, an old or missing auth_date, a missing hash: 401 INVALID_TELEGRAM_DATA", async () => {
      const { telegramId } = await linkedUser("tamper");
      const good = signedInitData(BOT_TOKEN, { id: telegramId });
      const params = new URLSearchParams(good);
      const changed: string[] = [];
      for (const field of ["user", "auth_date", "query_id"]) {
        const copy = new URLSearchParams(params);
        copy.set(field, field === "user" ? JSON.stringify({ id: telegramId + 1 }) : "1");
        changed.push(copy.toString());
      }
      const extra = new URLSearchParams(params);
      extra.set("admin", "true");
      const noHash = new URLSearchParams(params);
      noHash.delete("hash");
      const upper = new URLSearchParams(params);
      upper.set("hash", params.get("hash")!.toUpperCase());
      const cases = [
        ...changed,
        extra.toString(),
        noHash.toString(),
        upper.toString(),
        signedInitData(OTHER_TOKEN, { id: telegramId }),
        signedInitData(BOT_TOKEN, { id: telegramId }, Math.floor(Date.now() / 1000) - 86_401),
        signedInitData(BOT_TOKEN, { id: telegramId }, Math.floor(Date.now() / 1000) + 3600),
        "garbage",
      ];
      for (const initData of cases) {
        assertError(
          await send(module, "POST", "/telegram/sign-in", { body: { initData } }),
          401,
          "INVALID_TELEGRAM_DATA",
        );
      }
      const widget = signedWidget(BOT_TOKEN, { id: telegramId });
      for (
        const bad of [
          { ...widget, first_name: "Mallory" },
          signedWidget(OTHER_TOKEN, { id: telegramId }),
          signedWidget(BOT_TOKEN, { id: telegramId }, Math.floor(Date.now() / 1000) - 90_000),
        ]
      ) {
        assertError(
          await send(module, "POST", "/telegram/sign-in", { body: { widget: bad } }),
          401,
          "INVALID_TELEGRAM_DATA",
        );
      }
    });

    it("a malformed body is a 400, never a 5xx", async () => {
      for (
        const body of [{}, { initData: "" }, { initData: 5 }, { widget: "x" }, {
          initData: "x".repeat(5000),
        }, { initData: "a", widget: {} }]
      ) {
        const result = await send(module, "POST", "/telegram/sign-in", { body });
        assert.equal(result.status, 400, JSON.stringify(body));
      }
    });

    it("refuses a cross-origin request (403 CSRF_REJECTED), like POST /sign-in", async () => {
      const { telegramId } = await linkedUser("csrf");
      assertError(
        await send(module, "POST", "/telegram/sign-in", {
          body: { initData: signedInitData(BOT_TOKEN, { id: telegramId }) },
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
    });

    it("a flood from one address is rate-limited (429 RATE_LIMITED with Retry-After)", async () => {
      const limited = (await accountModule(db, {
        telegram: TELEGRAM,
        rateLimit: { window: 900, max: 3 },
      })).module;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const result = await send(limited, "POST", "/telegram/sign-in", {
          body: { initData: signedInitData(BOT_TOKEN, { id: telegramUser() }) },
          remoteAddress: "203.0.113.77",
        });
        statuses.push(result.status);
        if (result.status === 429) assert.ok(result.headers.get("retry-after"));
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    });
  });

  describe(`${name}: without the telegram option`, () => {
    it("has no Telegram routes, its api methods throw, and /me's user.telegram is null", async () => {
      const plain = (await accountModule(db)).module;
      const signed = await signUp(plain, uniqueEmail("plain"));
      assertError(
        await send(plain, "POST", "/telegram/link", { token: signed.token }),
        404,
        "NOT_FOUND",
      );
      assert.equal(
        (await send(plain, "GET", "/me", { token: signed.token })).body.user.telegram,
        null,
      );
      await assert.rejects(module.api.linkTelegram({ userId: "x" }), /./);
      await assert.rejects(plain.api.linkTelegram({ userId: signed.user.id }), /telegram feature/);
      await assert.rejects(plain.api.telegramAccount(1), /telegram feature/);
    });
  });

  describe(`${name}: the bot token`, () => {
    it("is in no stored row, no answer and no error message", async () => {
      await linkedUser("secret");
      const dump = await db.query<{ text: string }>(
        `SELECT string_agg(t::text, ' ') AS text FROM (
           SELECT row_to_json(x)::text AS t FROM auth.telegram_accounts x
           UNION ALL SELECT row_to_json(x)::text FROM auth.telegram_link_tokens x
           UNION ALL SELECT row_to_json(x)::text FROM auth.hook_occurrences x
         ) rows`,
      );
      assert.ok(!(dump[0].text ?? "").includes(BOT_TOKEN));
      assert.ok(!(dump[0].text ?? "").includes(BOT_TOKEN.split(":")[1]));
      const badToken = `${BOT_TOKEN} `;
      await assert.rejects(
        accountModule(db, { telegram: { ...TELEGRAM, botToken: badToken } }),
        (error: Error) =>
          /telegram\.botToken/.test(error.message) && !error.message.includes(BOT_TOKEN),
      );
    });
  });
});
