// The second step of a provider sign-in, against a real OpenID Provider (`oidc-provider` on
// 127.0.0.1, see helpers/oauth.ts): for a user with TOTP, the callback sends the browser to its
// redirectTo with `twoFactorChallenge=<challenge>` and `twoFactorMethods=<ways>` and sets no
// credential cookie; the app answers the challenge with POST /sign-in/two-factor, which sets the
// cookie and answers the redirectTo.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { signUp, uniqueEmail } from "./helpers/http.ts";
import { verifyEmail } from "./helpers/verification.ts";
import { APP, errorOf, jsonIn, meOf, oauthWorld, signInAs } from "./helpers/oauth.ts";
import { enableTotp, PASSWORD, totpCode } from "./helpers/two_factor.ts";

const world = oauthWorld();

describe("a provider sign-in of a user with TOTP (oidc-provider on 127.0.0.1)", () => {
  it("the callback carries the challenge to redirectTo, without a credential; the second step signs in", async () => {
    const owner = await signUp(world.module, uniqueEmail("provider-2fa"), PASSWORD);
    await verifyEmail(world.module, owner.user.id);
    const { secret } = await enableTotp(world.module, owner.token);

    const { browser, answer } = await signInAs(world, owner.user.email, {
      redirectTo: "/app#/home",
    });
    assert.equal(errorOf(answer), null);
    const location = answer.location!;
    assert.ok(location.startsWith(`${APP}/app#/home?twoFactorChallenge=`), location);
    const query = new URLSearchParams(new URL(location).hash.split("?")[1]);
    const challenge = query.get("twoFactorChallenge")!;
    assert.match(challenge, /^[A-Za-z0-9_-]{43}$/);
    // The ways this user can answer, as a password sign-in lists them (no passkey: not offered).
    assert.equal(query.get("twoFactorMethods"), "totp,recoveryCode");
    assert.ok(
      !answer.headers.getSetCookie().some((c) => c.startsWith("service_auth=")),
      "no credential cookie",
    );
    assert.equal((await meOf(browser)).status, 401);

    const second = await jsonIn(browser, "POST", "/sign-in/two-factor", {
      challenge,
      code: totpCode(secret, 1),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.redirectTo, "/app#/home");
    const me = await meOf(browser);
    assert.equal(me.status, 200, "the cookie of the second step");
    assert.equal(me.body.user.id, owner.user.id);
    const [row] = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.two_factor_challenges WHERE user_id = $1`,
      [owner.user.id],
    );
    assert.equal(row.n, 0);
  });
});
