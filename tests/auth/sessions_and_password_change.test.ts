// deno-lint-ignore-file no-explicit-any
// The caller's sessions and password change over HTTP on PGlite and PostgreSQL: GET /sessions
// (own sessions only, no token, current flag, user agent, lastUsedAt written at most once a
// minute), DELETE /sessions/:sessionId (another user's id → 404), POST /sessions/revoke-others,
// revocation effective on the next request (GET /me included), POST /password/change
// (INVALID_CREDENTIALS counted by the sign-in limits, revokeOtherSessions default true), events,
// CSRF.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send } from "./helpers/account.ts";

const PASSWORD = "correct horse battery";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let outbox: Outbox;

  before(async () => {
    db = getAdapter();
    ({ module, outbox } = await accountModule(db));
  });

  async function signInFrom(email: string, userAgent: string): Promise<string> {
    const result = await send(module, "POST", "/sign-in", {
      body: { email, password: PASSWORD },
      headers: { "user-agent": userAgent },
    });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    return result.body.token;
  }

  describe(`${name}: GET /sessions`, () => {
    it("lists the caller's own sessions with the current one marked, never a token", async () => {
      const signed = await signUp(module, uniqueEmail("list"));
      const laptop = await signInFrom(signed.user.email, "Laptop/1.0");
      const other = await signUp(module, uniqueEmail("other"));
      const listed = await send(module, "GET", "/sessions", { token: laptop });
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get("cache-control"), "no-store");
      const sessions = listed.body.sessions;
      assert.equal(sessions.length, 2);
      const current = sessions.filter((s: any) => s.current);
      assert.equal(current.length, 1);
      assert.equal(current[0].userAgent, "Laptop/1.0");
      for (const session of sessions) {
        assert.deepEqual(
          Object.keys(session).sort(),
          ["createdAt", "current", "expiresAt", "id", "lastUsedAt", "userAgent"],
        );
      }
      const text = JSON.stringify(listed.body);
      for (const token of [signed.token, laptop, other.token]) {
        assert.ok(!text.includes(token), "no token in the list");
      }
      const [otherSession] = await db.query<{ id: string }>(
        "SELECT id FROM auth.sessions WHERE user_id = $1",
        [other.user.id],
      );
      assert.ok(!text.includes(otherSession.id), "no other user's session");
    });

    it("writes lastUsedAt at most once a minute per session", async () => {
      const signed = await signUp(module, uniqueEmail("touch"));
      await db.query(
        "UPDATE auth.sessions SET last_used_at = now() - interval '5 minutes' WHERE user_id = $1",
        [signed.user.id],
      );
      await call(module, "GET", "/me", { token: signed.token });
      const [first] = await db.query<{ last_used_at: Date }>(
        "SELECT last_used_at FROM auth.sessions WHERE user_id = $1",
        [signed.user.id],
      );
      for (let i = 0; i < 3; i++) await call(module, "GET", "/me", { token: signed.token });
      const [second] = await db.query<{ last_used_at: Date }>(
        "SELECT last_used_at FROM auth.sessions WHERE user_id = $1",
        [signed.user.id],
      );
      assert.equal(second.last_used_at.getTime(), first.last_used_at.getTime(), "one write");
      const listed = await send(module, "GET", "/sessions", { token: signed.token });
      assert.equal(listed.body.sessions[0].lastUsedAt, first.last_used_at.toISOString());
    });

    it("401 without a credential", async () => {
      assertError(await send(module, "GET", "/sessions"), 401, "UNAUTHENTICATED");
    });
  });

  describe(`${name}: DELETE /sessions/:sessionId`, () => {
    it("revokes one session: its next request is 401 (GET /me included), the others live on; sessionRevoked recorded", async () => {
      const signed = await signUp(module, uniqueEmail("revoke"));
      const lost = await signInFrom(signed.user.email, "Lost laptop");
      assert.equal((await call(module, "GET", "/me", { token: lost })).status, 200);
      const listed = await send(module, "GET", "/sessions", { token: signed.token });
      const target = listed.body.sessions.find((s: any) => s.userAgent === "Lost laptop");
      const revoked = await send(module, "DELETE", `/sessions/${target.id}`, {
        token: signed.token,
      });
      assert.equal(revoked.status, 204);
      assertError(await call(module, "GET", "/me", { token: lost }), 401, "UNAUTHENTICATED");
      assert.equal((await call(module, "GET", "/me", { token: signed.token })).status, 200);
      await module.api.hooks!.drain();
      const event = outbox.events.find((e) =>
        e.name === "sessionRevoked" && e.payload.sessionId === target.id
      );
      assert.ok(event);
      assert.equal(event.payload.reason, "revoked");
    });

    it("abuse: another user's session id, an unknown id and a malformed one are 404; nothing revoked", async () => {
      const alice = await signUp(module, uniqueEmail("alice"));
      const bob = await signUp(module, uniqueEmail("bob"));
      const [bobs] = await db.query<{ id: string }>(
        "SELECT id FROM auth.sessions WHERE user_id = $1",
        [bob.user.id],
      );
      for (const id of [bobs.id, crypto.randomUUID(), "not-a-uuid"]) {
        assertError(
          await send(module, "DELETE", `/sessions/${id}`, { token: alice.token }),
          404,
          "NOT_FOUND",
        );
      }
      assert.equal((await call(module, "GET", "/me", { token: bob.token })).status, 200);
    });

    it("abuse: a cross-origin cookie request is refused (403) and revokes nothing", async () => {
      const signed = await signUp(module, uniqueEmail("csrf"));
      const other = await signInFrom(signed.user.email, "Other");
      const listed = await send(module, "GET", "/sessions", { token: signed.token });
      const target = listed.body.sessions.find((s: any) => !s.current);
      assertError(
        await send(module, "DELETE", `/sessions/${target.id}`, {
          token: signed.token,
          transport: "cookie",
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
      assertError(
        await send(module, "POST", "/sessions/revoke-others", {
          token: signed.token,
          transport: "cookie",
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
      assert.equal((await call(module, "GET", "/me", { token: other })).status, 200);
    });
  });

  describe(`${name}: revocation everywhere`, () => {
    it("a session revoked through one instance (process) fails its next request on another, /me included", async () => {
      // A second instance on the same database stands for another process of the deployment.
      const { module: second } = await accountModule(db);
      const signed = await signUp(module, uniqueEmail("everywhere"));
      const other = await signInFrom(signed.user.email, "Elsewhere");
      assert.equal((await call(second, "GET", "/me", { token: other })).status, 200);
      assert.equal((await call(second, "GET", "/me", { token: other })).status, 200);
      const result = await send(module, "POST", "/sessions/revoke-others", {
        token: signed.token,
      });
      assert.equal(result.body.revokedSessions, 1);
      assertError(await call(second, "GET", "/me", { token: other }), 401, "UNAUTHENTICATED");
      assertError(await call(second, "GET", "/sessions", { token: other }), 401, "UNAUTHENTICATED");
    });
  });

  describe(`${name}: POST /sessions/revoke-others`, () => {
    it("signs out every other session of the caller only", async () => {
      const signed = await signUp(module, uniqueEmail("others"));
      const a = await signInFrom(signed.user.email, "A");
      const b = await signInFrom(signed.user.email, "B");
      const stranger = await signUp(module, uniqueEmail("stranger"));
      const result = await send(module, "POST", "/sessions/revoke-others", { token: a });
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, { revokedSessions: 2 });
      for (const token of [signed.token, b]) {
        assertError(await call(module, "GET", "/me", { token }), 401, "UNAUTHENTICATED");
      }
      assert.equal((await call(module, "GET", "/me", { token: a })).status, 200);
      assert.equal((await call(module, "GET", "/me", { token: stranger.token })).status, 200);
      const listed = await send(module, "GET", "/sessions", { token: a });
      assert.equal(listed.body.sessions.length, 1);
    });
  });

  describe(`${name}: POST /password/change`, () => {
    it("changes the password and by default signs out the other sessions; passwordChanged recorded", async () => {
      const signed = await signUp(module, uniqueEmail("change"));
      const other = await signInFrom(signed.user.email, "Other");
      const changed = await send(module, "POST", "/password/change", {
        token: signed.token,
        body: { currentPassword: PASSWORD, newPassword: "an entirely new one" },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.revokedSessions, 1);
      assert.equal(changed.body.user.id, signed.user.id);
      assertError(await call(module, "GET", "/me", { token: other }), 401, "UNAUTHENTICATED");
      assert.equal((await call(module, "GET", "/me", { token: signed.token })).status, 200);
      assert.equal(
        (await call(module, "POST", "/sign-in", {
          body: { email: signed.user.email, password: "an entirely new one" },
        })).status,
        200,
      );
      await module.api.hooks!.drain();
      assert.ok(
        outbox.events.some((e) =>
          e.name === "passwordChanged" && e.payload.user.id === signed.user.id
        ),
      );
    });

    it("revokeOtherSessions: false keeps the other sessions", async () => {
      const signed = await signUp(module, uniqueEmail("keep"));
      const other = await signInFrom(signed.user.email, "Other");
      const changed = await send(module, "POST", "/password/change", {
        token: signed.token,
        body: {
          currentPassword: PASSWORD,
          newPassword: "another new password",
          revokeOtherSessions: false,
        },
      });
      assert.equal(changed.body.revokedSessions, 0);
      assert.equal((await call(module, "GET", "/me", { token: other })).status, 200);
    });

    it("a wrong current password is 401 INVALID_CREDENTIALS, counted by the sign-in limits", async () => {
      const { module: limited } = await accountModule(db, {
        namespace: "change_limits",
        rateLimit: { max: 100, perAccount: { max: 3 } },
      });
      const signed = await signUp(limited, uniqueEmail("wrong"));
      for (let i = 0; i < 2; i++) {
        assertError(
          await send(limited, "POST", "/password/change", {
            token: signed.token,
            body: { currentPassword: "not my password", newPassword: "whatever it is" },
          }),
          401,
          "INVALID_CREDENTIALS",
        );
      }
      assertError(
        await send(limited, "POST", "/sign-in", {
          body: { email: signed.user.email, password: "still wrong" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      // Three failures on the account (two changes, one sign-in): the next sign-in is limited.
      assertError(
        await send(limited, "POST", "/sign-in", {
          body: { email: signed.user.email, password: PASSWORD },
        }),
        429,
        "RATE_LIMITED",
      );
      assertError(
        await send(limited, "POST", "/password/change", {
          token: signed.token,
          body: { currentPassword: PASSWORD, newPassword: "whatever it is" },
        }),
        429,
        "RATE_LIMITED",
      );
    });

    it("abuse: a cross-origin cookie request is refused (403), the password unchanged", async () => {
      const signed = await signUp(module, uniqueEmail("csrf-change"));
      assertError(
        await send(module, "POST", "/password/change", {
          token: signed.token,
          transport: "cookie",
          origin: "https://evil.example",
          body: { currentPassword: PASSWORD, newPassword: "attacker's choice" },
        }),
        403,
        "CSRF_REJECTED",
      );
      assert.equal(
        (await call(module, "POST", "/sign-in", {
          body: { email: signed.user.email, password: PASSWORD },
        })).status,
        200,
      );
    });
  });

  describe(`${name}: auth.api`, () => {
    it("listSessions, revokeSession (another user's: 404), revokeOtherSessions, changePassword", async () => {
      const signed = await signUp(module, uniqueEmail("api"));
      const other = await signInFrom(signed.user.email, "Other");
      const { sessions } = await module.api.listSessions({ token: signed.token });
      assert.equal(sessions.length, 2);
      const stranger = await signUp(module, uniqueEmail("api-stranger"));
      await assert.rejects(
        module.api.revokeSession({ token: stranger.token }, { sessionId: sessions[0].id }),
        (error: any) => error.status === 404,
      );
      assert.deepEqual(await module.api.revokeOtherSessions({ token: signed.token }), {
        revokedSessions: 1,
      });
      assertError(await call(module, "GET", "/me", { token: other }), 401, "UNAUTHENTICATED");
      const changed = await module.api.changePassword({ userId: signed.user.id }, {
        currentPassword: PASSWORD,
        newPassword: "changed on the server",
      });
      assert.equal(changed.revokedSessions, 1, "a { userId } actor keeps no session");
    });
  });
});
