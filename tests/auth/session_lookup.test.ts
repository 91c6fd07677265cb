// deno-lint-ignore-file no-explicit-any
// The credential lookup of concurrent requests, over HTTP on PGlite and PostgreSQL: the requests
// that arrive together share one statement, and each still gets its own answer (valid, unknown,
// expired and signed-out credentials mixed in one group); a revocation is seen by the next
// request; a lookup from inside one of the adapter's own transactions is refused for that caller
// alone.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { TransactionMisuseError } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { call, signUp, uniqueEmail } from "./helpers/http.ts";
import { organizationsModule } from "./helpers/organizations.ts";

/** The adapter, counting the credential lookups it runs (the statements that read sessions by hash). */
function countingLookups(db: SqlAdapter): { db: SqlAdapter; lookups: () => number } {
  let lookups = 0;
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver);
      return (sql: string, params?: readonly unknown[]) => {
        if (sql.includes("AS k(token_hash")) lookups++;
        return target.query(sql, params);
      };
    },
  });
  return { db: counted, lookups: () => lookups };
}

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let lookups: () => number;

  before(async () => {
    db = getAdapter();
    const counting = countingLookups(db);
    lookups = counting.lookups;
    module = await organizationsModule(counting.db);
  });

  const me = (token: string) => call(module, "GET", "/me", { token });

  describe(`${name}: credential lookup of concurrent requests`, () => {
    it("each request gets its own answer from the statement its group shares", async () => {
      const [ada, bob, gone, old] = await Promise.all(
        ["ada", "bob", "gone", "old"].map((label) => signUp(module, uniqueEmail(label))),
      );
      const signedOut = await call(module, "POST", "/sign-out", { token: gone.token });
      assert.equal(signedOut.status, 204, JSON.stringify(signedOut.body));
      await db.query(
        "UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
        [old.user.id],
      );
      const unknown = ada.token.slice(0, -4) + (ada.token.endsWith("AAAA") ? "BBBB" : "AAAA");
      const tokens = [ada.token, bob.token, gone.token, old.token, unknown];
      const before = lookups();
      // Three rounds of all five at once, interleaved.
      const results = await Promise.all([...tokens, ...tokens, ...tokens].map(me));
      const statements = lookups() - before;
      results.forEach((result, i) => {
        const token = tokens[i % tokens.length];
        if (token === ada.token || token === bob.token) {
          assert.equal(result.status, 200, JSON.stringify(result.body));
          const owner = token === ada.token ? ada : bob;
          assert.equal(result.body.user.id, owner.user.id);
          assert.equal(result.body.user.email, owner.user.email);
        } else {
          assert.equal(result.status, 401, `request ${i}: ${JSON.stringify(result.body)}`);
          assert.equal(result.body.error.code, "UNAUTHENTICATED");
        }
      });
      assert.ok(statements >= 1 && statements < results.length, `${statements} lookups`);
    });

    it("a session revoked before a request is refused on it, whatever its group", async () => {
      const user = await signUp(module, uniqueEmail("revoked"));
      const other = await signUp(module, uniqueEmail("busy"));
      assert.equal((await me(user.token)).status, 200);
      const signedOut = await call(module, "POST", "/sign-out", { token: user.token });
      assert.equal(signedOut.status, 204);
      const results = await Promise.all([other.token, user.token, other.token].map(me));
      assert.deepEqual(results.map((r) => r.status), [200, 401, 200]);
    });

    it("a lookup from inside one of the adapter's transactions fails alone", async () => {
      // On the adapter itself (the check knows the adapter, not a wrapper of it).
      const direct = await organizationsModule(db);
      const user = await signUp(direct, uniqueEmail("inside"));
      const request = () =>
        new Request("http://localhost/api/auth/me", {
          headers: { authorization: `Bearer ${user.token}` },
        });
      const [inside, ...outside] = await Promise.all([
        db.transaction(() => direct.api.getRequestAuth(request())).then(
          () => "resolved",
          (error) => error,
        ),
        direct.api.getRequestAuth(request()),
        direct.api.getRequestAuth(request()),
      ]);
      assert.ok(inside instanceof TransactionMisuseError, String(inside));
      for (const found of outside as any[]) assert.equal(found?.user.id, user.user.id);
    });
  });
});
