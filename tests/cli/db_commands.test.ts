/**
 * `db info`, `db migrate` and `db generate` against a real database, end to end: cli.ts in child
 * processes on one PGlite data directory (a temp working directory) and on a fresh PostgreSQL
 * database, each test building on the state the previous one left. Generated SQL files are
 * applied by hand (psql, or PGlite's own exec) to check their version bookkeeping.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { cliFixture, runCli, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";

const notes = cliFixture("notes_app.ts");
const slow = { timeout: 120_000 };

interface InfoRow {
  module: string;
  namespace: string;
  codeVersion: number;
  databaseVersion: number;
  pending: number;
  status: string;
  statusText: string;
  driftAtStep: number | null;
}

for (const adapter of enabledAdapters()) {
  describe(`db commands on ${adapter}`, () => {
    const dir = tempDir();
    let database: TestDatabase | undefined;
    const env = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
    const cli = (args: string[], extra: Record<string, string> = {}) =>
      runCli(args, { cwd: dir.path, env: { ...env(), ...extra } });
    const info = async (extra: Record<string, string> = {}): Promise<InfoRow[]> => {
      const result = await cli(["db", "info", notes, "--json"], extra);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout).namespaces;
    };
    const versions = async (): Promise<Record<string, number>> =>
      Object.fromEntries((await info()).map((r) => [r.namespace, r.databaseVersion]));
    /** Applies a SQL file as a user would by hand; resolves to the error message, if any. */
    const applyByHand = async (file: string): Promise<string | undefined> => {
      const sql = readFileSync(file, "utf8");
      if (database) {
        try {
          execFileSync("psql", [
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            database.url,
            "-f",
            file,
          ], {
            stdio: "pipe",
          });
          return undefined;
        } catch (error) {
          return String((error as { stderr: Buffer }).stderr);
        }
      }
      const pg = await PGlite.create(join(dir.path, ".data/pglite"));
      try {
        await pg.exec(sql);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      } finally {
        await pg.close();
      }
    };

    before(async () => {
      if (adapter === "postgres") database = await createTestDatabase();
    }, slow);
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it(
      "db info on an empty database: every step pending, exit 0, table and JSON",
      slow,
      async () => {
        const table = await cli(["db", "info", notes]);
        assert.equal(table.code, 0, table.stderr);
        assert.match(
          table.stdout,
          adapter === "pglite"
            ? /^Database: PGlite \.\/\.data\/pglite$/m
            : /^Database: PostgreSQL postgres:\/\/postgres@/m,
        );
        assert.match(table.stdout, /^Module +Namespace +Code +Database +Pending +Status$/m);
        assert.match(table.stdout, /^notes +notes +3 +0 +3 +3 pending$/m);
        assert.match(table.stdout, /^tags +tags +2 +0 +2 +2 pending$/m);
        assert.match(
          table.stdout,
          /^5 pending steps: run "fragment-cli db migrate .*notes_app\.ts" to apply them\.$/m,
        );
        const rows = await info();
        assert.deepEqual(
          rows.map((
            r,
          ) => [r.module, r.namespace, r.codeVersion, r.databaseVersion, r.pending, r.status]),
          [
            ["notes", "notes", 3, 0, 3, "pending"],
            ["tags", "tags", 2, 0, 2, "pending"],
          ],
        );
      },
    );

    it(
      "db migrate --from that differs from the database: exit 1 naming both versions, nothing applied",
      slow,
      async () => {
        const result = await cli(["db", "migrate", notes, "--from", "tags=0,notes=1"]);
        assert.equal(result.code, 1);
        assert.match(
          result.stderr,
          /^error: notes \[notes\]: the database is at version 0, not at version 1 as --from says; nothing applied$/m,
        );
        assert.deepEqual(await versions(), { notes: 0, tags: 0 });
      },
    );

    it("db generate reads the database's versions and writes from there", slow, async () => {
      const result = await cli(["db", "generate", notes, "-o", "first/"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Reading the current versions from (PGlite|PostgreSQL) /m);
      assert.deepEqual(readdirSync(join(dir.path, "first")).map((f) => f.slice(9)).sort(), [
        "001_f000_t003_notes.sql",
        "002_f000_t002_tags.sql",
      ]);
    });

    it(
      "db migrate --to with namespace pairs moves each namespace and prints every step",
      slow,
      async () => {
        const result = await cli(["db", "migrate", notes, "--to", "notes=2", "--from", "0"]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(
          result.stdout,
          /^ {2}✓ notes \[notes\]: version 0 → 2\n {6}step 1: createTable "notes"\n {6}step 2: addColumn "notes"\."pinned"$/m,
        );
        assert.match(result.stdout, /^ {2}✓ tags \[tags\]: version 0 → 2$/m);
        assert.match(result.stdout, /^Migrated 2 namespaces$/m);
        assert.deepEqual(await versions(), { notes: 2, tags: 2 });
      },
    );

    it(
      "db migrate --to below the database or beyond the code: exit 1, nothing applied",
      slow,
      async () => {
        const down = await cli(["db", "migrate", notes, "--to", "1"]);
        assert.equal(down.code, 1);
        assert.match(
          down.stderr,
          /^error: notes \[notes\]: cannot migrate down from version 2 to 1 \(there are no down migrations\); tags \[tags\]: cannot migrate down from version 2 to 1 .*; nothing applied$/m,
        );
        const beyond = await cli(["db", "migrate", notes, "--to", "notes=4"]);
        assert.equal(beyond.code, 1);
        assert.match(
          beyond.stderr,
          /^error: notes \[notes\]: cannot migrate to version 4, the latest version is 3; nothing applied$/m,
        );
        assert.deepEqual(await versions(), { notes: 2, tags: 2 });
      },
    );

    it(
      "db generate writes only what is pending; the file applied by hand records the version",
      slow,
      async () => {
        const result = await cli([
          "db",
          "generate",
          notes,
          "-o",
          "second/",
          "--prefix=-- reviewed",
        ]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /^1 file generated$/m);
        assert.match(result.stdout, /^ {2}tags \[tags\]: already at version 2, no file$/m);
        const [file] = readdirSync(join(dir.path, "second"));
        assert.match(file, /^\d{8}_001_f002_t003_notes\.sql$/);
        const path = join(dir.path, "second", file);
        assert.ok(readFileSync(path, "utf8").startsWith("-- reviewed\n-- fragment-cli migration"));
        assert.equal(await applyByHand(path), undefined);
        const rows = await info();
        assert.deepEqual(rows.map((r) => [r.namespace, r.databaseVersion, r.status]), [
          ["notes", 3, "up-to-date"],
          ["tags", 2, "up-to-date"],
        ]);
      },
    );

    it("the same file applied again fails and changes nothing", slow, async () => {
      const [file] = readdirSync(join(dir.path, "second"));
      const error = await applyByHand(join(dir.path, "second", file));
      assert.match(
        error ?? "",
        /Namespace "notes" is at version 3, this file migrates it from version 2; nothing applied/,
      );
      assert.deepEqual(await versions(), { notes: 3, tags: 2 });
    });

    it(
      "at the target: db migrate says no migrations are needed, db generate writes nothing",
      slow,
      async () => {
        const migrate = await cli(["db", "migrate", notes]);
        assert.equal(migrate.code, 0, migrate.stderr);
        assert.match(
          migrate.stdout,
          /^No migrations needed: notes \[notes\] is at version 3, tags \[tags\] is at version 2$/m,
        );
        const generate = await cli(["db", "generate", notes, "-o", "third/"]);
        assert.equal(generate.code, 0, generate.stderr);
        assert.match(
          generate.stdout,
          /^Nothing to generate: notes \[notes\] is at version 3, tags \[tags\] is at version 2$/m,
        );
        assert.deepEqual(readdirSync(dir.path).filter((f) => f === "third"), []);
        const table = await cli(["db", "info", notes]);
        assert.match(table.stdout, /^notes +notes +3 +3 +0 +up to date$/m);
        assert.doesNotMatch(table.stdout, /pending step/);
      },
    );

    it(
      "a database ahead of the code: db info says so (exit 0); migrate and generate exit 1",
      slow,
      async () => {
        const older = { NOTES_VARIANT: "v2" };
        const rows = await info(older);
        assert.deepEqual([rows[0].status, rows[0].statusText, rows[0].codeVersion], [
          "ahead",
          "database ahead",
          2,
        ]);
        const migrate = await cli(["db", "migrate", notes], older);
        assert.equal(migrate.code, 1);
        assert.match(
          migrate.stderr,
          /^error: notes \[notes\]: the database is at version 3, ahead of the code \(latest 2\); nothing applied$/m,
        );
        const generate = await cli(["db", "generate", notes, "-o", "never/"], older);
        assert.equal(generate.code, 1);
        assert.match(
          generate.stderr,
          /^error: notes \[notes\]: the database is at version 3, ahead of the code \(latest 2\); nothing generated$/m,
        );
      },
    );

    it(
      "an edited applied step: db info shows drift at that step; migrate exits 1 naming it",
      slow,
      async () => {
        const edited = { NOTES_VARIANT: "edited" };
        const table = await cli(["db", "info", notes], edited);
        assert.equal(table.code, 0);
        assert.match(table.stdout, /^notes +notes +3 +3 +0 +drift at step 2$/m);
        assert.match(table.stdout, /cannot be migrated/);
        const migrate = await cli(["db", "migrate", notes], edited);
        assert.equal(migrate.code, 1);
        assert.match(
          migrate.stderr,
          /^error: notes \[notes\]: step 2 was changed after it was applied; schema steps are append-only, add a new step instead; nothing applied$/m,
        );
      },
    );

    if (adapter === "postgres") {
      it("two db migrate processes at once: both succeed, exactly one applies", slow, async () => {
        const binding = cliFixture("binding_only.ts");
        const [a, b] = await Promise.all([
          cli(["db", "migrate", binding]),
          cli(["db", "migrate", binding]),
        ]);
        assert.equal(a.code, 0, a.stderr);
        assert.equal(b.code, 0, b.stderr);
        const applied = [a, b].filter((r) => /✓ audit \[audit_log\]: version 0 → 1/.test(r.stdout));
        assert.equal(applied.length, 1, `${a.stdout}\n${b.stdout}`);
        const other = a === applied[0] ? b : a;
        assert.match(
          other.stdout,
          /already at version 1|No migrations needed: audit \[audit_log\] is at version 1/,
        );
      });
    }
  });
}
