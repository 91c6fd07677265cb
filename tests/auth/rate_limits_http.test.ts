// Rate limits through module.fetch: no address (in-process) means no per-address limit but the
// per-account one still holds; an address passed as fetch's second argument is limited; a
// successful sign-in gives its account hit back; sign-up is limited per email too.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { auth, type AuthModule, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";

const PASSWORD = "correct horse battery";
let db: SqlAdapter;
let namespaces = 0;

async function module(rateLimit: Parameters<typeof auth>[0]["rateLimit"]): Promise<AuthModule> {
  const namespace = `limits_${++namespaces}`;
  await migrate(db, authSchema, { namespace });
  return auth({
    database: db,
    namespace,
    passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
    rateLimit,
  });
}

async function post(
  target: AuthModule,
  path: string,
  body: unknown,
  connection?: unknown,
): Promise<{ status: number; code?: string; retryAfter: string | null }> {
  const response = await target.fetch(
    new Request(`http://localhost/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    connection,
  );
  const json = await response.json();
  return {
    status: response.status,
    code: json.error?.code,
    retryAfter: response.headers.get("retry-after"),
  };
}

describe("rate limits through module.fetch", () => {
  before(async () => {
    db = pgliteAdapter();
    await db.query("SELECT 1");
  });
  after(() => db.close());

  it("without an address only the per-account limit applies", async () => {
    const target = await module({ max: 2, perAccount: { max: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await post(target, "/sign-in", { email: `x${i}@example.com`, password: "p" }))
          .status,
      );
    }
    assert.deepEqual(statuses, [401, 401, 401, 401], "4 addresses-less attempts > max 2");
    for (let i = 0; i < 3; i++) {
      await post(target, "/sign-in", { email: "one@example.com", password: `p${i}` });
    }
    const limited = await post(target, "/sign-in", { email: "one@example.com", password: "p" });
    assert.equal(limited.status, 429);
    assert.equal(limited.code, "RATE_LIMITED");
    assert.ok(Number(limited.retryAfter) >= 1);
  });

  it("an address given as fetch's second argument is limited", async () => {
    const target = await module({ max: 2, perAccount: false });
    const from = { remoteAddress: "192.0.2.7" };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await post(target, "/sign-in", { email: `y${i}@example.com`, password: "p" }, from))
          .status,
      );
    }
    assert.deepEqual(statuses, [401, 401, 429]);
    const other = await post(target, "/sign-in", { email: "z@example.com", password: "p" }, {
      remoteAddress: "192.0.2.8",
    });
    assert.equal(other.status, 401);
  });

  it("successful sign-ins do not count against the account; failures do", async () => {
    const target = await module({ perAccount: { max: 2 } });
    assert.equal(
      (await post(target, "/sign-up", { email: "me@example.com", password: PASSWORD }))
        .status,
      200,
    );
    for (let i = 0; i < 5; i++) {
      const ok = await post(target, "/sign-in", { email: "me@example.com", password: PASSWORD });
      assert.equal(ok.status, 200, `sign-in ${i}`);
    }
    await post(target, "/sign-in", { email: "me@example.com", password: "wrong one" });
    await post(target, "/sign-in", { email: "me@example.com", password: "wrong two" });
    const locked = await post(target, "/sign-in", { email: "me@example.com", password: PASSWORD });
    assert.equal(locked.status, 429);
  });

  it("sign-up is limited per email; rateLimit: false turns every limit off", async () => {
    const limited = await module({ perAccount: { max: 2 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await post(limited, "/sign-up", { email: "taken@example.com", password: PASSWORD }))
          .status,
      );
    }
    assert.deepEqual(statuses, [200, 409, 429]);
    const open = await module(false);
    for (let i = 0; i < 12; i++) {
      const result = await post(open, "/sign-in", { email: "a@example.com", password: "p" }, {
        remoteAddress: "192.0.2.9",
      });
      assert.equal(result.status, 401);
    }
  });

  it("warns once when a proxy seems to forward requests while trustProxy is off", async () => {
    const target = await module(undefined);
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
    try {
      for (let i = 0; i < 2; i++) {
        await target.fetch(
          new Request("http://localhost/api/auth/sign-in", {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
            body: JSON.stringify({ email: "w@example.com", password: "p" }),
          }),
          { remoteAddress: "10.0.0.2" },
        );
      }
    } finally {
      console.warn = original;
    }
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /trustProxy: "x-forwarded-for"/);
  });
});
