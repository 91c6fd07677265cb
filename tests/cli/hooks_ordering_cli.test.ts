/**
 * `fragment-cli hooks` and `db info` on hooks with ordering keys, end to end (cli.ts in child
 * processes, on PGlite and PostgreSQL): blocked hooks are listed with `--status blocked` and
 * counted by `db info`; cancelling the hook that holds a key releases the next one.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { childEnv, cliFixture, runCli, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const app = cliFixture("ordered_hooks_app.ts");
const seed = cliFixture("ordered_hooks_seed.ts");
const slow = { timeout: 180_000 };

interface HookJson {
  id: string;
  key: string | null;
  orderKey: string | null;
  status: string;
}

for (const adapter of enabledAdapters()) {
  describe(`hooks commands on ordered hooks, ${adapter}`, () => {
    const dir = tempDir();
    let database: TestDatabase | undefined;
    const env = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
    const cli = (args: string[]) => runCli(args, { cwd: dir.path, env: env() });
    const hooks = (...args: string[]) => cli(["hooks", app, ...args]);
    const listJson = async (...args: string[]): Promise<HookJson[]> => {
      const result = await hooks("list", "--json", ...args);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout).hooks;
    };
    let ids: Record<string, string>;

    before(async () => {
      if (adapter === "postgres") database = await createTestDatabase();
      const result = await runScript(seed, [], { cwd: dir.path, env: childEnv(env()) });
      assert.equal(result.code, 0, result.stderr);
      ids = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    }, slow);
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it(
      "list --status blocked, show and db info see the hooks waiting for their key",
      slow,
      async () => {
        const blocked = await listJson("--status", "blocked");
        assert.deepEqual(blocked.map((h) => [h.key, h.orderKey, h.status]), [
          ["c", "order-42", "blocked"],
          ["b", "order-42", "blocked"],
        ]);
        const table = await hooks("list", "--status", "blocked");
        assert.equal(table.code, 0, table.stderr);
        assert.match(table.stdout, /^chains +\d+ +step +b +blocked +0 +after the earlier hooks/m);
        const shown = await hooks("show", ids.b);
        assert.equal(shown.code, 0, shown.stderr);
        assert.match(shown.stdout, /^ {2}Order key: order-42$/m);
        assert.match(shown.stdout, /^ {2}Status: {4}blocked$/m);
        const info = await cli(["db", "info", app]);
        assert.equal(info.code, 0, info.stderr);
        assert.match(info.stdout, /^Hooks \[chains\]: 2 pending, 0 running, 0 failed, 2 blocked/m);
        const json = await cli(["db", "info", app, "--json"]);
        assert.equal(json.code, 0, json.stderr);
        const [row] = JSON.parse(json.stdout).namespaces as { hooks: { blocked: number } }[];
        assert.equal(row.hooks.blocked, 2);
      },
    );

    it(
      "cancel of the hook holding a key releases the next; retry puts it back behind",
      slow,
      async () => {
        const cancelled = await hooks("cancel", ids.a);
        assert.equal(cancelled.code, 0, cancelled.stderr);
        const byKey = async () =>
          Object.fromEntries((await listJson("--limit", "10")).map((h) => [h.key, h.status]));
        assert.deepEqual(await byKey(), {
          a: "cancelled",
          b: "pending",
          c: "blocked",
          d: "pending",
        });
        // Retried, it waits for the key's pending hook, ahead of the one still blocked.
        const retried = await hooks("retry", ids.a, "--json");
        assert.equal(retried.code, 0, retried.stderr);
        assert.deepEqual(await byKey(), { a: "blocked", b: "pending", c: "blocked", d: "pending" });
        // Cancelling a blocked hook releases nothing.
        assert.equal((await hooks("cancel", ids.c)).code, 0);
        assert.deepEqual(await byKey(), {
          a: "blocked",
          b: "pending",
          c: "cancelled",
          d: "pending",
        });
      },
    );
  });
}
