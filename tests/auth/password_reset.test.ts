// deno-lint-ignore-file no-explicit-any
// Forgot and reset password over HTTP on PGlite and PostgreSQL: the same 202 whether or not the
// account exists, the mailed absolute link (opening it consumes nothing), the single-use,
// expiring, hashed token that a newer request voids, the reset that revokes every session and
// verifies the address, the event, and the abuse cases (reuse, forged, expired, another user's
// token, CSRF, flood).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import {
  accountModule,
  expireAccountTokens,
  type Outbox,
  send,
  tokenOf,
  waitForMail,
} from "./helpers/account.ts";

const NEW_PASSWORD = "a brand new password";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let outbox: Outbox;

  before(async () => {
    db = getAdapter();
    ({ module, outbox } = await accountModule(db));
  });

  async function forgot(email: string): Promise<any> {
    const result = await send(module, "POST", "/password/forgot", { body: { email } });
    assert.equal(result.status, 202, JSON.stringify(result.body));
    return result.body;
  }

  /** Asks for a reset of `email` and returns the token of the mail it produced. */
  async function resetToken(email: string): Promise<string> {
    const before = outbox.resets.length;
    await forgot(email);
    return (await waitForMail(outbox.resets, before + 1)).token;
  }

  describe(`${name}: POST /password/forgot`, () => {
    it("answers 202 with the same body for an existing, an unknown and a malformed address; mails only the existing one", async () => {
      const signed = await signUp(module, uniqueEmail("forgot"));
      const mailsBefore = outbox.resets.length;
      const known = await forgot(signed.user.email.toUpperCase());
      const mail = await waitForMail(outbox.resets, mailsBefore + 1);
      const unknown = await forgot(uniqueEmail("nobody"));
      const malformed = await forgot("not an address");
      // A mail for the last known address would have come by now (see the next request's).
      await forgot(signed.user.email);
      await waitForMail(outbox.resets, mailsBefore + 2);
      assert.equal(outbox.resets.length, mailsBefore + 2, "no mail for an unknown address");
      assert.equal(outbox.resets[mailsBefore + 1].email, signed.user.email);
      assert.deepEqual(unknown, known);
      assert.deepEqual(malformed, known);
      assert.equal(mail.email, signed.user.email);
      assert.deepEqual(mail.user, signed.user);
      assert.match(mail.token, /^[A-Za-z0-9_-]{43}$/, "256 bits in base64url");
      assert.equal(mail.url, `https://app.example.com/#reset-password?token=${mail.token}`);
    });

    it("stores only the SHA-256 of the token, expiring after passwordResetTtlMinutes (60)", async () => {
      const signed = await signUp(module, uniqueEmail("stored"));
      const token = await resetToken(signed.user.email);
      const rows = await db.query<{ token_hash: string; minutes: number }>(
        `SELECT token_hash, extract(epoch FROM expires_at - created_at)::float8 / 60 AS minutes
         FROM auth.account_tokens WHERE user_id = $1 AND purpose = 'password_reset'`,
        [signed.user.id],
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0].token_hash, hashToken(token));
      assert.equal(Math.round(rows[0].minutes), 60);
    });

    it("opening the mailed link serves the app and consumes nothing", async () => {
      const signed = await signUp(module, uniqueEmail("open"));
      const token = await resetToken(signed.user.email);
      const url = new URL(outbox.resets.at(-1)!.url);
      // The token is in the fragment: a browser never sends it to any server.
      assert.equal(url.pathname, "/");
      assert.equal(url.search, "");
      const reset = await send(module, "POST", "/password/reset", {
        body: { token, password: NEW_PASSWORD },
      });
      assert.equal(reset.status, 200, "still usable after the link was opened");
    });

    it("is rate-limited per address and per account (the same 429 for an unknown account)", async () => {
      const { module: limited } = await accountModule(db, {
        namespace: "reset_flood",
        rateLimit: { max: 3, perAccount: { max: 2 } },
      });
      const from = { remoteAddress: "192.0.2.50" };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await send(limited, "POST", "/password/forgot", {
            body: { email: uniqueEmail("flood") },
            ...from,
          })).status,
        );
      }
      assert.deepEqual(statuses, [202, 202, 202, 429]);
      const account = uniqueEmail("target");
      const perAccount: number[] = [];
      for (let i = 0; i < 3; i++) {
        perAccount.push(
          (await send(limited, "POST", "/password/forgot", { body: { email: account } })).status,
        );
      }
      assert.deepEqual(perAccount, [202, 202, 429]);
    });

    it("refuses a cross-origin request (403 CSRF_REJECTED) and mails nothing", async () => {
      const signed = await signUp(module, uniqueEmail("csrf"));
      const before = outbox.resets.length;
      assertError(
        await send(module, "POST", "/password/forgot", {
          body: { email: signed.user.email },
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
      assert.equal(outbox.resets.length, before);
    });
  });

  describe(`${name}: POST /password/reset`, () => {
    it("sets the password, revokes every session, verifies the address and records passwordReset", async () => {
      const signed = await signUp(module, uniqueEmail("reset"));
      const second = await call(module, "POST", "/sign-in", {
        body: { email: signed.user.email, password: "correct horse battery" },
      });
      const token = await resetToken(signed.user.email);
      const reset = await send(module, "POST", "/password/reset", {
        body: { token, password: NEW_PASSWORD },
      });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      assert.deepEqual(reset.body, { user: { ...signed.user, emailVerified: true } });
      assert.match(reset.headers.get("set-cookie") ?? "", /service_auth=;/, "cookie cleared");
      for (const old of [signed.token, second.body.token]) {
        assertError(await call(module, "GET", "/me", { token: old }), 401, "UNAUTHENTICATED");
      }
      assertError(
        await call(module, "POST", "/sign-in", {
          body: { email: signed.user.email, password: "correct horse battery" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      const signIn = await call(module, "POST", "/sign-in", {
        body: { email: signed.user.email, password: NEW_PASSWORD },
      });
      assert.equal(signIn.status, 200);
      assert.equal(signIn.body.user.emailVerified, true);
      await module.api.hooks!.drain();
      const event = outbox.events.find((e) =>
        e.name === "passwordReset" && e.payload.user.id === signed.user.id
      );
      assert.ok(event, "passwordReset delivered");
      assert.equal(event.payload.revokedSessions, 2);
      assert.ok(!JSON.stringify(event.payload).includes(token), "no token in the event");
    });

    it("abuse: a used token, a forged one, an expired one and a voided one are refused", async () => {
      const signed = await signUp(module, uniqueEmail("abuse"));
      const used = await resetToken(signed.user.email);
      assert.equal(
        (await send(module, "POST", "/password/reset", {
          body: { token: used, password: NEW_PASSWORD },
        }))
          .status,
        200,
      );
      assertError(
        await send(module, "POST", "/password/reset", {
          body: { token: used, password: "yet another password" },
        }),
        400,
        "INVALID_RESET_TOKEN",
      );
      for (const forged of ["A".repeat(43), "short", "", used.slice(0, 42) + "!"]) {
        assertError(
          await send(module, "POST", "/password/reset", {
            body: { token: forged, password: NEW_PASSWORD },
          }),
          400,
          "INVALID_RESET_TOKEN",
        );
      }
      const older = await resetToken(signed.user.email);
      const newer = await resetToken(signed.user.email);
      assertError(
        await send(module, "POST", "/password/reset", {
          body: { token: older, password: NEW_PASSWORD },
        }),
        400,
        "INVALID_RESET_TOKEN",
      );
      await expireAccountTokens(db, signed.user.id);
      assertError(
        await send(module, "POST", "/password/reset", {
          body: { token: newer, password: NEW_PASSWORD },
        }),
        410,
        "RESET_TOKEN_EXPIRED",
      );
    });

    it("abuse: another user's token resets only that user (never the caller's account)", async () => {
      const alice = await signUp(module, uniqueEmail("alice"));
      const bob = await signUp(module, uniqueEmail("bob"));
      const bobsToken = await resetToken(bob.user.email);
      // Alice, signed in, uses Bob's token: it is Bob's password that changes, and Alice keeps hers.
      const reset = await send(module, "POST", "/password/reset", {
        token: alice.token,
        body: { token: bobsToken, password: NEW_PASSWORD },
      });
      assert.equal(reset.status, 200);
      assert.equal(reset.body.user.id, bob.user.id);
      assert.equal((await call(module, "GET", "/me", { token: alice.token })).status, 200);
      assert.equal(
        (await call(module, "POST", "/sign-in", {
          body: { email: alice.user.email, password: "correct horse battery" },
        })).status,
        200,
      );
    });

    it("abuse: a token mailed before an address change resets nothing", async () => {
      const signed = await signUp(module, uniqueEmail("moved"));
      const token = await resetToken(signed.user.email);
      await db.query("UPDATE auth.users SET email = $2 WHERE id = $1", [
        signed.user.id,
        uniqueEmail("elsewhere"),
      ]);
      assertError(
        await send(module, "POST", "/password/reset", { body: { token, password: NEW_PASSWORD } }),
        400,
        "INVALID_RESET_TOKEN",
      );
    });

    it("abuse: a cross-origin reset is refused before the token is looked at", async () => {
      const signed = await signUp(module, uniqueEmail("csrf-reset"));
      const token = await resetToken(signed.user.email);
      assertError(
        await send(module, "POST", "/password/reset", {
          body: { token, password: NEW_PASSWORD },
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
      assert.equal(
        (await send(module, "POST", "/password/reset", { body: { token, password: NEW_PASSWORD } }))
          .status,
        200,
        "the token was not consumed",
      );
    });

    it("abuse: a flood of guesses is rate-limited per address", async () => {
      const { module: limited } = await accountModule(db, {
        namespace: "reset_guess",
        rateLimit: { max: 3, perAccount: false },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await send(limited, "POST", "/password/reset", {
            body: { token: "B".repeat(43), password: NEW_PASSWORD },
            remoteAddress: "192.0.2.60",
          })).status,
        );
      }
      assert.deepEqual(statuses, [400, 400, 400, 429]);
    });

    it("validates the new password (400) without consuming the token", async () => {
      const signed = await signUp(module, uniqueEmail("weak"));
      const token = await resetToken(signed.user.email);
      const weak = await send(module, "POST", "/password/reset", {
        body: { token, password: "short" },
      });
      assert.equal(weak.status, 400);
      assert.equal(
        (await send(module, "POST", "/password/reset", { body: { token, password: NEW_PASSWORD } }))
          .status,
        200,
      );
    });
  });

  describe(`${name}: auth.api`, () => {
    it("forgotPassword and resetPassword behave like the routes", async () => {
      const signed = await signUp(module, uniqueEmail("api"));
      const before = outbox.resets.length;
      const answer = await module.api.forgotPassword({ email: signed.user.email });
      assert.deepEqual(answer, await module.api.forgotPassword({ email: uniqueEmail("none") }));
      const token = tokenOf((await waitForMail(outbox.resets, before + 1)).url);
      const { user } = await module.api.resetPassword({ token, password: NEW_PASSWORD });
      assert.equal(user.id, signed.user.id);
      await assert.rejects(
        module.api.resetPassword({ token, password: NEW_PASSWORD }),
        (error: any) => error.status === 400 && error.code === "INVALID_RESET_TOKEN",
      );
    });
  });
});
