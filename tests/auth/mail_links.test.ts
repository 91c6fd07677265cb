// deno-lint-ignore-file no-explicit-any
// The links the auth module mails, on PGlite: absolute (publicOrigin, else the address serve()
// listens at, else a localhost request's origin; never a public Host a client chose), the
// emailLinks option, GET /verify-email (verifies, then 303 to the app with the outcome; never
// 405), the development mailers (the only place a token is printed), and no token in any other
// log line.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { ModuleConfigError, serve } from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { call, signUp, uniqueEmail } from "./helpers/http.ts";
import {
  accountModule,
  expireAccountTokens,
  send,
  tokenOf,
  waitForMail,
} from "./helpers/account.ts";
import { latestMail } from "./helpers/verification.ts";

let db: SqlAdapter;

before(async () => {
  db = pgliteAdapter();
  await migrate(db, authSchema);
});
after(() => db.close());

/** Runs `work` with console.log/warn/error captured into `lines` (which it may watch). */
async function captureConsole(
  work: (lines: string[]) => Promise<void>,
  lines: string[] = [],
): Promise<string[]> {
  const originals = { log: console.log, warn: console.warn, error: console.error };
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  console.log = keep;
  console.warn = keep;
  console.error = keep;
  try {
    await work(lines);
  } finally {
    Object.assign(console, originals);
  }
  return lines;
}

describe("GET /verify-email", () => {
  it("verifies and redirects (303) to the app with the outcome; used, forged, expired and missing tokens redirect too (never 405)", async () => {
    const { module } = await accountModule(db, { namespace: "links_get" });
    await migrate(db, authSchema, { namespace: "links_get" });
    const signed = await signUp(module, uniqueEmail("get"));
    const mail = latestMail(module, signed.user.id);
    const link = new URL(mail.url);
    assert.equal(link.origin, "https://app.example.com");
    const opened = await send(module, "GET", `/verify-email${link.search}`);
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get("location"), "/?emailVerified=true");
    assert.equal(opened.headers.get("cache-control"), "no-store");
    assert.equal(
      (await call(module, "GET", "/me", { token: signed.token })).body.user.emailVerified,
      true,
    );
    const again = await send(module, "GET", `/verify-email${link.search}`);
    assert.equal(again.headers.get("location"), "/?emailVerification=invalid");
    for (const query of ["", "?token=", "?token=forged", `?token=${"D".repeat(43)}`]) {
      const result = await send(module, "GET", `/verify-email${query}`);
      assert.equal(result.status, 303, query);
      assert.equal(result.headers.get("location"), "/?emailVerification=invalid");
    }
    const late = await signUp(module, uniqueEmail("late"));
    await db.query(
      "UPDATE links_get.email_verifications SET expires_at = now() - interval '1 minute' WHERE user_id = $1",
      [late.user.id],
    );
    const expired = await send(
      module,
      "GET",
      `/verify-email?token=${latestMail(module, late.user.id).token}`,
    );
    assert.equal(expired.headers.get("location"), "/?emailVerification=expired");
  });

  it("auth.api.followVerificationLink answers the outcome and the location the link redirects to", async () => {
    const { module } = await accountModule(db, { namespace: "links_api" });
    await migrate(db, authSchema, { namespace: "links_api" });
    const signed = await signUp(module, uniqueEmail("api"));
    const token = latestMail(module, signed.user.id).token;
    assert.deepEqual(await module.api.followVerificationLink({ token }), {
      outcome: "verified",
      location: "/?emailVerified=true",
    });
    assert.equal((await module.api.me({ userId: signed.user.id })).user.emailVerified, true);
    assert.deepEqual(await module.api.followVerificationLink({ token }), {
      outcome: "invalid",
      location: "/?emailVerification=invalid",
    });
    assert.deepEqual(await module.api.followVerificationLink({}), {
      outcome: "invalid",
      location: "/?emailVerification=invalid",
    });
  });

  it("is rate-limited per address like POST /verify-email (the outcome says so)", async () => {
    const { module } = await accountModule(db, {
      namespace: "links_flood",
      rateLimit: { max: 2, perAccount: false },
    });
    const outcomes: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        (await send(module, "GET", `/verify-email?token=${"E".repeat(43)}`, {
          remoteAddress: "192.0.2.9",
        })).headers.get("location"),
      );
    }
    assert.deepEqual(outcomes, [
      "/?emailVerification=invalid",
      "/?emailVerification=invalid",
      "/?emailVerification=rate-limited",
    ]);
  });
});

describe("absolute links", () => {
  it("emailLinks points each kind elsewhere (absolute URL or a path of publicOrigin)", async () => {
    const { module, outbox } = await accountModule(db, {
      namespace: "links_custom",
      emailLinks: {
        verifyEmail: "/verify",
        resetPassword: "https://spa.example.com/reset",
        confirmEmailChange: "https://spa.example.com/#/confirm?step=1",
        afterVerifyEmail: "https://spa.example.com/welcome",
      },
    });
    const signed = await signUp(module, uniqueEmail("custom"));
    const verification = latestMail(module, signed.user.id);
    assert.equal(verification.url, `https://app.example.com/verify?token=${verification.token}`);
    await send(module, "POST", "/password/forgot", { body: { email: signed.user.email } });
    await waitForMail(outbox.resets, 1);
    assert.equal(
      outbox.resets[0].url,
      `https://spa.example.com/reset?token=${outbox.resets[0].token}`,
    );
    await send(module, "POST", "/email/change", {
      token: signed.token,
      body: { newEmail: uniqueEmail("n"), password: "correct horse battery" },
    });
    assert.equal(
      outbox.changes[0].url,
      `https://spa.example.com/#/confirm?step=1&token=${outbox.changes[0].token}`,
    );
    const redirected = await send(module, "GET", `/verify-email?token=${verification.token}`);
    assert.equal(
      redirected.headers.get("location"),
      "https://spa.example.com/welcome?emailVerified=true",
    );
  });

  it("without publicOrigin: a localhost request's origin, else the address serve() listens at; never a public Host a client chose", async () => {
    await migrate(db, authSchema, { namespace: "links_origin" });
    const mails: any[] = [];
    const module = auth({
      database: db,
      namespace: "links_origin",
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      autoStart: false,
      sendPasswordResetEmail: (mail) => void mails.push(mail),
    });
    const signed = await signUp(module, uniqueEmail("origin"));
    const forgot = (base: string) =>
      module.fetch(
        new Request(`${base}/api/auth/password/forgot`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: signed.user.email }),
        }),
      );
    await forgot("http://localhost:8000");
    await waitForMail(mails, 1);
    assert.ok(
      mails.at(-1).url.startsWith("http://localhost:8000/#reset-password?token="),
      mails.at(-1).url,
    );
    await forgot("http://attacker.example");
    await waitForMail(mails, 2);
    assert.ok(!mails.at(-1).url.includes("attacker.example"), mails.at(-1).url);
    const server = await serve([module], { port: 0, handleSignals: false });
    try {
      await forgot("http://attacker.example");
      await waitForMail(mails, 3);
      assert.ok(
        mails.at(-1).url.startsWith(`${server.url}/#reset-password?token=`),
        mails.at(-1).url,
      );
      const response = await fetch(`${server.url}/api/auth/password/forgot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: signed.user.email }),
      });
      assert.equal(response.status, 202);
      await response.body?.cancel();
      await waitForMail(mails, 4);
      assert.ok(mails.at(-1).url.startsWith(`${server.url}/`));
    } finally {
      await server.shutdown();
    }
  });

  it("bad emailLinks, passwordResetTtlMinutes and account.hooks are configuration errors", () => {
    const bad: any[] = [
      { emailLinks: { resetPassword: "javascript:alert(1)" } },
      { emailLinks: { resetPassword: "//evil.example/x" } },
      { emailLinks: { somewhere: "/x" } },
      { passwordResetTtlMinutes: 0 },
      { passwordResetTtlMinutes: 1441 },
      { account: { hooks: { passwordReset: "no" } } },
      { account: { hooks: { unknownEvent: () => {} } } },
      { sendPasswordResetEmail: "console" },
    ];
    for (const options of bad) {
      assert.throws(
        () => auth({ database: db, ...options }),
        ModuleConfigError,
        JSON.stringify(options),
      );
    }
  });

  it("passwordResetTtlMinutes sets the reset token's lifetime", async () => {
    const { module, outbox } = await accountModule(db, {
      namespace: "links_ttl",
      passwordResetTtlMinutes: 15,
    });
    const signed = await signUp(module, uniqueEmail("ttl"));
    await send(module, "POST", "/password/forgot", { body: { email: signed.user.email } });
    await waitForMail(outbox.resets, 1);
    const [row] = await db.query<{ minutes: number }>(
      "SELECT extract(epoch FROM expires_at - created_at)::float8 / 60 AS minutes FROM links_ttl.account_tokens WHERE user_id = $1",
      [signed.user.id],
    );
    assert.equal(Math.round(row.minutes), 15);
    assert.equal(outbox.resets.length, 1);
    await expireAccountTokens(db, signed.user.id, "links_ttl");
  });
});

describe("tokens in logs", () => {
  it("the development mailers print the link (and only they); nothing else logs a token", async () => {
    await migrate(db, authSchema, { namespace: "links_console" });
    const module = auth({
      database: db,
      namespace: "links_console",
      publicOrigin: "https://app.example.com",
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      autoStart: false,
    });
    let signed: any;
    const lines = await captureConsole(async (lines) => {
      signed = await signUp(module, uniqueEmail("console"));
      await send(module, "POST", "/password/forgot", { body: { email: signed.user.email } });
      await waitForMail(lines, 2); // the reset link is logged after the answer
      await send(module, "POST", "/email/change", {
        token: signed.token,
        body: { newEmail: uniqueEmail("c"), password: "correct horse battery" },
      });
    });
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.match(lines[0], /^\[auth\] Verification link for /);
    assert.match(
      lines[1],
      /^\[auth\] Password reset link for .*https:\/\/app\.example\.com\/#reset-password\?token=/,
    );
    assert.match(
      lines[2],
      /^\[auth\] Email change confirmation link for .*https:\/\/app\.example\.com\/#confirm-email\?token=/,
    );
    const resetToken = tokenOf(lines[1]);
    const changeToken = tokenOf(lines[2]);
    const later: string[] = [];
    await captureConsole(async () => {
      assert.equal(
        (await send(module, "POST", "/password/reset", {
          body: { token: resetToken, password: "brand new password" },
        })).status,
        200,
      );
      assert.equal(
        (await send(module, "POST", "/email/change/confirm", { body: { token: changeToken } }))
          .status,
        200,
      );
      const failing = auth({
        database: db,
        namespace: "links_console",
        publicOrigin: "https://app.example.com",
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
        autoStart: false,
        sendPasswordResetEmail: () => {
          throw new Error("mail server down");
        },
      });
      const before = later.length;
      await send(failing, "POST", "/password/forgot", {
        body: { email: (await failing.api.me({ userId: signed.user.id })).user.email },
      });
      await waitForMail(later, before + 1); // the failure is logged after the answer
    }, later);
    for (const line of later) {
      assert.ok(!/[A-Za-z0-9_-]{43}/.test(line), `no token-like value in: ${line}`);
    }
    assert.ok(
      later.some((line) => line.includes("sendPasswordResetEmail failed")),
      later.join("\n"),
    );
  });
});
