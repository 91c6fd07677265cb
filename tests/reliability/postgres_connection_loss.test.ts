// A transaction whose server connection is closed under it (server restart, failover,
// pg_terminate_backend) must fail with DatabaseUnavailableError, leave nothing written, and leave
// the process and the adapter working. postgres.js 3.4.9 used to crash the process here (its
// ROLLBACK/COMMIT write on the closed socket throws from a setImmediate callback): the cases run
// in a child process, which must exit 0. The fix is the ConnectionLink in postgres_adapter.ts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/lost_transaction.ts", import.meta.url));

describe("postgresAdapter.transaction() when the server closes its connection", () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  it("rejects with DatabaseUnavailableError, writes nothing, and the process survives", {
    timeout: 120_000,
  }, async () => {
    const result = await runScript(FIXTURE, [database.url]);
    assert.equal(result.code, 0, `the process died:\n${result.stdout}\n${result.stderr}`);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.at(-1), "survived");
    const outcomes = lines.slice(0, 6).map((line) => JSON.parse(line));
    assert.equal(outcomes.length, 6);
    for (const { name, outcome } of outcomes) {
      assert.equal(outcome, "DatabaseUnavailableError", name);
    }
    assert.deepEqual(JSON.parse(lines[6]), { rows: [] }, "no row of a lost transaction stayed");
    assert.equal(JSON.parse(lines[7]).after, "committed", "the adapter still works");
  });
});
