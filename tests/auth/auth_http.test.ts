// The auth module over HTTP (through its fetch), on PGlite and on the PostgreSQL server: every
// route, status and error of the credential routes, on both the cookie and the Bearer transport.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  auth,
  type AuthModule,
  authSchema,
  type ScryptDerive,
  scryptDerive,
  scryptPasswordHasher,
} from "../../src/auth/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, type Transport, uniqueEmail } from "./helpers/http.ts";

const TRANSPORTS: Transport[] = ["cookie", "bearer"];
const PASSWORD = "correct horse battery";

/** Counts key derivations: the expensive step of every hash and verify. */
function countingDerive(): { derive: ScryptDerive; count: () => number; reset: () => void } {
  let calls = 0;
  return {
    derive: (password, salt, params, length) => {
      calls++;
      return scryptDerive(password, salt, params, length);
    },
    count: () => calls,
    reset: () => {
      calls = 0;
    },
  };
}

function cookieOf(headers: Headers): string {
  const value = headers.get("set-cookie");
  assert.ok(value, "expected a Set-Cookie header");
  return value;
}

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  const counter = countingDerive();

  before(async () => {
    db = getAdapter();
    await migrate(db, authSchema, { namespace: "auth" });
    // Low scrypt cost for speed; one test below runs at the default (OWASP) cost.
    module = auth({
      database: db,
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 }, derive: counter.derive }),
      sendVerificationEmail: () => {}, // quiet: email_verification.test.ts covers the mail
    });
  });

  describe(`${name}: POST /sign-up`, () => {
    it("answers 200 with token, user and expiry, and sets the service_auth cookie", async () => {
      const email = uniqueEmail("signup");
      const result = await call(module, "POST", "/sign-up", {
        body: { email: `  ${email.toUpperCase()} `, password: PASSWORD },
      });
      assert.equal(result.status, 200);
      assert.deepEqual(Object.keys(result.body).sort(), ["expiresAt", "token", "user"]);
      assert.match(result.body.token, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(Object.keys(result.body.user).sort(), [
        "email",
        "emailVerified",
        "id",
        "role",
      ]);
      assert.equal(result.body.user.email, email);
      assert.equal(result.body.user.role, "user");
      assert.equal(result.body.user.emailVerified, false, "verified only by POST /verify-email");
      assert.equal(result.headers.get("cache-control"), "no-store");
      const [row] = await db.query<{ expires_at: Date; days: number }>(
        `SELECT expires_at, extract(epoch FROM expires_at - created_at)::float8 / 86400 AS days
         FROM auth.sessions WHERE user_id = $1`,
        [result.body.user.id],
      );
      assert.equal(result.body.expiresAt, row.expires_at.toISOString());
      assert.equal(row.days, 30);
      const cookie = cookieOf(result.headers);
      assert.ok(cookie.startsWith(`service_auth=${result.body.token};`));
      for (const attribute of ["HttpOnly", "SameSite=Lax", "Path=/"]) {
        assert.ok(cookie.split("; ").includes(attribute), `${attribute} in ${cookie}`);
      }
      assert.ok(!cookie.includes("Secure"), "no Secure over plain-http localhost");
      assert.match(cookie, /Max-Age=259\d{4}/);
    });

    it("sets Secure on the cookie except over plain-http localhost", async () => {
      for (
        const base of ["https://api.example.com", "http://api.example.com", "https://localhost"]
      ) {
        const result = await call(module, "POST", "/sign-up", {
          base,
          body: { email: uniqueEmail("secure"), password: PASSWORD },
        });
        assert.equal(result.status, 200);
        assert.ok(cookieOf(result.headers).split("; ").includes("Secure"), base);
      }
      const local = await call(module, "POST", "/sign-up", {
        base: "http://127.0.0.1:8080",
        body: { email: uniqueEmail("secure"), password: PASSWORD },
      });
      assert.ok(!cookieOf(local.headers).includes("Secure"));
    });

    it("refuses a taken email, whatever its case or surrounding spaces, with 409", async () => {
      const email = uniqueEmail("taken");
      await signUp(module, email);
      for (const variant of [email, ` ${email.toUpperCase()}`]) {
        const again = await call(module, "POST", "/sign-up", {
          body: { email: variant, password: PASSWORD },
        });
        assertError(again, 409, "EMAIL_TAKEN");
      }
      const [{ n }] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auth.users WHERE email = $1",
        [email],
      );
      assert.equal(n, 1);
    });

    it("validates the email and the password length (8–128 characters, never truncated)", async () => {
      const cases: [unknown, string][] = [
        [{ email: "not-an-email", password: PASSWORD }, "body.email"],
        [{ email: "", password: PASSWORD }, "body.email"],
        [{ email: uniqueEmail(), password: "short" }, "body.password"],
        [{ email: uniqueEmail(), password: "x".repeat(129) }, "body.password"],
        [{ email: uniqueEmail(), password: "🔑".repeat(129) }, "body.password"],
        [{ email: uniqueEmail() }, "body.password"],
        [{ password: PASSWORD }, "body.email"],
      ];
      for (const [body, path] of cases) {
        const result = await call(module, "POST", "/sign-up", { body });
        assertError(result, 400, "VALIDATION_ERROR");
        assert.ok(
          result.body.issues.some((issue: { path: string }) => issue.path === path),
          `${JSON.stringify(body)} → ${JSON.stringify(result.body.issues)}`,
        );
      }
      // 128 characters pass, counted as characters (an emoji is one, not two UTF-16 units).
      const email = uniqueEmail("long");
      const longest = "🔑".repeat(128);
      assert.equal(
        (await call(module, "POST", "/sign-up", { body: { email, password: longest } })).status,
        200,
      );
      assert.equal(
        (await call(module, "POST", "/sign-in", { body: { email, password: longest } })).status,
        200,
      );
      const truncated = await call(module, "POST", "/sign-in", {
        body: { email, password: "🔑".repeat(127) },
      });
      assertError(truncated, 401, "INVALID_CREDENTIALS");
    });

    it("answers 400 for malformed JSON and never lets the client choose its role", async () => {
      const malformed = await module.fetch(
        new Request("http://localhost/api/auth/sign-up", {
          method: "POST",
          body: "{",
          headers: { "content-type": "application/json" },
        }),
      );
      assert.equal(malformed.status, 400);
      const result = await call(module, "POST", "/sign-up", {
        body: { email: uniqueEmail("role"), password: PASSWORD, role: "admin" },
      });
      assert.equal(result.status, 200);
      assert.equal(result.body.user.role, "user");
    });
  });

  describe(`${name}: default password hashing`, () => {
    it("stores hashes at OWASP's scrypt cost when no passwordHasher is given", async () => {
      const standard = auth({ database: db });
      const email = uniqueEmail("owasp");
      assert.equal(
        (await call(standard, "POST", "/sign-up", { body: { email, password: PASSWORD } })).status,
        200,
      );
      const [row] = await db.query<{ h: string }>(
        "SELECT password_hash AS h FROM auth.users WHERE email = $1",
        [email],
      );
      assert.match(row.h, /^\$scrypt\$ln=17,r=8,p=1\$/);
    });
  });

  describe(`${name}: POST /sign-in`, () => {
    it("issues a new credential for the right password, on a normalized email", async () => {
      const email = uniqueEmail("signin");
      const first = await signUp(module, email);
      const result = await call(module, "POST", "/sign-in", {
        body: { email: ` ${email.toUpperCase()}`, password: PASSWORD },
      });
      assert.equal(result.status, 200);
      assert.deepEqual(result.body.user, first.user);
      assert.notEqual(result.body.token, first.token);
      assert.ok(cookieOf(result.headers).startsWith(`service_auth=${result.body.token};`));
      for (const token of [first.token, result.body.token]) {
        assert.equal((await call(module, "GET", "/session", { token })).status, 200);
      }
    });

    it("answers one 401 for a wrong password and an unknown email, after exactly one hash each", async () => {
      const email = uniqueEmail("timing");
      await signUp(module, email);
      counter.reset();
      const wrongPassword = await call(module, "POST", "/sign-in", {
        body: { email, password: "wrong password!" },
      });
      assert.equal(counter.count(), 1, "one derivation for an existing email");
      counter.reset();
      const unknownEmail = await call(module, "POST", "/sign-in", {
        body: { email: uniqueEmail("nobody"), password: "wrong password!" },
      });
      assert.equal(counter.count(), 1, "one derivation for an unknown email");
      assertError(wrongPassword, 401, "INVALID_CREDENTIALS");
      assertError(unknownEmail, 401, "INVALID_CREDENTIALS");
      assert.deepEqual(wrongPassword.body, unknownEmail.body);
      assert.equal(wrongPassword.headers.get("set-cookie"), null);
      counter.reset();
      const malformedEmail = await call(module, "POST", "/sign-in", {
        body: { email: "not an email", password: "wrong password!" },
      });
      assertError(malformedEmail, 401, "INVALID_CREDENTIALS");
      assert.equal(counter.count(), 1, "one derivation for a malformed email too");
    });

    it("refuses a password over 128 characters with 400 before hashing it", async () => {
      counter.reset();
      const result = await call(module, "POST", "/sign-in", {
        body: { email: uniqueEmail(), password: "x".repeat(129) },
      });
      assertError(result, 400, "VALIDATION_ERROR");
      assert.equal(counter.count(), 0);
    });

    it("upgrades a hash made with older parameters at the next sign-in", async () => {
      const email = uniqueEmail("upgrade");
      await signUp(module, email);
      const stronger = countingDerive();
      const upgraded = auth({
        database: db,
        passwordHasher: scryptPasswordHasher({ params: { ln: 5 }, derive: stronger.derive }),
      });
      const hashOf = async () =>
        (await db.query<{ h: string }>(
          "SELECT password_hash AS h FROM auth.users WHERE email = $1",
          [email],
        ))[0].h;
      assert.match(await hashOf(), /^\$scrypt\$ln=4,r=8,p=1\$/);
      const result = await call(upgraded, "POST", "/sign-in", {
        body: { email, password: PASSWORD },
      });
      assert.equal(result.status, 200);
      assert.equal(stronger.count(), 2, "one verify at the old cost, one hash at the new");
      assert.match(await hashOf(), /^\$scrypt\$ln=5,r=8,p=1\$/);
      stronger.reset();
      assert.equal(
        (await call(upgraded, "POST", "/sign-in", { body: { email, password: PASSWORD } })).status,
        200,
      );
      assert.equal(stronger.count(), 1, "no second upgrade");
    });
  });

  for (const transport of TRANSPORTS) {
    describe(`${name}: credentials over the ${transport}`, () => {
      it("GET /session answers the user and the credential expiry", async () => {
        const { token, user } = await signUp(module);
        const result = await call(module, "GET", "/session", { token, transport });
        assert.equal(result.status, 200);
        assert.deepEqual(result.body.user, user);
        const [row] = await db.query<{ expires_at: Date }>(
          "SELECT expires_at FROM auth.sessions WHERE user_id = $1",
          [user.id],
        );
        assert.equal(result.body.expiresAt, row.expires_at.toISOString());
        assert.equal(result.headers.get("cache-control"), "no-store");
      });

      it("GET /me answers the user with empty organization fields", async () => {
        const { token, user } = await signUp(module);
        const result = await call(module, "GET", "/me", { token, transport });
        assert.equal(result.status, 200);
        assert.deepEqual(result.body, {
          user: { ...user, telegram: null, twoFactorEnabled: false },
          organizations: [],
          organizationsHasMore: false,
          activeOrganization: null,
          invitations: [],
          invitationsHasMore: false,
        });
      });

      it("unknown, malformed and expired credentials get 401 with WWW-Authenticate", async () => {
        const { token, user } = await signUp(module);
        const unknown = createHash("sha256").update("x").digest("base64url");
        for (const bad of [unknown, "not-a-token", `${token}x`]) {
          for (const path of ["/session", "/me"]) {
            const result = await call(module, "GET", path, { token: bad, transport });
            assertError(result, 401, "UNAUTHENTICATED");
            assert.equal(result.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
          }
        }
        await db.query(
          "UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
          [user.id],
        );
        const expired = await call(module, "GET", "/session", { token, transport });
        assertError(expired, 401, "UNAUTHENTICATED");
        assert.match(expired.headers.get("www-authenticate") ?? "", /^Bearer/);
      });

      it("POST /sign-out ends this credential only, and clears the cookie", async () => {
        const { token, user } = await signUp(module);
        const other = await call(module, "POST", "/sign-in", {
          body: { email: user.email, password: PASSWORD },
        });
        const result = await call(module, "POST", "/sign-out", { token, transport });
        assert.equal(result.status, 204);
        const cookie = cookieOf(result.headers);
        assert.ok(cookie.startsWith("service_auth=;"));
        assert.ok(cookie.includes("Max-Age=0"));
        for (const path of ["/session", "/me"]) {
          assertError(
            await call(module, "GET", path, { token, transport }),
            401,
            "UNAUTHENTICATED",
          );
        }
        assertError(
          await call(module, "POST", "/sign-out", { token, transport }),
          401,
          "UNAUTHENTICATED",
        );
        assert.equal(
          (await call(module, "GET", "/session", { token: other.body.token })).status,
          200,
        );
      });
    });
  }

  describe(`${name}: credential rules`, () => {
    it("answers 401 with WWW-Authenticate: Bearer when no credential is presented", async () => {
      for (const [method, path] of [["GET", "/session"], ["GET", "/me"], ["POST", "/sign-out"]]) {
        const result = await call(module, method, path);
        assertError(result, 401, "UNAUTHENTICATED");
        assert.equal(result.headers.get("www-authenticate"), "Bearer");
      }
      const otherScheme = await call(module, "GET", "/session", {
        headers: { authorization: "Basic dXNlcjpwYXNz" },
      });
      assertError(otherScheme, 401, "UNAUTHENTICATED");
    });

    it("refuses a cookie and a Bearer header carrying different tokens with 400", async () => {
      const a = await signUp(module);
      const b = await signUp(module);
      const both = await call(module, "GET", "/session", {
        headers: { cookie: `service_auth=${a.token}`, authorization: `Bearer ${b.token}` },
      });
      assertError(both, 400, "CONFLICTING_CREDENTIALS");
      const same = await call(module, "GET", "/session", {
        headers: {
          cookie: `theme=dark; service_auth=${a.token}`,
          authorization: `bearer ${a.token}`,
        },
      });
      assert.equal(same.status, 200);
      assert.equal(same.body.user.id, a.user.id);
    });

    it("refuses a cookie-authenticated unsafe request from another origin (CSRF) with 403", async () => {
      const { token } = await signUp(module);
      const evil = { origin: "https://evil.example" };
      const rejected = await call(module, "POST", "/sign-out", {
        token,
        transport: "cookie",
        headers: evil,
      });
      assertError(rejected, 403, "CSRF_REJECTED");
      const crossSite = await call(module, "POST", "/sign-out", {
        token,
        transport: "cookie",
        headers: { "sec-fetch-site": "cross-site" },
      });
      assertError(crossSite, 403, "CSRF_REJECTED");
      assert.equal(
        (await call(module, "GET", "/session", { token })).status,
        200,
        "still signed in",
      );
      // Reads are not state-changing; Bearer requests cannot be forged cross-site.
      assert.equal(
        (await call(module, "GET", "/me", { token, transport: "cookie", headers: evil })).status,
        200,
      );
      const sameOrigin = await call(module, "POST", "/sign-out", {
        token,
        transport: "cookie",
        headers: { origin: "http://localhost" },
      });
      assert.equal(sameOrigin.status, 204);
      const other = await signUp(module);
      assert.equal(
        (await call(module, "POST", "/sign-out", { token: other.token, headers: evil })).status,
        204,
      );
    });

    it("refuses a sign-in or sign-up from another origin (login CSRF) with 403, before validating it", async () => {
      const user = await signUp(module);
      const evil = { origin: "https://evil.example" };
      for (const path of ["/sign-in", "/sign-up"]) {
        for (const headers of [evil, { "sec-fetch-site": "cross-site" }, { origin: "null" }]) {
          const valid = await call(module, "POST", path, {
            body: { email: user.user.email, password: PASSWORD },
            headers,
          });
          assertError(valid, 403, "CSRF_REJECTED");
          assert.equal(valid.headers.get("set-cookie"), null);
          // The origin is checked before the body: a cross-site caller learns nothing else.
          assertError(
            await call(module, "POST", path, { body: { email: 1 }, headers }),
            403,
            "CSRF_REJECTED",
          );
        }
      }
      const sameOrigin = await call(module, "POST", "/sign-in", {
        body: { email: user.user.email, password: PASSWORD },
        headers: { origin: "http://localhost" },
      });
      assert.equal(sameOrigin.status, 200);
    });

    it("answers 415 to a sign-in whose body is not labelled JSON", async () => {
      const user = await signUp(module);
      for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
        const response = await module.fetch(
          new Request("http://localhost/api/auth/sign-in", {
            method: "POST",
            headers: { "content-type": type },
            body: JSON.stringify({ email: user.user.email, password: PASSWORD }),
          }),
        );
        assert.equal(response.status, 415, type);
        assert.equal((await response.json()).error.code, "UNSUPPORTED_MEDIA_TYPE");
      }
    });

    it("with publicOrigin, decides origins and Secure from it, never from the Host", async () => {
      const hasher = scryptPasswordHasher({ params: { ln: 4 } });
      const behindProxy = auth({
        database: db,
        publicOrigin: "https://app.example.com",
        passwordHasher: hasher,
      });
      // A TLS proxy forwarding plain http to a loopback address: the cookie stays Secure.
      const local = "http://localhost";
      const created = await call(behindProxy, "POST", "/sign-up", {
        base: local,
        body: { email: uniqueEmail("public"), password: PASSWORD },
      });
      assert.equal(created.status, 200);
      assert.ok(cookieOf(created.headers).split("; ").includes("Secure"));
      const { token } = created.body;
      const fromHost = await call(behindProxy, "POST", "/sign-out", {
        base: local,
        token,
        transport: "cookie",
        headers: { origin: local },
      });
      assertError(fromHost, 403, "CSRF_REJECTED");
      const fromPublic = await call(behindProxy, "POST", "/sign-out", {
        base: local,
        token,
        transport: "cookie",
        headers: { origin: "https://app.example.com" },
      });
      assert.equal(fromPublic.status, 204);
      assert.ok(cookieOf(fromPublic.headers).split("; ").includes("Secure"));
      // A local publicOrigin over plain http: no Secure, whatever Host the request carries.
      const development = auth({
        database: db,
        publicOrigin: "http://localhost:3000",
        passwordHasher: hasher,
      });
      const dev = await call(development, "POST", "/sign-up", {
        base: "https://api.example.com",
        body: { email: uniqueEmail("dev"), password: PASSWORD },
        headers: { origin: "http://localhost:3000" },
      });
      assert.equal(dev.status, 200);
      assert.ok(!cookieOf(dev.headers).includes("Secure"));
    });

    it("accepts cookie requests from trustedOrigins", async () => {
      const trusting = auth({
        database: db,
        trustedOrigins: ["https://app.example.com"],
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      });
      const { token } = await signUp(trusting);
      const headers = { origin: "https://app.example.com" };
      assert.equal(
        (await call(trusting, "POST", "/sign-out", { token, transport: "cookie", headers })).status,
        204,
      );
    });

    it("stores no plaintext token or password, only a SHA-256 of the token", async () => {
      const password = "a very particular password";
      const { token, user } = await signUp(module, uniqueEmail("plain"), password);
      const users = await db.query("SELECT * FROM auth.users WHERE id = $1", [user.id]);
      const sessions = await db.query("SELECT * FROM auth.sessions WHERE user_id = $1", [user.id]);
      const stored = JSON.stringify([users, sessions]);
      assert.ok(!stored.includes(token), "token stored in plaintext");
      assert.ok(!stored.includes(password), "password stored in plaintext");
      assert.ok(!stored.includes(btoa(password).replace(/=+$/, "")));
      assert.equal(
        sessions[0].token_hash,
        createHash("sha256").update(token).digest("hex"),
      );
      assert.match(
        String(users[0].password_hash),
        /^\$scrypt\$ln=4,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/,
      );
    });
  });

  describe(`${name}: sliding renewal`, () => {
    it("extends a credential with less than half its life left and re-issues the cookie", async () => {
      const sliding = auth({
        database: db,
        sessionTtlDays: 2,
        slidingRenewal: true,
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      });
      const { token, user } = await signUp(sliding);
      const fresh = await call(sliding, "GET", "/session", { token, transport: "cookie" });
      assert.equal(
        fresh.headers.get("set-cookie"),
        null,
        "no renewal while more than half remains",
      );
      await db.query(
        "UPDATE auth.sessions SET expires_at = now() + interval '1 hour' WHERE user_id = $1",
        [user.id],
      );
      const renewed = await call(sliding, "GET", "/session", { token, transport: "cookie" });
      assert.equal(renewed.status, 200);
      const [row] = await db.query<{ hours: number }>(
        "SELECT extract(epoch FROM expires_at - now())::float8 / 3600 AS hours FROM auth.sessions WHERE user_id = $1",
        [user.id],
      );
      assert.ok(row.hours > 47, `expiry pushed to ~48 h, got ${row.hours}`);
      assert.equal(
        renewed.body.expiresAt,
        (await db.query<{ e: Date }>(
          "SELECT expires_at AS e FROM auth.sessions WHERE user_id = $1",
          [user.id],
        ))[0].e.toISOString(),
      );
      assert.ok(cookieOf(renewed.headers).startsWith(`service_auth=${token};`));
    });

    it("never extends a credential when slidingRenewal is off (the default)", async () => {
      const { token, user } = await signUp(module);
      await db.query(
        "UPDATE auth.sessions SET expires_at = now() + interval '1 hour' WHERE user_id = $1",
        [user.id],
      );
      const result = await call(module, "GET", "/session", { token, transport: "cookie" });
      assert.equal(result.status, 200);
      assert.equal(result.headers.get("set-cookie"), null);
      const [row] = await db.query<{ hours: number }>(
        "SELECT extract(epoch FROM expires_at - now())::float8 / 3600 AS hours FROM auth.sessions WHERE user_id = $1",
        [user.id],
      );
      assert.ok(row.hours <= 1);
    });
  });

  describe(`${name}: server-side API`, () => {
    it("createUser() makes a user who can sign in; a taken email is EMAIL_TAKEN", async () => {
      const email = uniqueEmail("api");
      const user = await module.api.createUser({
        email: ` ${email.toUpperCase()} `,
        password: PASSWORD,
      });
      assert.deepEqual(Object.keys(user).sort(), ["email", "emailVerified", "id", "role"]);
      assert.equal(user.email, email);
      assert.equal(user.role, "user");
      assert.equal(user.emailVerified, false);
      const seeded = await module.api.createUser({
        email: uniqueEmail("seeded"),
        password: PASSWORD,
        emailVerified: true,
      });
      assert.equal(seeded.emailVerified, true, "an administrator may vouch for the address");
      await assert.rejects(
        module.api.createUser({
          email: uniqueEmail(),
          password: PASSWORD,
          emailVerified: "yes" as unknown as boolean,
        }),
        TypeError,
      );
      const signedIn = await call(module, "POST", "/sign-in", {
        body: { email, password: PASSWORD },
      });
      assert.equal(signedIn.body.user.id, user.id);
      await assert.rejects(
        module.api.createUser({ email, password: PASSWORD }),
        (error: unknown) => (error as { code?: string }).code === "EMAIL_TAKEN",
      );
      await assert.rejects(module.api.createUser({ email: "nope", password: PASSWORD }), TypeError);
      await assert.rejects(
        module.api.createUser({ email: uniqueEmail(), password: `${PASSWORD}\uD800` }),
        TypeError,
        "a lone surrogate would hash like U+FFFD",
      );
      await assert.rejects(
        module.api.createUser({ email: uniqueEmail(), password: "short" }),
        TypeError,
      );
    });

    it("getRequestAuth() resolves the user of a request over either transport", async () => {
      const { token, user } = await signUp(module);
      const variants: Record<string, string>[] = [
        { cookie: `service_auth=${token}` },
        { authorization: `Bearer ${token}` },
      ];
      for (const headers of variants) {
        const found = await module.api.getRequestAuth(
          new Request("http://localhost/", { headers }),
        );
        assert.deepEqual(found?.user, user);
        assert.ok(found?.session.expiresAt instanceof Date);
      }
      assert.equal(await module.api.getRequestAuth(new Request("http://localhost/")), null);
      const bad = new Request("http://localhost/", { headers: { authorization: "Bearer nope" } });
      assert.equal(await module.api.getRequestAuth(bad), null);
    });

    it("revokeUserSessions() ends every credential of the user and no other", async () => {
      const { token, user } = await signUp(module);
      const second = await call(module, "POST", "/sign-in", {
        body: { email: user.email, password: PASSWORD },
      });
      const bystander = await signUp(module);
      assert.equal(await module.api.revokeUserSessions(user.id), 2);
      for (const t of [token, second.body.token]) {
        assertError(await call(module, "GET", "/session", { token: t }), 401, "UNAUTHENTICATED");
      }
      assert.equal((await call(module, "GET", "/session", { token: bystander.token })).status, 200);
      assert.equal(await module.api.revokeUserSessions("not-a-uuid"), 0);
    });

    it("setUserRole() makes an admin; no HTTP route lets a user change their own role", async () => {
      const { token, user } = await signUp(module);
      const updated = await module.api.setUserRole(user.id, "admin");
      assert.equal(updated.role, "admin");
      assert.equal((await call(module, "GET", "/me", { token })).body.user.role, "admin");
      await assert.rejects(module.api.setUserRole(crypto.randomUUID(), "admin"), RangeError);
      const other = await signUp(module);
      for (const [method, path] of [["PATCH", "/me"], ["POST", "/me"], ["PATCH", "/session"]]) {
        const attempt = await call(module, method, path, {
          token: other.token,
          body: { role: "admin" },
        });
        assert.equal(attempt.status, 405, `${method} ${path}`);
      }
      assert.equal(
        (await call(module, "GET", "/me", { token: other.token })).body.user.role,
        "user",
      );
    });
  });
});

describe("auth over an unavailable database", () => {
  it("answers 503 SERVICE_UNAVAILABLE on every route that needs the database", async () => {
    const { DatabaseUnavailableError } = await import("../../src/sql/mod.ts");
    const down = {
      kind: "postgres",
      target: "postgres://down",
      stats: { queries: 0, transactions: 0 },
      connect: () => Promise.resolve(),
      query: () => Promise.reject(new DatabaseUnavailableError("connection refused")),
      transaction: () => Promise.reject(new DatabaseUnavailableError("connection refused")),
      listen: () => Promise.reject(new DatabaseUnavailableError("connection refused")),
      close: () => Promise.resolve(),
    } as unknown as SqlAdapter;
    const module = auth({
      database: down,
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
    });
    const token = "A".repeat(43);
    const cases: [string, string, unknown, string | undefined][] = [
      ["POST", "/sign-up", { email: "a@example.com", password: PASSWORD }, undefined],
      ["POST", "/sign-in", { email: "a@example.com", password: PASSWORD }, undefined],
      ["GET", "/session", undefined, token],
      ["GET", "/me", undefined, token],
      ["POST", "/sign-out", undefined, token],
    ];
    for (const [method, path, body, t] of cases) {
      const result = await call(module, method, path, { body, token: t });
      assertError(result, 503, "SERVICE_UNAVAILABLE");
      assert.ok(result.headers.get("retry-after"));
    }
  });
});
