// Issue 39, point 2: no statement postgresAdapter runs by itself can reject unhandled, whatever
// statementTimeout, acquireTimeout or connection failure occurs. postgres.js 3.4.9 looked up the
// array types by itself at every connection start and dropped that promise: `statementTimeout: 1`
// or a connection terminated during the lookup ended the process with an uncaught PostgresError.
// The cases run in a child process on the runtime under test (unhandled rejections end Deno and
// Node at once, Bun with exit code 1), which must exit 0 with every error on its caller's promise.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/own_statement_failures.ts", import.meta.url));

describe("postgresAdapter's own statements fail on the caller's promise", () => {
  let database: TestDatabase;
  let lines: Map<string, Record<string, unknown>>;
  before(async () => {
    database = await createTestDatabase();
    const result = await runScript(FIXTURE, [database.url]);
    assert.equal(result.code, 0, `the process died:\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.stdout.trim().split("\n").at(-1), "survived", result.stdout);
    assert.doesNotMatch(result.stderr, /uncaught|unhandled|PostgresError/i, result.stderr);
    lines = new Map(
      result.stdout.trim().split("\n").slice(0, -1).map((line) => {
        const parsed = JSON.parse(line);
        return [parsed.name, parsed];
      }),
    );
  }, { timeout: 120_000 });
  after(async () => {
    await database?.drop();
  });

  it("statementTimeout: 1 on five fresh pools: the query's own StatementTimeoutError", () => {
    assert.deepEqual(lines.get("statementTimeout 1: a slow query")?.outcomes, [
      "StatementTimeoutError",
    ]);
    // The pool's start is exempt from the timeout; a quick query may still meet 1 ms.
    for (const outcome of lines.get("statementTimeout 1: a quick query")?.outcomes as string[]) {
      assert.ok(["ok", "StatementTimeoutError"].includes(outcome), outcome);
    }
  });

  it("a cancelled statement is a SqlError 57014 named StatementTimeoutError, promptly", () => {
    const query = lines.get("statementTimeout 300: query")!;
    assert.equal(query.outcome, "StatementTimeoutError");
    assert.equal(query.code, "57014");
    assert.equal(query.isSqlError, true);
    assert.match(query.message as string, /statement timeout/);
    assert.ok((query.ms as number) < 1_500, `answered after ${query.ms} ms`);
    // In a transaction too, without waiting for a connection loss that did not happen.
    const transaction = lines.get("statementTimeout 300: transaction")!;
    assert.equal(transaction.outcome, "StatementTimeoutError");
    assert.ok((transaction.ms as number) < 1_500, `answered after ${transaction.ms} ms`);
    assert.deepEqual(lines.get("statementTimeout 300: afterwards")?.a, [1, null, 3]);
  });

  it("a connection terminated while the pool starts fails the waiting calls, then serves", () => {
    const terminated = lines.get("terminated while the pool starts")!;
    assert.equal(terminated.terminated, true, "the start was caught and terminated");
    assert.equal(terminated.first, "DatabaseUnavailableError");
    // The second call found no free connection within acquireTimeout.
    assert.equal(terminated.waiting, "DatabaseUnavailableError");
    assert.equal(lines.get("terminated while the pool starts: afterwards")?.outcome, "ok");
  });

  it("acquireTimeout: the waiting call fails with DatabaseUnavailableError on time", () => {
    const exhausted = lines.get("acquireTimeout")!;
    assert.equal(exhausted.waiting, "DatabaseUnavailableError");
    assert.ok((exhausted.ms as number) < 1_000, `answered after ${exhausted.ms} ms`);
    assert.equal(exhausted.hold, "ok");
  });

  it("listen() under statementTimeout: 1 answers on its own promise", () => {
    const listened = lines.get("statementTimeout 1: listen")!;
    assert.ok(["ok", "StatementTimeoutError"].includes(listened.outcome as string));
  });
});
