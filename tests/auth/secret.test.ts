/**
 * The auth module's `secret` (FRAGMENT_SECRET): the key of its list cursors. With one, every
 * instance (every process) of the deployment accepts the others' cursors; without one, the module
 * signs with a random key of its process and warns once.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { auth, type AuthModule, ModuleConfigError } from "../../mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { runScript } from "../helpers/spawn_runtime.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  createOrganization,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const SECRET = "the deployment's secret, at least 32 characters";
const fixture = fileURLToPath(new URL("../fixtures/auth_without_secret.ts", import.meta.url));

describe("auth secret: validation", () => {
  it("refuses a secret shorter than 32 characters, from the option or FRAGMENT_SECRET", () => {
    const database = pgliteAdapter();
    assert.throws(() => auth({ database, secret: "short" }), ModuleConfigError);
    const saved = process.env.FRAGMENT_SECRET;
    process.env.FRAGMENT_SECRET = "also short";
    try {
      assert.throws(() => auth({ database }), /FRAGMENT_SECRET/);
    } finally {
      if (saved === undefined) delete process.env.FRAGMENT_SECRET;
      else process.env.FRAGMENT_SECRET = saved;
    }
  });
});

describe("auth secret: the key of the list cursors", () => {
  let db: SqlAdapter;
  let first: AuthModule;
  let owner: TestUser;
  let cursor: string;
  before(async () => {
    db = pgliteAdapter();
    first = await organizationsModule(db, { namespace: "secret_a", secret: SECRET });
    owner = await newUser(first);
    await createOrganization(first, owner);
    await createOrganization(first, owner);
    const page = await call(first, "GET", "/organizations?pageSize=1", { token: owner.token });
    assert.equal(page.status, 200);
    cursor = page.body.cursor;
  });
  after(() => db.close());

  it("another instance with the same secret (another process) accepts the cursor", async () => {
    const saved = process.env.FRAGMENT_SECRET;
    process.env.FRAGMENT_SECRET = SECRET;
    try {
      const second = await organizationsModule(db, { namespace: "secret_a" });
      const page = await call(second, "GET", `/organizations?cursor=${cursor}`, {
        token: owner.token,
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.organizations.length, 1);
    } finally {
      if (saved === undefined) delete process.env.FRAGMENT_SECRET;
      else process.env.FRAGMENT_SECRET = saved;
    }
  });

  it("an instance with another secret refuses it: 400 INVALID_CURSOR", async () => {
    const other = await organizationsModule(db, {
      namespace: "secret_a",
      secret: "another deployment's secret, 32+ chars",
    });
    const page = await call(other, "GET", `/organizations?cursor=${cursor}`, {
      token: owner.token,
    });
    assertError(page, 400, "INVALID_CURSOR");
  });
});

describe("auth secret: none configured", () => {
  const env = (): Record<string, string> => {
    const copy: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== "FRAGMENT_SECRET") copy[key] = value;
    }
    return copy;
  };
  const warnings = (stderr: string): number =>
    stderr.match(/^\[auth\] warning: no secret/gm)?.length ?? 0;

  it("warns once per process, saying how to set FRAGMENT_SECRET", { timeout: 60_000 }, async () => {
    const result = await runScript(fixture, ["3", "organizations"], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(warnings(result.stderr), 1, result.stderr);
    assert.match(result.stderr, /cursors stop working after a restart and across processes/);
    assert.match(result.stderr, /Set FRAGMENT_SECRET/);
  });

  it("does not warn when FRAGMENT_SECRET is set, nor without the organizations API", {
    timeout: 60_000,
  }, async () => {
    const configured = await runScript(fixture, ["1", "organizations"], {
      env: { ...env(), FRAGMENT_SECRET: SECRET },
    });
    assert.equal(configured.code, 0, configured.stderr);
    assert.equal(warnings(configured.stderr), 0, configured.stderr);
    const signsNothing = await runScript(fixture, ["1", "no-organizations"], { env: env() });
    assert.equal(signsNothing.code, 0, signsNothing.stderr);
    assert.equal(warnings(signsNothing.stderr), 0, signsNothing.stderr);
  });

  it("two instances of one process share its key: cursors page across them", async () => {
    const db = pgliteAdapter();
    try {
      const saved = process.env.FRAGMENT_SECRET;
      delete process.env.FRAGMENT_SECRET;
      try {
        const a = await organizationsModule(db, { namespace: "secret_b" });
        const b = await organizationsModule(db, { namespace: "secret_b" });
        const user = await newUser(a);
        await createOrganization(a, user);
        await createOrganization(a, user);
        const page = await call(a, "GET", "/organizations?pageSize=1", { token: user.token });
        const next = await call(b, "GET", `/organizations?cursor=${page.body.cursor}`, {
          token: user.token,
        });
        assert.equal(next.status, 200, JSON.stringify(next.body));
      } finally {
        if (saved !== undefined) process.env.FRAGMENT_SECRET = saved;
      }
    } finally {
      await db.close();
    }
  });
});
