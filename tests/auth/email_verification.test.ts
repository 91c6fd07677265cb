// deno-lint-ignore-file no-explicit-any
// Email verification over HTTP on PGlite and PostgreSQL: the mail sent at sign-up and on
// resend (its link from publicOrigin), POST /verify-email (single use, expiry, bound to the
// address), the console default, the options' validation, and createUser({ emailVerified }).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  auth,
  type AuthModule,
  scryptPasswordHasher,
  type VerificationEmail,
} from "../../src/auth/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import { organizationsModule } from "./helpers/organizations.ts";
import { latestMail } from "./helpers/verification.ts";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;

  before(async () => {
    db = getAdapter();
    module = await organizationsModule(db, { publicOrigin: "https://app.example.com" });
  });

  describe(`${name}: the verification mail`, () => {
    it("is sent at sign-up with the token and a link from publicOrigin; the user starts unverified", async () => {
      const email = uniqueEmail("mail");
      const signed = await signUp(module, email);
      assert.equal(signed.user.emailVerified, false);
      const mail = latestMail(module, signed.user.id);
      assert.deepEqual(mail.user, signed.user);
      assert.equal(mail.email, email);
      assert.match(mail.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(
        mail.url,
        `https://app.example.com/api/auth/verify-email?token=${mail.token}`,
      );
      const [row] = await db.query<{ hours: number }>(
        `SELECT extract(epoch FROM expires_at - created_at)::float8 / 3600 AS hours
         FROM auth.email_verifications WHERE user_id = $1`,
        [signed.user.id],
      );
      assert.equal(Math.round(row.hours), 24, "24 hours by default");
    });

    it("verifies once: 200 with the verified user, then /session and /me say so", async () => {
      const signed = await signUp(module, uniqueEmail("once"));
      const token = latestMail(module, signed.user.id).token;
      const verified = await call(module, "POST", "/verify-email", { body: { token } });
      assert.equal(verified.status, 200);
      assert.deepEqual(verified.body, { user: { ...signed.user, emailVerified: true } });
      assert.equal(verified.headers.get("cache-control"), "no-store");
      const session = await call(module, "GET", "/session", { token: signed.token });
      assert.equal(session.body.user.emailVerified, true);
      const me = await call(module, "GET", "/me", { token: signed.token });
      assert.equal(me.body.user.emailVerified, true);
      const signIn = await call(module, "POST", "/sign-in", {
        body: { email: signed.user.email, password: "correct horse battery" },
      });
      assert.equal(signIn.body.user.emailVerified, true);
      assertError(
        await call(module, "POST", "/verify-email", { body: { token } }),
        400,
        "INVALID_VERIFICATION_TOKEN",
      );
    });

    it("resend: 204 and a new token that replaces the old; 409 once verified; 401 anonymous", async () => {
      const signed = await signUp(module, uniqueEmail("resend"));
      const first = latestMail(module, signed.user.id).token;
      const resent = await call(module, "POST", "/verify-email/resend", { token: signed.token });
      assert.equal(resent.status, 204);
      const second = latestMail(module, signed.user.id).token;
      assert.notEqual(second, first);
      assertError(
        await call(module, "POST", "/verify-email", { body: { token: first } }),
        400,
        "INVALID_VERIFICATION_TOKEN",
      );
      const ok = await call(module, "POST", "/verify-email", { body: { token: second } });
      assert.equal(ok.status, 200);
      assertError(
        await call(module, "POST", "/verify-email/resend", { token: signed.token }),
        409,
        "EMAIL_ALREADY_VERIFIED",
      );
      assertError(await call(module, "POST", "/verify-email/resend"), 401, "UNAUTHENTICATED");
    });

    it("answers 410 for an expired token, 400 for malformed ones", async () => {
      const signed = await signUp(module, uniqueEmail("expired"));
      const token = latestMail(module, signed.user.id).token;
      await db.query(
        "UPDATE auth.email_verifications SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        [signed.user.id],
      );
      assertError(
        await call(module, "POST", "/verify-email", { body: { token } }),
        410,
        "VERIFICATION_TOKEN_EXPIRED",
      );
      for (const bad of ["", "short", "A".repeat(43), `${token}x`]) {
        assertError(
          await call(module, "POST", "/verify-email", { body: { token: bad } }),
          400,
          "INVALID_VERIFICATION_TOKEN",
        );
      }
      for (const body of [{}, { token: 1 }, { token: "x".repeat(600) }]) {
        assertError(await call(module, "POST", "/verify-email", { body }), 400, "VALIDATION_ERROR");
      }
    });

    it("a mailer failure at sign-up does not fail the sign-up; on resend it is the caller's error", async () => {
      let failing = true;
      const fragile = await organizationsModule(db, {
        namespace: "verification_fragile",
        sendVerificationEmail: () => {
          if (failing) throw new Error("SMTP down");
        },
      });
      const errors: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      let signed;
      try {
        signed = await signUp(fragile, uniqueEmail("fragile"));
      } finally {
        console.error = original;
      }
      assert.equal(errors.length, 1);
      assert.match(String(errors[0].join(" ")), /SMTP down/);
      assert.ok(!String(errors[0].join(" ")).includes(latestMail(fragile, signed.user.id).token));
      const resent = await call(fragile, "POST", "/verify-email/resend", { token: signed.token });
      assert.equal(resent.status, 500);
      failing = false;
      assert.equal(
        (await call(fragile, "POST", "/verify-email/resend", { token: signed.token })).status,
        204,
      );
    });
  });

  describe(`${name}: defaults and options`, () => {
    it("logs an absolute link (the localhost request's origin) without sendVerificationEmail and publicOrigin", async () => {
      // Migrated by the helper; instantiated directly, since the helper's mailbox replaces the default.
      await organizationsModule(db, { namespace: "verification_console" });
      const direct = auth({
        database: db,
        namespace: "verification_console",
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      });
      const lines: string[] = [];
      const original = console.log;
      console.log = (...args: unknown[]) => void lines.push(args.join(" "));
      let signed;
      try {
        signed = await signUp(direct, uniqueEmail("console"));
      } finally {
        console.log = original;
      }
      assert.equal(lines.length, 1, lines.join("\n"));
      const [row] = await db.query<{ token_hash: string }>(
        "SELECT token_hash FROM verification_console.email_verifications WHERE user_id = $1",
        [signed.user.id],
      );
      const match = lines[0].match(
        /http:\/\/localhost\/api\/auth\/verify-email\?token=([A-Za-z0-9_-]{43})/,
      );
      assert.ok(match, lines[0]);
      assert.ok(lines[0].includes(signed.user.email));
      assert.notEqual(match[1], row.token_hash, "the console shows the token, the table its hash");
      const verified = await call(direct, "POST", "/verify-email", { body: { token: match[1] } });
      assert.equal(verified.status, 200);
    });

    it("emailVerificationTtlHours sets the token lifetime; bad options are configuration errors", async () => {
      const mails: VerificationEmail[] = [];
      const short = await organizationsModule(db, {
        namespace: "verification_ttl",
        emailVerificationTtlHours: 0.5,
        sendVerificationEmail: (mail) => void mails.push(mail),
      });
      const signed = await signUp(short, uniqueEmail("ttl"));
      assert.equal(mails.length, 1);
      assert.ok(
        mails[0].url.startsWith("http://localhost/api/auth/verify-email?token="),
        mails[0].url,
      );
      const [row] = await db.query<{ minutes: number }>(
        `SELECT extract(epoch FROM expires_at - created_at)::float8 / 60 AS minutes
         FROM verification_ttl.email_verifications WHERE user_id = $1`,
        [signed.user.id],
      );
      assert.equal(Math.round(row.minutes), 30);
      for (const bad of [0, -1, 721, Number.NaN, "24"]) {
        assert.throws(
          () => auth({ database: db, emailVerificationTtlHours: bad as number }),
          (error: unknown) =>
            error instanceof ModuleConfigError &&
            /emailVerificationTtlHours/.test((error as Error).message),
        );
      }
      assert.throws(
        () => auth({ database: db, sendVerificationEmail: "console" as any }),
        (error: unknown) =>
          error instanceof ModuleConfigError &&
          /sendVerificationEmail/.test((error as Error).message),
      );
    });
  });
});
