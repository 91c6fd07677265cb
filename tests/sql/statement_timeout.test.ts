// Issue 39, point 2: a statement PostgreSQL cancels (SQLSTATE 57014) is its own error,
// StatementTimeoutError, not DatabaseUnavailableError; a module route answers it 503
// SERVICE_UNAVAILABLE with Retry-After, as it answers an exhausted pool, and logs it by name.
// (The failures of the adapter's own statements, in a child process: tests/reliability/
// postgres_own_statements.test.ts.)
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { createModule, route } from "../../mod.ts";
import {
  DatabaseUnavailableError,
  postgresAdapter,
  type SqlAdapter,
  SqlError,
  StatementTimeoutError,
} from "../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("StatementTimeoutError", () => {
  let database: TestDatabase;
  let db: SqlAdapter;
  before(async () => {
    database = await createTestDatabase();
    // The waits below last the timeout (100 ms, the unit suites' limit): the sleeps are cancelled.
    db = postgresAdapter(database.url, { max: 2, statementTimeout: 100 });
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it("is what a cancelled statement rejects with: a SqlError 57014, not an outage", async () => {
    const error = await db.query("SELECT pg_sleep($1::float8)", [5]).then(
      () => assert.fail("the statement was not cancelled"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof StatementTimeoutError, String(error));
    assert.ok(error instanceof SqlError);
    assert.ok(!(error instanceof DatabaseUnavailableError));
    assert.equal(error.name, "StatementTimeoutError");
    assert.equal(error.code, "57014");
    assert.equal(error.message, "canceling statement due to statement timeout");
    // The connection stays usable.
    assert.deepEqual(await db.query("SELECT 1::int4 AS one"), [{ one: 1 }]);
  });

  it("a route whose statement is cancelled answers 503 with Retry-After, logged by name", async () => {
    const slow = createModule({
      name: "slow",
      routes: [
        route({
          method: "GET",
          path: "/sleep",
          query: z.object({ seconds: z.coerce.number().max(10) }),
          handler: async ({ query }) => {
            await db.query("SELECT pg_sleep($1::float8)", [query.seconds]);
            return { slept: query.seconds };
          },
        }),
      ],
    });
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    let response: Response;
    try {
      response = await slow.fetch(new Request("http://x/api/slow/sleep?seconds=5"));
    } finally {
      console.error = original;
    }
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "5");
    const body = await response.json();
    assert.equal(body.error.code, "SERVICE_UNAVAILABLE");
    assert.match(body.error.message, /took too long/);
    assert.equal(logged.length, 1);
    const line = logged[0].map(String).join(" ");
    assert.match(line, /^\[slow\] StatementTimeoutError: canceling statement due to statement/);
    assert.doesNotMatch(line, /unavailable/i);

    const quick = await slow.fetch(new Request("http://x/api/slow/sleep?seconds=0"));
    assert.equal(quick.status, 200);
  });
});
