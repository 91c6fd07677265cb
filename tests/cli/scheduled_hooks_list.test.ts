/**
 * `fragment-cli hooks list` shows scheduled hooks' occurrences, end to end on PGlite and
 * PostgreSQL: `scheduled_seed.ts` drains `scheduled_app.ts`'s "digest" (every ten minutes, an hour
 * of backfill) with its clock stopped at 01:00:30, which inserts and runs seven slots; the CLI, in
 * another process, lists them by their `cron:<minute>` keys.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { childEnv, cliFixture, runCli, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const app = cliFixture("scheduled_app.ts");
const seed = cliFixture("scheduled_seed.ts");
const slow = { timeout: 180_000 };

for (const adapter of enabledAdapters()) {
  describe(`hooks list of scheduled hooks on ${adapter}`, () => {
    const dir = tempDir();
    let database: TestDatabase | undefined;
    const env = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
    before(async () => {
      if (adapter === "postgres") database = await createTestDatabase();
    }, slow);
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it("lists one done occurrence per slot, keyed by its minute", slow, async () => {
      const seeded = await runScript(seed, [], {
        cwd: dir.path,
        env: childEnv({ ...env(), FIXTURE_NOW: "2026-01-01T01:00:30Z" }),
      });
      assert.equal(seeded.code, 0, seeded.stderr);
      assert.deepEqual(JSON.parse(seeded.stdout.trim().split("\n").at(-1)!), {
        done: 7,
        retried: 0,
        failed: 0,
      });

      const json = await runCli(["hooks", app, "list", "--json"], { cwd: dir.path, env: env() });
      assert.equal(json.code, 0, json.stderr);
      const hooks: Array<{ name: string; key: string; status: string; namespace: string }> =
        JSON.parse(json.stdout).hooks;
      const slots = ["00:00", "00:10", "00:20", "00:30", "00:40", "00:50", "01:00"];
      assert.deepEqual(
        hooks.map((hook) => hook.key).sort(),
        slots.map((slot) => `cron:2026-01-01T${slot}Z`),
      );
      assert.ok(hooks.every((hook) => hook.name === "digest" && hook.status === "done"));
      assert.ok(hooks.every((hook) => hook.namespace === "reports"));

      const table = await runCli(["hooks", app, "list", "--limit", "2"], {
        cwd: dir.path,
        env: env(),
      });
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /digest\s+cron:2026-01-01T01:00Z\s+done/);
    });
  });
}
