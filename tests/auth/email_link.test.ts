// deno-lint-ignore-file no-explicit-any
// Passwordless sign-in by email link over HTTP on PGlite and PostgreSQL: the same 202 for known and
// unknown addresses (no mail for an unknown one unless emailLinkSignUp), the link with its token in
// the fragment only, the hashed, single-use, 15-minute token (a newer link voids the older; two
// racing uses, one wins), the credential answer and cookie, the address counting as verified, the
// account created by emailLinkSignUp, redirectTo (checked: no open redirect), the deleted account,
// the pre-hijacked unverified account, the rate limits, CSRF and auth.api.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ModuleConfigError } from "../../src/core/mod.ts";
import {
  auth,
  type AuthModule,
  type AuthOptions,
  scryptDerive,
  scryptPasswordHasher,
  type SignInEmail,
} from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, send, waitForMail } from "./helpers/account.ts";
import { verifyEmail } from "./helpers/verification.ts";

const PASSWORD = "correct horse battery";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let mails: SignInEmail[];
  let namespaces = 0;

  /** A module of its own namespace whose sign-in mails go to the returned list. */
  async function linkModule(
    options: Partial<AuthOptions> = {},
  ): Promise<{ module: AuthModule; mails: SignInEmail[]; namespace: string }> {
    const mails: SignInEmail[] = [];
    const namespace = `email_link_${++namespaces}`;
    const { module } = await accountModule(db, {
      namespace,
      trustedOrigins: ["https://spa.example.com"],
      sendSignInEmail: (mail) => void mails.push(mail),
      ...options,
    });
    return { module, mails, namespace };
  }

  before(async () => {
    db = getAdapter();
    ({ module, mails } = await linkModule({ namespace: "auth" }));
  });

  async function ask(email: string, extra: Record<string, unknown> = {}, target = module) {
    return await send(target, "POST", "/sign-in/email-link", { body: { email, ...extra } });
  }

  /** Asks for a link to `email` and returns the mail it produced. */
  async function linkFor(email: string, extra: Record<string, unknown> = {}, target = module) {
    const list = target === module ? mails : undefined;
    assert.ok(list, "linkFor() on the shared module only");
    const before = list.length;
    const result = await ask(email, extra);
    assert.equal(result.status, 202, JSON.stringify(result.body));
    return await waitForMail(list, before + 1);
  }

  async function verify(token: string, target = module) {
    return await send(target, "POST", "/sign-in/email-link/verify", { body: { token } });
  }

  describe(`${name}: POST /sign-in/email-link`, () => {
    it("answers 202 with the same body for a known and an unknown address; mails only the known one", async () => {
      const known = await signUp(module, uniqueEmail("known"));
      const before = mails.length;
      const first = await ask(known.user.email.toUpperCase());
      await waitForMail(mails, before + 1);
      const unknown = await ask(uniqueEmail("nobody"));
      // A mail for the unknown address would have come before the next known one's.
      await ask(` ${known.user.email} `);
      await waitForMail(mails, before + 2);
      assert.equal(mails.length, before + 2, "no mail for an unknown address");
      for (const result of [first, unknown]) {
        assert.equal(result.status, 202);
        assert.equal(result.headers.get("set-cookie"), null);
      }
      assert.deepEqual(unknown.body, first.body);
      assert.deepEqual(Object.keys(first.body), ["message"]);
      const mail = mails[before];
      assert.equal(mail.email, known.user.email);
      assert.deepEqual(mail.user, known.user);
      assert.match(mail.token, /^[A-Za-z0-9_-]{43}$/, "256 bits in base64url");
      assert.equal(mail.url, `https://app.example.com/#sign-in-link?token=${mail.token}`);
    });

    it("puts the token in the fragment only: no query, whatever emailLinks.signIn says", async () => {
      const mail = await linkFor((await signUp(module, uniqueEmail("hash"))).user.email);
      const url = new URL(mail.url);
      assert.equal(url.search, "", "nothing a server (or a scanner's fetch) receives");
      assert.equal(url.pathname, "/");
      assert.equal(url.hash, `#sign-in-link?token=${mail.token}`);
      const elsewhere = await linkModule({
        emailLinks: { signIn: "https://spa.example.com/login" },
      });
      const user = await signUp(elsewhere.module, uniqueEmail("spa"));
      await ask(user.user.email, {}, elsewhere.module);
      const spaMail = await waitForMail(elsewhere.mails, 1);
      assert.equal(spaMail.url, `https://spa.example.com/login#token=${spaMail.token}`);
      assert.equal(new URL(spaMail.url).search, "");
    });

    it("builds the link from publicOrigin, never from a Host a client chose", async () => {
      const bare = await linkModule({ publicOrigin: undefined });
      const signed = await signUp(bare.module, uniqueEmail("host"));
      const askFrom = async (base: string) => {
        const response = await bare.module.fetch(
          new Request(`${base}/api/auth/sign-in/email-link`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: signed.user.email }),
          }),
        );
        assert.equal(response.status, 202);
        await response.body?.cancel();
      };
      await askFrom("http://attacker.example");
      const foreign = await waitForMail(bare.mails, 1);
      assert.ok(!foreign.url.includes("attacker.example"), foreign.url);
      assert.equal(foreign.url, `/#sign-in-link?token=${foreign.token}`);
      await askFrom("http://localhost:8000");
      const local = await waitForMail(bare.mails, 2);
      assert.equal(local.url, `http://localhost:8000/#sign-in-link?token=${local.token}`);
    });

    it("stores only the SHA-256 of the token, expiring after 15 minutes", async () => {
      const signed = await signUp(module, uniqueEmail("stored"));
      const mail = await linkFor(signed.user.email);
      const rows = await db.query<{ token_hash: string; minutes: number; user_id: string }>(
        `SELECT token_hash, user_id::text, extract(epoch FROM expires_at - created_at)::float8 / 60
           AS minutes
         FROM auth.email_link_tokens WHERE email = $1`,
        [signed.user.email],
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0].token_hash, hashToken(mail.token));
      assert.equal(rows[0].user_id, signed.user.id);
      assert.equal(Math.round(rows[0].minutes), 15);
      const all = await db.query<{ row: string }>(
        "SELECT t::text AS row FROM auth.email_link_tokens t",
      );
      assert.ok(all.every(({ row }) => !row.includes(mail.token)), "no plain token stored");
    });

    it("refuses a malformed address (400) and a cross-origin request (403), mailing nothing", async () => {
      const signed = await signUp(module, uniqueEmail("csrf"));
      const before = mails.length;
      assertError(await ask("not an address"), 400, "VALIDATION_ERROR");
      assertError(
        await send(module, "POST", "/sign-in/email-link", {
          body: { email: signed.user.email },
          origin: "https://evil.example",
        }),
        403,
        "CSRF_REJECTED",
      );
      await linkFor(signed.user.email);
      assert.equal(mails.length, before + 1);
    });

    it("prints the link by default, like the other development mailers; a failing mailer is logged without the token", async () => {
      const lines: string[] = [];
      const original = { log: console.log, error: console.error };
      console.log = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
      console.error = console.log;
      try {
        const printing = await linkModule({ sendSignInEmail: undefined });
        const signed = await signUp(printing.module, uniqueEmail("printed"));
        await ask(signed.user.email, {}, printing.module);
        await waitForMail(lines, 1);
        assert.match(
          lines[0],
          new RegExp(
            `^\\[auth\\] Sign-in link for ${
              signed.user.email.replaceAll(".", "\\.")
            }: https://app\\.example\\.com/#sign-in-link\\?token=[A-Za-z0-9_-]{43} `,
          ),
        );
        const failing = await linkModule({
          sendSignInEmail: () => {
            throw new Error("mail server down");
          },
        });
        const user = await signUp(failing.module, uniqueEmail("failing"));
        assert.equal((await ask(user.user.email, {}, failing.module)).status, 202);
        await waitForMail(lines, 2);
        assert.match(lines[1], /sendSignInEmail failed: mail server down/);
        assert.ok(!/[A-Za-z0-9_-]{43}/.test(lines[1]), lines[1]);
      } finally {
        Object.assign(console, original);
      }
    });

    it("is rate-limited per client address and per address asked about (the same 429 for an unknown one)", async () => {
      const limited = await linkModule({ rateLimit: { max: 3, perAccount: { max: 2 } } });
      const from = { remoteAddress: "192.0.2.60" };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await send(limited.module, "POST", "/sign-in/email-link", {
            body: { email: uniqueEmail("flood") },
            ...from,
          })).status,
        );
      }
      assert.deepEqual(statuses, [202, 202, 202, 429]);
      const known = await signUp(limited.module, uniqueEmail("inbox"));
      for (const email of [known.user.email, uniqueEmail("ghost")]) {
        const perAccount: number[] = [];
        for (let i = 0; i < 3; i++) perAccount.push((await ask(email, {}, limited.module)).status);
        assert.deepEqual(perAccount, [202, 202, 429], email);
      }
      await waitForMail(limited.mails, 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(limited.mails.length, 2, "at most perAccount.max mails to one inbox");
    });
  });

  describe(`${name}: POST /sign-in/email-link/verify`, () => {
    it("answers the credential of POST /sign-in with its cookie, and marks the address verified", async () => {
      const signed = await signUp(module, uniqueEmail("verify"));
      assert.equal(signed.user.emailVerified, false);
      const mail = await linkFor(signed.user.email);
      const result = await verify(mail.token);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual(Object.keys(result.body).sort(), [
        "expiresAt",
        "redirectTo",
        "token",
        "user",
      ]);
      assert.equal(result.body.redirectTo, null);
      assert.equal(result.body.user.id, signed.user.id);
      assert.equal(result.body.user.emailVerified, true);
      assert.match(result.body.token, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(
        result.headers.get("set-cookie")?.startsWith(`service_auth=${result.body.token};`),
      );
      const session = await call(module, "GET", "/session", { token: result.body.token });
      assert.equal(session.status, 200);
      assert.equal(session.body.user.emailVerified, true);
      const [row] = await db.query<{ verified: boolean }>(
        "SELECT email_verified_at IS NOT NULL AS verified FROM auth.users WHERE id = $1",
        [signed.user.id],
      );
      assert.equal(row.verified, true);
    });

    it("works once: a reused token is 400 INVALID_SIGN_IN_LINK, and of two racing uses one wins", async () => {
      const signed = await signUp(module, uniqueEmail("reuse"));
      const mail = await linkFor(signed.user.email);
      assert.equal((await verify(mail.token)).status, 200);
      assertError(await verify(mail.token), 400, "INVALID_SIGN_IN_LINK");
      const raced = await linkFor(signed.user.email);
      const results = await Promise.all(Array.from({ length: 6 }, () => verify(raced.token)));
      const statuses = results.map((result) => result.status).sort();
      assert.deepEqual(statuses, [200, 400, 400, 400, 400, 400]);
      const [{ sessions }] = await db.query<{ sessions: number }>(
        "SELECT count(*)::int AS sessions FROM auth.sessions WHERE user_id = $1",
        [signed.user.id],
      );
      // The sign-up's session ended with the first link (the address was not verified yet).
      assert.equal(sessions, 2, "the first link's and one of the race's");
    });

    it("expires after 15 minutes (410 SIGN_IN_LINK_EXPIRED); a newer link voids the older", async () => {
      const signed = await signUp(module, uniqueEmail("expiry"));
      const old = await linkFor(signed.user.email);
      const newer = await linkFor(signed.user.email);
      assertError(await verify(old.token), 400, "INVALID_SIGN_IN_LINK");
      await db.query(
        `UPDATE auth.email_link_tokens SET expires_at = now() - interval '1 second',
           created_at = now() - interval '16 minutes'
         WHERE email = $1`,
        [signed.user.email],
      );
      assertError(await verify(newer.token), 410, "SIGN_IN_LINK_EXPIRED");
    });

    it("refuses forged and malformed tokens (400) and a body without a token (400 VALIDATION_ERROR)", async () => {
      for (const token of ["", "forged", "F".repeat(43), "x".repeat(512)]) {
        assertError(await verify(token), 400, "INVALID_SIGN_IN_LINK");
      }
      assertError(
        await send(module, "POST", "/sign-in/email-link/verify", { body: {} }),
        400,
        "VALIDATION_ERROR",
      );
    });

    it("does not sign in to a deleted account, nor after the address changed", async () => {
      const deleted = await signUp(module, uniqueEmail("deleted"));
      const mail = await linkFor(deleted.user.email);
      await module.api.deleteAccount({ userId: deleted.user.id }, { password: PASSWORD });
      assertError(await verify(mail.token), 400, "INVALID_SIGN_IN_LINK");

      const moved = await signUp(module, uniqueEmail("moved"));
      const movedMail = await linkFor(moved.user.email);
      await db.query("UPDATE auth.users SET email = $2 WHERE id = $1", [
        moved.user.id,
        uniqueEmail("elsewhere"),
      ]);
      assertError(await verify(movedMail.token), 400, "INVALID_SIGN_IN_LINK");
    });

    it("takes an unverified account back from whoever set it up: their password, sessions, pending tokens and provider accounts go", async () => {
      // The attacker signs up first with the victim's address (never verified) and keeps a session.
      const victim = uniqueEmail("victim");
      const attacker = await signUp(module, victim, "attacker's password");
      await send(module, "POST", "/email/change", {
        token: attacker.token,
        body: { newEmail: uniqueEmail("attacker"), password: "attacker's password" },
      });
      // …and a provider account of theirs connected to it.
      await db.query(
        `INSERT INTO auth.identities (user_id, provider, subject, email)
         VALUES ($1, 'acme', 'attacker-subject', $2)`,
        [attacker.user.id, victim],
      );
      const mail = await linkFor(victim);
      const signedIn = await verify(mail.token);
      assert.equal(signedIn.status, 200);
      assert.equal(signedIn.body.user.id, attacker.user.id, "the address's one account");
      assertError(
        await call(module, "GET", "/session", { token: attacker.token }),
        401,
        "UNAUTHENTICATED",
      );
      assertError(
        await call(module, "POST", "/sign-in", {
          body: { email: victim, password: "attacker's password" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      const [{ tokens }] = await db.query<{ tokens: number }>(
        "SELECT count(*)::int AS tokens FROM auth.account_tokens WHERE user_id = $1",
        [attacker.user.id],
      );
      assert.equal(tokens, 0, "the attacker's pending address change is void");
      const [{ identities }] = await db.query<{ identities: number }>(
        "SELECT count(*)::int AS identities FROM auth.identities WHERE user_id = $1",
        [attacker.user.id],
      );
      assert.equal(identities, 0, "the attacker's provider account is disconnected");
      assert.equal(
        (await call(module, "GET", "/session", { token: signedIn.body.token })).status,
        200,
      );

      // A verified account keeps its password and sessions.
      const owner = await signUp(module, uniqueEmail("owner"));
      await verifyEmail(module, owner.user.id);
      assert.equal((await verify((await linkFor(owner.user.email)).token)).status, 200);
      assert.equal((await call(module, "GET", "/session", { token: owner.token })).status, 200);
      assert.equal((await verify((await linkFor(owner.user.email)).token)).status, 200);
      assert.equal((await call(module, "GET", "/session", { token: owner.token })).status, 200);
      assert.equal(
        (await call(module, "POST", "/sign-in", {
          body: { email: owner.user.email, password: PASSWORD },
        })).status,
        200,
      );
    });
  });

  describe(`${name}: redirectTo`, () => {
    it("keeps a path or a URL of publicOrigin or a trusted origin with the token, and answers it", async () => {
      const signed = await signUp(module, uniqueEmail("redirect"));
      for (
        const [given, kept] of [
          ["/invoices?tab=open#top", "/invoices?tab=open#top"],
          ["https://app.example.com/settings", "https://app.example.com/settings"],
          ["https://spa.example.com/welcome", "https://spa.example.com/welcome"],
        ]
      ) {
        const mail = await linkFor(signed.user.email, { redirectTo: given });
        assert.ok(!mail.url.includes("invoices") && !mail.url.includes("welcome"), mail.url);
        const result = await verify(mail.token);
        assert.equal(result.status, 200);
        assert.equal(result.body.redirectTo, kept);
      }
    });

    it("refuses any other target with 400 INVALID_REDIRECT and mails nothing (no open redirect)", async () => {
      const signed = await signUp(module, uniqueEmail("open"));
      const before = mails.length;
      for (
        const target of [
          "https://evil.example/",
          "//evil.example/x",
          "/\\evil.example",
          "\\\\evil.example",
          "/\t/evil.example",
          "javascript:alert(1)",
          "data:text/html,hi",
          "https://app.example.com@evil.example/",
          "https://user:pass@app.example.com/",
          "http://app.example.com/",
          "https://app.example.com.evil.example/",
          "evil.example",
          "",
        ]
      ) {
        assertError(await ask(signed.user.email, { redirectTo: target }), 400, "INVALID_REDIRECT");
        // The same refusal for an unknown address: it tells nothing.
        assertError(await ask(uniqueEmail("x"), { redirectTo: target }), 400, "INVALID_REDIRECT");
      }
      await linkFor(signed.user.email);
      assert.equal(mails.length, before + 1, "only the last, valid request mailed");
    });
  });

  describe(`${name}: emailLinkSignUp`, () => {
    it("off (the default): an unknown address gets no mail, and a sign-up link cannot be forged into an account", async () => {
      const unknown = uniqueEmail("stranger");
      const known = await signUp(module, uniqueEmail("marker"));
      const before = mails.length;
      await ask(unknown);
      await linkFor(known.user.email);
      assert.equal(mails.length, before + 1);
      assert.equal(mails.at(-1)!.email, known.user.email);
      const rows = await db.query("SELECT 1 FROM auth.email_link_tokens WHERE email = $1", [
        unknown,
      ]);
      assert.equal(rows.length, 0, "nothing stored for an unknown address");
    });

    it("on: an unknown address gets a link (user null) that creates its account, verified, without a password", async () => {
      let derivations = 0;
      const open = await linkModule({
        emailLinkSignUp: true,
        passwordHasher: scryptPasswordHasher({
          params: { ln: 4 },
          derive: (...args) => (derivations++, scryptDerive(...args)),
        }),
      });
      const email = uniqueEmail("newcomer");
      const answer = await ask(email.toUpperCase(), { redirectTo: "/welcome" }, open.module);
      assert.equal(answer.status, 202);
      assert.deepEqual(answer.body, (await ask(uniqueEmail("other"), {}, module)).body);
      const mail = await waitForMail(open.mails, 1);
      assert.equal(mail.user, null);
      assert.equal(mail.email, email);
      const [none] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${open.namespace}".users WHERE email = $1`,
        [email],
      );
      assert.equal(none.n, 0, "no account before the link is used");
      const result = await verify(mail.token, open.module);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.equal(result.body.user.email, email);
      assert.equal(result.body.user.emailVerified, true);
      assert.equal(result.body.redirectTo, "/welcome");
      const me = await call(open.module, "GET", "/me", { token: result.body.token });
      assert.equal(me.status, 200);
      assert.equal(me.body.user.id, result.body.user.id);
      // No password works for it, and trying one costs a hash like any unknown address (a fast
      // refusal would tell which addresses have a password-less account); a second link signs in
      // to the same account.
      derivations = 0;
      assertError(
        await call(open.module, "POST", "/sign-in", { body: { email, password: PASSWORD } }),
        401,
        "INVALID_CREDENTIALS",
      );
      assert.equal(derivations, 1, "one hash, as for an unknown address");
      assertError(await verify(mail.token, open.module), 400, "INVALID_SIGN_IN_LINK");
      await ask(email, {}, open.module);
      const again = await waitForMail(open.mails, 2);
      assert.deepEqual(again.user, result.body.user);
      const second = await verify(again.token, open.module);
      assert.equal(second.body.user.id, result.body.user.id);
    });
  });

  describe(`${name}: options`, () => {
    it("a bad sendSignInEmail, emailLinkSignUp or emailLinks.signIn is a configuration error", () => {
      for (
        const options of [
          { sendSignInEmail: "console" },
          { emailLinkSignUp: "yes" },
          { emailLinks: { signIn: "javascript:alert(1)" } },
          { emailLinks: { signIn: "//evil.example/sign-in" } },
        ] as any[]
      ) {
        assert.throws(
          () => auth({ database: db, ...options }),
          (error: unknown) =>
            error instanceof ModuleConfigError &&
            /sendSignInEmail|emailLinkSignUp|emailLinks\.signIn/.test(error.message),
          JSON.stringify(options),
        );
      }
    });
  });

  describe(`${name}: auth.api`, () => {
    it("sendEmailLink and signInWithEmailLink behave like the routes", async () => {
      const signed = await signUp(module, uniqueEmail("api"));
      const before = mails.length;
      const sent = await module.api.sendEmailLink({ email: signed.user.email, redirectTo: "/x" });
      assert.deepEqual(sent, (await ask(uniqueEmail("y"))).body);
      const mail = await waitForMail(mails, before + 1);
      const credential = await module.api.signInWithEmailLink({ token: mail.token });
      assert.ok("user" in credential, "no second factor: the credential");
      assert.equal(credential.user.id, signed.user.id);
      assert.equal(credential.redirectTo, "/x");
      await assert.rejects(
        module.api.signInWithEmailLink({ token: mail.token }),
        (error: any) => error.status === 400 && error.code === "INVALID_SIGN_IN_LINK",
      );
      await assert.rejects(
        module.api.sendEmailLink({ email: signed.user.email, redirectTo: "https://evil.example" }),
        (error: any) => error.status === 400 && error.code === "INVALID_REDIRECT",
      );
    });
  });
});
