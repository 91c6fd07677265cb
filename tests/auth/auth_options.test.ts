// The auth module's instance: its shape, its database binding and the validation of its options.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import { isModuleInstance } from "../../src/core/module_instance.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { resolveRateLimit, resolveTrustProxy } from "../../src/auth/abuse/rate_limit_options.ts";

// Never queried: these tests only instantiate the module.
const database = {
  kind: "pglite",
  target: "memory://",
  query: () => Promise.reject(new Error("not used")),
  transaction: () => Promise.reject(new Error("not used")),
} as unknown as SqlAdapter;
const passwordHasher = scryptPasswordHasher({ params: { ln: 4 } });

describe("auth()", () => {
  it("returns a module mounted at /api/auth with its schema binding and server-side API", () => {
    const module = auth({ database, passwordHasher });
    assert.ok(isModuleInstance(module));
    assert.equal(module.name, "auth");
    assert.equal(module.mountRoute, "/api/auth");
    assert.deepEqual(module.database, { schema: authSchema, namespace: "auth", adapter: database });
    for (
      const expected of [
        "POST /api/auth/sign-up",
        "POST /api/auth/sign-in",
        "POST /api/auth/sign-out",
        "GET /api/auth/session",
        "GET /api/auth/me",
        "POST /api/auth/verify-email",
        "POST /api/auth/verify-email/resend",
      ]
    ) {
      assert.ok(module.routes.some((r) => `${r.method} ${r.path}` === expected), expected);
    }
    assert.equal(typeof module.api.createUser, "function");
    assert.ok(Object.isFrozen(module));
  });

  it("honours namespace and mountRoute", () => {
    const module = auth({
      database,
      passwordHasher,
      namespace: "accounts",
      mountRoute: "/v1/auth",
    });
    assert.equal(module.database?.namespace, "accounts");
    assert.ok(module.routes.every((r) => r.path.startsWith("/v1/auth/")));
  });

  it("rejects invalid options with a ModuleConfigError naming the option", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ database: undefined }, "database"],
      [{ database: {} }, "database"],
      [{ namespace: "Bad-Name" }, "namespace"],
      [{ sessionTtlDays: 0 }, "sessionTtlDays"],
      [{ sessionTtlDays: Number.NaN }, "sessionTtlDays"],
      [{ bodyLimit: 10 }, "bodyLimit"],
      [{ trustedOrigins: ["https://app.example.com/path"] }, "trustedOrigins"],
      [{ trustedOrigins: ["app.example.com"] }, "trustedOrigins"],
      [{ publicOrigin: "app.example.com" }, "publicOrigin"],
      [{ publicOrigin: "https://app.example.com/api" }, "publicOrigin"],
      [{ passwordHasher: {} }, "passwordHasher"],
      [{ rateLimit: true }, "rateLimit"],
      [{ rateLimit: { window: 0 } }, "rateLimit.window"],
      [{ rateLimit: { max: 1.5 } }, "rateLimit.max"],
      [{ rateLimit: { perAccount: { max: 0 } } }, "rateLimit.perAccount.max"],
      [{ trustProxy: true }, "trustProxy"],
      [{ trustProxy: "x forwarded for" }, "trustProxy"],
    ];
    for (const [override, option] of cases) {
      assert.throws(
        () => auth({ database, passwordHasher, ...override } as Parameters<typeof auth>[0]),
        (error: unknown) =>
          error instanceof ModuleConfigError && error.message.includes(`${option}:`) &&
          error.message.includes('"auth"'),
        option,
      );
    }
  });

  it("rate limits are on by default (100 per address, 10 failures per account, per 15 min)", () => {
    assert.deepEqual(resolveRateLimit(undefined), {
      perAddress: { window: 900, max: 100 },
      perAccount: { window: 900, max: 10 },
    });
    assert.equal(resolveRateLimit(false), null);
    assert.deepEqual(resolveRateLimit({ max: 5, perAccount: false }), {
      perAddress: { window: 900, max: 5 },
      perAccount: null,
    });
    assert.equal(resolveTrustProxy(undefined), false);
    assert.equal(resolveTrustProxy("X-Forwarded-For"), "x-forwarded-for");
  });
});
