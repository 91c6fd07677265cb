// deno-lint-ignore-file no-explicit-any
// The second step under attack, over HTTP on PGlite and PostgreSQL: every refusal answers its code
// and issues no credential. A wrong code, a code replayed in its window (or an older one), brute
// force (5 attempts, then the challenge is gone; the sign-in rate limits per address and per
// account), a recovery code used twice, a challenge used twice, an expired challenge, one user's
// challenge with another's code, the challenge presented as a credential, malformed answers, a
// cross-site answer, and two answers racing for one code or one challenge (one wins).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { newToken } from "../../src/auth/sessions/tokens.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError } from "./helpers/http.ts";
import { accountModule, send } from "./helpers/account.ts";
import {
  answerChallenge,
  challengeOf,
  totpCode,
  type TwoFactorUser,
  twoFactorUser,
} from "./helpers/two_factor.ts";

/** A code of the user's secret that is not the right one now. */
function wrongCode(user: TwoFactorUser): string {
  const right = new Set([-1, 0, 1].map((step) => totpCode(user.secret, step)));
  for (let n = 0;; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!right.has(candidate)) return candidate;
  }
}

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let namespaces = 0;

  before(async () => {
    db = getAdapter();
    ({ module } = await accountModule(db));
  });

  async function sessionsOf(userId: string, namespace = "auth"): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${namespace}".sessions WHERE user_id = $1`,
      [userId],
    );
    return row.n;
  }

  /** Asserts a refused answer: its code, no cookie, no token. */
  function refused(answer: any, status: number, code: string): void {
    assertError(answer, status, code);
    assert.equal(answer.headers.get("set-cookie"), null);
    assert.equal(answer.body.token, undefined);
  }

  describe(`${name}: wrong and replayed codes`, () => {
    it("a wrong code: 401 INVALID_TWO_FACTOR_CODE, no credential, one attempt spent", async () => {
      const user = await twoFactorUser(module, "wrong");
      const sessions = await sessionsOf(user.user.id);
      const { challenge } = await challengeOf(module, user.user.email);
      const answer = await answerChallenge(module, { challenge, code: wrongCode(user) });
      refused(answer, 401, "INVALID_TWO_FACTOR_CODE");
      assert.match(answer.body.error.message, /4 attempts left/);
      assert.equal(await sessionsOf(user.user.id), sessions);
      // A code two steps away is outside the drift allowed.
      refused(
        await answerChallenge(module, { challenge, code: totpCode(user.secret, 2) }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
    });

    it("a code used once is refused for the rest of its window, and so is an older one", async () => {
      const user = await twoFactorUser(module, "replay");
      const code = totpCode(user.secret, 1);
      const first = await challengeOf(module, user.user.email);
      assert.equal(
        (await answerChallenge(module, { challenge: first.challenge, code })).status,
        200,
      );
      const second = await challengeOf(module, user.user.email);
      refused(
        await answerChallenge(module, { challenge: second.challenge, code }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      refused(
        await answerChallenge(module, {
          challenge: second.challenge,
          code: totpCode(user.secret, 0),
        }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      // The code that enabled TOTP is spent as well.
      const third = await challengeOf(module, user.user.email);
      refused(
        await answerChallenge(module, {
          challenge: third.challenge,
          code: totpCode(user.secret, -1),
        }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
    });

    it("two sign-ins racing with the same code: exactly one gets a credential", async () => {
      const user = await twoFactorUser(module, "race-code");
      const code = totpCode(user.secret, 1);
      const a = await challengeOf(module, user.user.email);
      const b = await challengeOf(module, user.user.email);
      const sessions = await sessionsOf(user.user.id);
      const answers = await Promise.all([
        answerChallenge(module, { challenge: a.challenge, code }),
        answerChallenge(module, { challenge: b.challenge, code }),
      ]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 401]);
      assert.equal(await sessionsOf(user.user.id), sessions + 1);
    });

    it("two right answers racing for one challenge: exactly one credential", async () => {
      const user = await twoFactorUser(module, "race-challenge");
      const { challenge } = await challengeOf(module, user.user.email);
      const sessions = await sessionsOf(user.user.id);
      const answers = await Promise.all([
        answerChallenge(module, { challenge, code: totpCode(user.secret, 1) }),
        answerChallenge(module, { challenge, recoveryCode: user.recoveryCodes[0] }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.status).sort(),
        [200, 400],
        JSON.stringify(answers.map((r) => r.body)),
      );
      assert.equal(await sessionsOf(user.user.id), sessions + 1);
    });
  });

  describe(`${name}: brute force`, () => {
    it("5 attempts per challenge: the 5th wrong one deletes it, even the right code is refused then", async () => {
      const user = await twoFactorUser(module, "brute");
      const { challenge } = await challengeOf(module, user.user.email);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await answerChallenge(module, { challenge, code: wrongCode(user) });
        refused(answer, 401, "INVALID_TWO_FACTOR_CODE");
        if (attempt === 5) assert.match(answer.body.error.message, /sign in again/);
      }
      const [{ n }] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM auth.two_factor_challenges WHERE user_id = $1`,
        [user.user.id],
      );
      assert.equal(n, 0, "deleted by the 5th wrong attempt");
      refused(
        await answerChallenge(module, { challenge, code: totpCode(user.secret, 1) }),
        400,
        "INVALID_TWO_FACTOR_CHALLENGE",
      );
      assert.equal(await sessionsOf(user.user.id), 1, "only the sign-up's session");
    });

    it("the sign-in limit per address counts the answers (429 RATE_LIMITED with Retry-After)", async () => {
      const { module: limited } = await accountModule(db, {
        namespace: `two_factor_rl_${++namespaces}`,
        rateLimit: { max: 3, perAccount: false },
      });
      const user = await twoFactorUser(limited, "per-address");
      const from = { remoteAddress: "203.0.113.7" };
      const { challenge } = await challengeOf(limited, user.user.email, from); // 1
      refused(
        await answerChallenge(limited, { challenge, code: wrongCode(user) }, from),
        401,
        "INVALID_TWO_FACTOR_CODE",
      ); // 2
      refused(
        await answerChallenge(limited, { challenge, code: wrongCode(user) }, from),
        401,
        "INVALID_TWO_FACTOR_CODE",
      ); // 3
      const limitedAnswer = await answerChallenge(
        limited,
        { challenge, code: totpCode(user.secret, 1) },
        from,
      );
      refused(limitedAnswer, 429, "RATE_LIMITED");
      assert.ok(Number(limitedAnswer.headers.get("retry-after")) > 0);
      // Another address is not held back, and the challenge was not spent by the refusal.
      const other = await answerChallenge(
        limited,
        { challenge, code: totpCode(user.secret, 1) },
        { remoteAddress: "198.51.100.9" },
      );
      assert.equal(other.status, 200, JSON.stringify(other.body));
    });

    it("the sign-in limit per account counts wrong answers across challenges, with wrong passwords", async () => {
      const namespace = `two_factor_rl_${++namespaces}`;
      const { module: limited } = await accountModule(db, {
        namespace,
        rateLimit: { perAccount: { max: 2 } },
      });
      const user = await twoFactorUser(limited, "per-account");
      const first = await challengeOf(limited, user.user.email);
      refused(
        await answerChallenge(limited, { challenge: first.challenge, code: wrongCode(user) }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      const second = await challengeOf(limited, user.user.email);
      refused(
        await answerChallenge(limited, { challenge: second.challenge, code: wrongCode(user) }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      refused(
        await answerChallenge(limited, {
          challenge: second.challenge,
          code: totpCode(user.secret, 1),
        }),
        429,
        "RATE_LIMITED",
      );
      assertError(
        await send(limited, "POST", "/sign-in", {
          body: { email: user.user.email, password: "correct horse battery" },
        }),
        429,
        "RATE_LIMITED",
      );
      assert.equal(await sessionsOf(user.user.id, namespace), 1, "only the sign-up's session");
    });
  });

  describe(`${name}: recovery codes and challenges used twice, expired, or another user's`, () => {
    it("a recovery code works once", async () => {
      const user = await twoFactorUser(module, "recovery-twice");
      const recoveryCode = user.recoveryCodes[5];
      const first = await challengeOf(module, user.user.email);
      assert.equal(
        (await answerChallenge(module, { challenge: first.challenge, recoveryCode })).status,
        200,
      );
      const second = await challengeOf(module, user.user.email);
      refused(
        await answerChallenge(module, { challenge: second.challenge, recoveryCode }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      refused(
        await answerChallenge(module, { challenge: second.challenge, recoveryCode: "not-a-code" }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
    });

    it("a challenge answered once is spent: 400 INVALID_TWO_FACTOR_CHALLENGE", async () => {
      const user = await twoFactorUser(module, "challenge-twice");
      const { challenge } = await challengeOf(module, user.user.email);
      assert.equal(
        (await answerChallenge(module, { challenge, code: totpCode(user.secret, 1) })).status,
        200,
      );
      refused(
        await answerChallenge(module, { challenge, recoveryCode: user.recoveryCodes[0] }),
        400,
        "INVALID_TWO_FACTOR_CHALLENGE",
      );
    });

    it("an expired challenge: 410 TWO_FACTOR_CHALLENGE_EXPIRED, even with the right code", async () => {
      const user = await twoFactorUser(module, "expired");
      const { challenge } = await challengeOf(module, user.user.email);
      await db.query(
        `UPDATE auth.two_factor_challenges SET expires_at = now() - interval '1 minute'
         WHERE user_id = $1`,
        [user.user.id],
      );
      refused(
        await answerChallenge(module, { challenge, code: totpCode(user.secret, 1) }),
        410,
        "TWO_FACTOR_CHALLENGE_EXPIRED",
      );
      assert.equal(await sessionsOf(user.user.id), 1);
    });

    it("user A's challenge with user B's TOTP code or recovery code is refused", async () => {
      const a = await twoFactorUser(module, "user-a");
      const b = await twoFactorUser(module, "user-b");
      const { challenge } = await challengeOf(module, a.user.email);
      refused(
        await answerChallenge(module, { challenge, code: totpCode(b.secret, 1) }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      refused(
        await answerChallenge(module, { challenge, recoveryCode: b.recoveryCodes[0] }),
        401,
        "INVALID_TWO_FACTOR_CODE",
      );
      assert.equal(await sessionsOf(a.user.id), 1);
      assert.equal(await sessionsOf(b.user.id), 1);
    });
  });

  describe(`${name}: skipping the second step`, () => {
    it("the challenge is no credential, as Bearer or as the cookie", async () => {
      const user = await twoFactorUser(module, "skip");
      const first = await send(module, "POST", "/sign-in", {
        body: { email: user.user.email, password: "correct horse battery" },
      });
      assert.equal(first.headers.get("set-cookie"), null);
      assert.equal(first.body.token, undefined);
      const challenge = first.body.challenge;
      for (const transport of ["bearer", "cookie"] as const) {
        for (const path of ["/me", "/session", "/two-factor"]) {
          assertError(
            await send(module, "GET", path, { token: challenge, transport }),
            401,
            "UNAUTHENTICATED",
          );
        }
      }
    });

    it("malformed answers: 400, and a challenge this module never issued", async () => {
      const user = await twoFactorUser(module, "malformed");
      const { challenge } = await challengeOf(module, user.user.email);
      const code = totpCode(user.secret, 1);
      for (
        const body of [
          { challenge },
          { challenge, code, recoveryCode: user.recoveryCodes[0] },
          { code },
          { challenge, code: 123456 },
        ]
      ) {
        refused(
          await send(module, "POST", "/sign-in/two-factor", { body }),
          400,
          "VALIDATION_ERROR",
        );
      }
      for (const forged of ["short", newToken()]) {
        refused(
          await answerChallenge(module, { challenge: forged, code }),
          400,
          "INVALID_TWO_FACTOR_CHALLENGE",
        );
      }
      // None of this spent the real challenge's attempts.
      assert.equal((await answerChallenge(module, { challenge, code })).status, 200);
    });

    it("an answer from another site is refused (403 CSRF_REJECTED)", async () => {
      const user = await twoFactorUser(module, "csrf");
      const { challenge } = await challengeOf(module, user.user.email);
      refused(
        await send(module, "POST", "/sign-in/two-factor", {
          body: { challenge, code: totpCode(user.secret, 1) },
          origin: "https://evil.example.net",
        }),
        403,
        "CSRF_REJECTED",
      );
    });
  });
});
