/**
 * `fragment-cli hooks` and the hook lines of `db info`, end to end: cli.ts in child processes on
 * one PGlite data directory (a temp working directory) and on a fresh PostgreSQL database, seeded
 * by running the modules of `hooks_app.ts` (hooks that succeed, that always fail, that wait a day,
 * and messenger updates, one of which fails). Each test builds on the state the previous one left.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { childEnv, cliFixture, runCli, startServe, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const app = cliFixture("hooks_app.ts");
const seed = cliFixture("hooks_seed.ts");
const slow = { timeout: 180_000 };

interface HookJson {
  namespace: string;
  id: string;
  name: string;
  key: string | null;
  status: string;
  attempts: number;
  nextRunAt: string | null;
  lastError: string | null;
  finishedAt: string | null;
}

interface ShownHook extends HookJson {
  module: string;
  payload: unknown;
  errors: { attempt: number; at: string; error: string }[];
  details: { update?: { updateId: string; raw: string } } | null;
}

for (const adapter of enabledAdapters()) {
  describe(`hooks commands on ${adapter}`, () => {
    const dir = tempDir();
    let database: TestDatabase | undefined;
    let ids: { jobs: Record<string, string>; messenger: Record<string, string> };
    const env = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
    const cli = (args: string[]) => runCli(args, { cwd: dir.path, env: env() });
    const hooks = (...args: string[]) => cli(["hooks", app, ...args]);
    const listJson = async (...args: string[]): Promise<HookJson[]> => {
      const result = await hooks("list", "--json", ...args);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout).hooks;
    };
    const showJson = async (namespace: string, id: string): Promise<ShownHook> => {
      const result = await hooks("show", id, "--namespace", namespace, "--json");
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout).hook;
    };
    /** The error line of a failed run: exactly one line on stderr. */
    const oneLineError = (result: { code: number | null; stderr: string; stdout: string }) => {
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, "");
      assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
      return result.stderr.trimEnd();
    };
    /** Rows of a table in the database (after every CLI process ended, for PGlite). */
    const query = async (sql: string): Promise<Record<string, unknown>[]> => {
      if (database) {
        const client = postgres(database.url, { max: 1, onnotice: () => {} });
        try {
          return [...await client.unsafe(sql)];
        } finally {
          await client.end();
        }
      }
      const pg = await PGlite.create(join(dir.path, ".data/pglite"));
      try {
        return (await pg.query<Record<string, unknown>>(sql)).rows;
      } finally {
        await pg.close();
      }
    };

    before(async () => {
      if (adapter === "postgres") database = await createTestDatabase();
    }, slow);
    // Seeding takes longer than Bun's 5 s limit on `before` hooks (it ignores their timeout):
    // the first test runs it, under its own timeout.
    let seeding: Promise<void> | undefined;
    const seeded = (): Promise<void> =>
      seeding ??= (async () => {
        const result = await runScript(seed, [], { cwd: dir.path, env: childEnv(env()) });
        assert.equal(result.code, 0, result.stderr);
        ids = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
      })();
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it("list: every hook newest first, as a table and as pure JSON", slow, async () => {
      await seeded();
      const table = await hooks("list");
      assert.equal(table.code, 0, table.stderr);
      assert.match(
        table.stdout,
        /^Namespace +ID +Hook +Key +Status +Attempts +Next run +Last error$/m,
      );
      assert.match(
        table.stdout,
        new RegExp(
          `^jobs +${
            ids.jobs["bad-1"]
          } +always_fails +bad-1 +failed +3 +- +Error: boom at attempt 3$`,
          "m",
        ),
      );
      assert.match(table.stdout, /^7 hooks, newest first\.$/m);
      const all = await listJson();
      assert.equal(all.length, 7);
      assert.deepEqual(
        all.filter((h) => h.namespace === "jobs").map((h) => [h.key, h.status, h.attempts]),
        [
          ["later-2", "pending", 0],
          ["later-1", "pending", 0],
          ["bad-2", "failed", 3],
          ["bad-1", "failed", 3],
          ["ok-1", "done", 1],
        ],
      );
      const later = all.find((h) => h.key === "later-1")!;
      assert.ok(Date.parse(later.nextRunAt!) > Date.now() + 3_600_000, "due tomorrow");
    });

    it("list --status, --namespace and --limit filter", slow, async () => {
      await seeded();
      const failed = await listJson("--status", "failed");
      assert.deepEqual(failed.map((h) => `${h.namespace}:${h.key}`).sort(), [
        "jobs:bad-1",
        "jobs:bad-2",
        "messenger:7002",
      ]);
      const done = await listJson("--status", "done", "--namespace", "messenger");
      assert.deepEqual(done.map((h) => h.key), ["7001"]);
      const jobs = await listJson("--namespace", "jobs", "--limit", "2");
      assert.deepEqual(jobs.map((h) => h.key), ["later-2", "later-1"]);
      const none = await hooks("list", "--status", "running");
      assert.equal(none.code, 0, none.stderr);
      assert.match(none.stdout, /^No hooks found\.$/m);
    });

    it(
      "show: payload, every error with its time, the messenger's stored update",
      slow,
      async () => {
        await seeded();
        const bad = await showJson("jobs", ids.jobs["bad-1"]);
        assert.equal(bad.status, "failed");
        assert.deepEqual(bad.payload, { n: 2 });
        assert.deepEqual(bad.errors.map((e) => e.attempt), [1, 2, 3]);
        bad.errors.forEach((e, i) => {
          assert.match(e.error, new RegExp(`^Error: boom at attempt ${i + 1}`));
          assert.ok(Number.isFinite(Date.parse(e.at)), e.at);
        });
        assert.equal(bad.details, null);

        const update = await showJson("messenger", ids.messenger["7002"]);
        assert.equal(update.module, "messenger");
        assert.equal(update.errors.length, 2);
        assert.equal(update.details?.update?.updateId, "7002");
        assert.deepEqual(JSON.parse(update.details!.update!.raw).message.text, "fail");

        const text = await hooks("show", ids.messenger["7002"], "--namespace", "messenger");
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, /^ {2}Status: +failed$/m);
        assert.match(text.stdout, /^Errors \(2, oldest first\):$/m);
        assert.match(text.stdout, /^ {2}attempt 1 at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ:$/m);
        assert.match(text.stdout, /Error: cannot process this message/);
        assert.match(text.stdout, /\\"text\\":\\"fail\\"/);

        const pending = await hooks("show", ids.jobs["later-1"], "--namespace", "jobs");
        assert.match(pending.stdout, /^ {2}Next run: +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/m);
        assert.match(pending.stdout, /^Errors: none$/m);
      },
    );

    it("an unknown or ambiguous id: exit 1 with one line", slow, async () => {
      await seeded();
      assert.match(oneLineError(await hooks("show", "999")), /^error: no hook occurrence 999 in /);
      // Ids are per namespace: 1 is an occurrence of jobs and of the messenger.
      assert.match(
        oneLineError(await hooks("show", "1")),
        /^error: hook occurrence 1 exists in 2 namespaces \(.*\): pick one with --namespace$/,
      );
      assert.match(
        oneLineError(await hooks("cancel", ids.jobs["later-1"], "999", "--namespace", "jobs")),
        /^error: no hook occurrence 999 in namespace "jobs" of /,
      );
      // Nothing was changed by the refused cancel.
      assert.equal((await showJson("jobs", ids.jobs["later-1"])).status, "pending");
    });

    it(
      "retry <id>: failed → pending with attempts reset, errors kept; idempotent",
      slow,
      async () => {
        await seeded();
        const result = await hooks("retry", ids.jobs["bad-1"], "--namespace", "jobs");
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, `Retried 1 hook: ${ids.jobs["bad-1"]} [jobs]\n`);
        const retried = await showJson("jobs", ids.jobs["bad-1"]);
        assert.equal(retried.status, "pending");
        assert.equal(retried.attempts, 0);
        assert.equal(retried.errors.length, 3);
        assert.ok(Date.parse(retried.nextRunAt!) <= Date.now() + 1000);

        const again = await hooks(
          "retry",
          ids.jobs["bad-1"],
          ids.jobs["ok-1"],
          "--namespace",
          "jobs",
          "--json",
        );
        assert.equal(again.code, 0, again.stderr);
        assert.deepEqual(JSON.parse(again.stdout).retried, []);
        assert.deepEqual(JSON.parse(again.stdout).unchanged, [
          { namespace: "jobs", id: ids.jobs["bad-1"], status: "pending" },
          { namespace: "jobs", id: ids.jobs["ok-1"], status: "done" },
        ]);
      },
    );

    it(
      "cancel <id…>: cancelled, idempotent; retry brings a cancelled hook back",
      slow,
      async () => {
        await seeded();
        const later = [ids.jobs["later-1"], ids.jobs["later-2"]];
        const result = await hooks("cancel", ...later, "--namespace", "jobs", "--json");
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(
          JSON.parse(result.stdout).cancelled.map((c: { id: string }) => c.id),
          later,
        );
        const again = await hooks("cancel", later[0], "--namespace", "jobs");
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /^Left alone: \d+ \[jobs\] is cancelled already$/m);
        assert.equal((await showJson("jobs", later[0])).status, "cancelled");
        const back = await hooks("retry", later[1], "--namespace", "jobs");
        assert.equal(back.code, 0, back.stderr);
        assert.equal((await showJson("jobs", later[1])).status, "pending");
      },
    );

    it("retry --failed redrives every failed hook, and only those", slow, async () => {
      await seeded();
      const result = await hooks("retry", "--failed", "--json");
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        JSON.parse(result.stdout).retried.map((r: { namespace: string; id: string }) =>
          `${r.namespace}:${r.id}`
        ).sort(),
        [`jobs:${ids.jobs["bad-2"]}`, `messenger:${ids.messenger["7002"]}`].sort(),
      );
      assert.deepEqual(await listJson("--status", "failed"), []);
      assert.equal((await listJson("--status", "cancelled")).length, 1);
      const none = await hooks("retry", "--failed", "--namespace", "jobs");
      assert.equal(none.code, 0, none.stderr);
      assert.equal(none.stdout, "No failed hooks to retry\n");
    });

    it("db info: one hooks line per namespace, in --json too", slow, async () => {
      await seeded();
      const table = await cli(["db", "info", app]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(
        table.stdout,
        /^Hooks \[jobs\]: 3 pending, 0 running, 0 failed, oldest pending \d+[smhd]( \d+[smh])?$/m,
      );
      assert.match(
        table.stdout,
        /^Hooks \[messenger\]: 1 pending, 0 running, 0 failed, oldest pending /m,
      );
      const json = await cli(["db", "info", app, "--json"]);
      assert.equal(json.code, 0, json.stderr);
      const rows = JSON.parse(json.stdout).namespaces as {
        namespace: string;
        hooks: {
          pending: number;
          running: number;
          failed: number;
          blocked: number;
          oldestPendingAgeSeconds: number;
        };
      }[];
      const jobs = rows.find((r) => r.namespace === "jobs")!.hooks;
      assert.deepEqual({ ...jobs, oldestPendingAgeSeconds: 0 }, {
        pending: 3,
        running: 0,
        failed: 0,
        blocked: 0,
        oldestPendingAgeSeconds: 0,
      });
      assert.ok(jobs.oldestPendingAgeSeconds >= 0);
    });

    it("purge --done --older-than: by age; the messenger's stored updates stay", slow, async () => {
      await seeded();
      const kept = await hooks("purge", "--done", "--older-than", "30d", "--namespace", "jobs");
      assert.equal(kept.code, 0, kept.stderr);
      assert.equal(kept.stdout, "Purged 0 done hooks finished 30d ago or earlier (jobs: 0)\n");
      const purged = await hooks("purge", "--done", "--older-than", "0s", "--json");
      assert.equal(purged.code, 0, purged.stderr);
      assert.deepEqual(JSON.parse(purged.stdout).purged, { jobs: 1, messenger: 1 });
      assert.deepEqual(await listJson("--status", "done"), []);
      assert.match(
        oneLineError(await hooks("show", ids.jobs["ok-1"], "--namespace", "jobs")),
        /^error: no hook occurrence \d+ in namespace "jobs" of /,
      );
      const updates = await query("SELECT update_id::text AS id FROM messenger.updates ORDER BY 1");
      assert.deepEqual(updates.map((u) => u.id), ["7001", "7002"]);
    });

    it("usage errors exit 2 before the file is imported", slow, async () => {
      await seeded();
      const cases: [string[], RegExp][] = [
        [["hooks", app], /^error: a subcommand is missing; use one of: list, show/],
        [["hooks", app, "redo"], /^error: unknown subcommand "redo"/],
        [["hooks", app, "list", "--status", "lost"], /^error: unknown status "lost"/],
        [["hooks", app, "list", "--limit", "0"], /^error: --limit must be a whole number/],
        [["hooks", app, "show"], /^error: missing <id>$/m],
        [["hooks", app, "show", "abc"], /^error: "abc" is not a hook occurrence id/],
        [
          ["hooks", app, "show", "1", "--status", "failed"],
          /^error: --status is an option of hooks list$/m,
        ],
        [["hooks", app, "retry"], /^error: missing <id…> \(or --failed/],
        [["hooks", app, "retry", "1", "--failed"], /^error: give ids or --failed, not both$/m],
        [["hooks", app, "cancel"], /^error: missing <id…>$/m],
        [["hooks", app, "purge", "--older-than", "1d"], /^error: purge needs --done/],
        [["hooks", app, "purge", "--done"], /^error: purge needs --older-than/],
        [
          ["hooks", app, "purge", "--done", "--older-than", "soon"],
          /^error: --older-than must be a duration/,
        ],
        [
          ["hooks", app, "list", "--namespace", "nope"],
          /^error: no namespace "nope" with hooks in /,
        ],
        [["hooks", app, "list", "--bogus"], /^error: Unknown option '--bogus'/],
      ];
      for (const [args, message] of cases) {
        const result = await cli(args);
        assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
        assert.match(result.stderr, message, args.join(" "));
        assert.match(result.stderr, /^Usage: fragment-cli hooks <file> <subcommand> \[options\]$/m);
      }
      // The db info order works too: hooks <subcommand> <file>.
      const swapped = await cli(["hooks", "list", app, "--namespace", "jobs", "--json"]);
      assert.equal(swapped.code, 0, swapped.stderr);
      assert.ok(Array.isArray(JSON.parse(swapped.stdout).hooks));
    });

    if (adapter === "pglite") {
      it("a PGlite directory held by serve: the commands say so, exit 1", slow, async () => {
        await seeded();
        const serve = await startServe([app, "--port", "0"], { cwd: dir.path });
        try {
          for (const args of [["hooks", app, "list"], ["db", "info", app]]) {
            const line = oneLineError(await cli(args));
            assert.match(
              line,
              /^error: the PGlite data directory ".*" is held by process \d+, most likely a running "fragment-cli serve"/,
            );
          }
        } finally {
          await serve.stop();
        }
      });
    }
  });
}
