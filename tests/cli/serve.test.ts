/**
 * `fragment-cli serve` end to end: cli.ts in a child process, real HTTP to the printed routes,
 * migrations at start on PGlite (a temp data directory) and on the PostgreSQL server.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import {
  cliFixture,
  runCli,
  type ServeProcess,
  startServe,
  tempDir,
} from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

const plain = cliFixture("plain_module.ts");
const notes = cliFixture("notes_app.ts");
const local = ["--port", "0", "--host", "127.0.0.1"];
/** Child processes with PGlite take seconds each, more on a busy machine. */
const slow = { timeout: 120_000 };

/** The `METHOD /path` lines printed under `Routes:`. */
function printedRoutes(stdout: string): { method: string; path: string }[] {
  return [...stdout.matchAll(/^ {4}([A-Z]+) +(\/\S*)$/gm)].map((m) => ({
    method: m[1],
    path: m[2],
  }));
}

async function expectStopped(server: ServeProcess): Promise<void> {
  const code = await server.stop();
  // Deno's child_process reports a child that exits by itself on SIGTERM as killed by it.
  if (RUNTIME !== "deno") assert.equal(code, 0);
  assert.match(server.stdout(), /^Server stopped$/m);
}

describe("fragment-cli serve on PGlite", () => {
  const dir = tempDir();
  let server: ServeProcess;
  after(async () => {
    await server?.stop();
    dir.remove();
  });

  // Started inside a test, not a hook: Bun's hooks ignore the timeout option, and a first start
  // on a fresh PGlite data directory takes seconds.
  it(
    "prints the modules per file, the migrations applied, the address and every route",
    slow,
    async () => {
      server = await startServe([plain, notes, ...local], { cwd: dir.path });
      const out = server.stdout();
      assert.match(out, new RegExp(`^Found 2 modules in ${plain}: hello, hello-x$`, "m"));
      assert.match(out, new RegExp(`^Found 2 modules in ${notes}: notes, tags$`, "m"));
      assert.match(out, /^Applying migrations to PGlite \.\/\.data\/pglite:$/m);
      assert.match(out, /^ {2}notes \[notes\]: version 0 → 3 \(createTable "notes", /m);
      assert.match(out, /^ {2}tags \[tags\]: version 0 → 2 /m);
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(out, new RegExp(`^ {2}Mount: {2}${server.url}/api/notes$`, "m"));
      assert.deepEqual(printedRoutes(out), [
        { method: "GET", path: "/api/hello" },
        { method: "GET", path: "/api/hello/items/:id" },
        { method: "GET", path: "/api/hello/openapi.json" },
        { method: "GET", path: "/api/hello-x" },
        { method: "GET", path: "/api/hello-x/openapi.json" },
        { method: "GET", path: "/api/notes" },
        { method: "POST", path: "/api/notes" },
        { method: "DELETE", path: "/api/notes/:id" },
        { method: "GET", path: "/api/notes/openapi.json" },
        { method: "GET", path: "/api/tags" },
        { method: "GET", path: "/api/tags/openapi.json" },
      ]);
    },
  );

  it("answers every printed route over HTTP, with the database migrated", slow, async () => {
    for (const { method, path } of printedRoutes(server.stdout())) {
      const url = `${server.url}${path.replace(":id", "7")}`;
      const init = method === "POST"
        ? {
          method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id: 7, body: "hello" }),
        }
        : { method };
      const response = await fetch(url, init);
      assert.ok(response.status < 300, `${method} ${path}: ${response.status}`);
      await response.body?.cancel();
    }
    const listed = await fetch(`${server.url}/api/notes`);
    assert.deepEqual(await listed.json(), { notes: [{ id: 7, body: "hello", pinned: false }] });
    const prefixed = await fetch(`${server.url}/api/hello-x`);
    assert.deepEqual(await prefixed.json(), { prefix: true });
  });

  it("answers an unmatched path with 404 and the mounts", slow, async () => {
    for (const path of ["/", "/api/hellox", "/api/note"]) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.match(response.headers.get("content-type") ?? "", /application\/json/);
      const body = await response.json();
      assert.equal(body.error.code, "NOT_FOUND");
      assert.deepEqual(body.availableRoutes, [
        "/api/hello",
        "/api/hello-x",
        "/api/notes",
        "/api/tags",
      ]);
    }
  });

  it(
    "refuses a taken port with one line (no stack), after warning about a file without modules",
    slow,
    async () => {
      const port = new URL(server.url).port;
      const result = await runCli(
        ["serve", plain, cliFixture("no_modules.ts"), "--port", port, "--host", "127.0.0.1"],
        { cwd: dir.path },
      );
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        new RegExp(
          `^warning: ${cliFixture("no_modules.ts")} exports no instantiated module; skipped$`,
          "m",
        ),
      );
      assert.match(
        result.stderr,
        new RegExp(
          `^error: Port ${port} on 127\\.0\\.0\\.1 is already in use; pick another one with --port$`,
          "m",
        ),
      );
      assert.doesNotMatch(result.stderr, /^\s+at /m);
    },
  );

  it(
    "shuts down on SIGTERM, closes the database, and finds it up to date with its data on restart",
    slow,
    async () => {
      await expectStopped(server);
      const again = await startServe([notes, ...local], { cwd: dir.path });
      try {
        assert.match(
          again.stdout(),
          /^Database PGlite \.\/\.data\/pglite is up to date: notes \[notes\] v3, tags \[tags\] v2$/m,
        );
        assert.doesNotMatch(again.stdout(), /Applying migrations/);
        const listed = await fetch(`${again.url}/api/notes`);
        assert.equal((await listed.json()).notes.length, 1);
      } finally {
        await expectStopped(again);
      }
    },
  );
});

describe("fragment-cli serve: refusals", () => {
  const dir = tempDir();
  after(() => dir.remove());

  it("two modules on one mount: exit 1 naming both files", slow, async () => {
    const result = await runCli(["serve", plain, cliFixture("same_mount.ts"), ...local], {
      cwd: dir.path,
    });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr.trim(),
      `error: modules "hello" (${plain}) and "hello" (${cliFixture("same_mount.ts")}) are both ` +
        "mounted on /api/hello",
    );
  });

  it("a file that fails to import: exit 1 naming the file and the reason", slow, async () => {
    const broken = cliFixture("broken.ts");
    const result = await runCli(["serve", broken], { cwd: dir.path });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^error: ${broken}: .*WEBHOOK_SECRET is not set`));
    assert.doesNotMatch(result.stderr, /^\s+at /m);
  });

  it("no module in any file: exit 1 saying what to export, with an example", slow, async () => {
    const result = await runCli(["serve", cliFixture("no_modules.ts")], { cwd: dir.path });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: no instantiated module found in /);
    assert.match(result.stderr, /export const ping = createModule\(\{/);
  });

  it("validates arguments before importing user code (exit 2 with the usage)", slow, async () => {
    const broken = cliFixture("broken.ts");
    const cases: [string[], RegExp][] = [
      [["serve"], /^error: missing <file> to serve$/m],
      [
        ["serve", broken, "--port", "99999"],
        /^error: --port must be an integer from 0 to 65535, got "99999"$/m,
      ],
      [["serve", broken, "--port", "http"], /^error: --port must be an integer/m],
      [["serve", broken, "--host", ""], /^error: --host must be a host name/m],
      [["serve", "notes.txt"], /^error: notes\.txt: expected a \.ts or \.js file$/m],
      [["serve", broken, "--colour"], /^error: Unknown option '--colour'/m],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: dir.path });
      assert.equal(result.code, 2, args.join(" "));
      assert.match(result.stderr, message);
      assert.match(result.stderr, /^Usage: fragment-cli serve <file…> \[options\]$/m);
      assert.equal(result.stdout, "");
    }
    const missing = await runCli(["serve", "missing.ts"], { cwd: dir.path });
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "error: missing.ts: no such file\n");
  });

  it("--help shows the usage, the options with their defaults and examples", slow, async () => {
    const result = await runCli(["serve", "--help"], { cwd: dir.path });
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: fragment-cli serve <file…> \[options\]$/m);
    assert.match(result.stdout, /^ {2}-p, --port <port> +Port to listen on .*\(default: 8080\)$/m);
    assert.match(result.stdout, /^ {2}-H, --host <host> +Host to bind \(default: localhost\)$/m);
    assert.match(result.stdout, /^ {6}--migrate /m);
    assert.match(result.stdout, /^ {2}fragment-cli serve examples\/app\.ts$/m);
    // An example that sets the environment puts it before the program, as a shell needs it.
    assert.match(
      result.stdout,
      /^ {2}DATABASE_URL=postgres:\/\/localhost\/app fragment-cli serve app\.ts --migrate$/m,
    );
    assert.doesNotMatch(result.stdout, /fragment-cli [A-Z_]+=/);
  });
});

describe(
  "fragment-cli serve on PostgreSQL",
  { skip: !enabledAdapters().includes("postgres") },
  () => {
    let database: TestDatabase;
    const dir = tempDir();
    before(async () => {
      database = await createTestDatabase();
    }, slow);
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it(
      "refuses to start with pending migrations, naming them and --migrate; applies nothing",
      slow,
      async () => {
        const result = await runCli(["serve", notes, ...local], {
          cwd: dir.path,
          env: { DATABASE_URL: database.url },
        });
        assert.equal(result.code, 1);
        assert.match(
          result.stderr,
          /^error: PostgreSQL postgres:\/\/.* has pending migrations \(notes \[notes\] 0 → 3, tags \[tags\] 0 → 2\); apply them with "fragment-cli db migrate <file>", or start with --migrate to apply them now$/m,
        );
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        try {
          const rows =
            await sql`SELECT nspname FROM pg_namespace WHERE nspname IN ('notes', 'tags', 'fragment_internal')`;
          assert.equal(rows.length, 0);
        } finally {
          await sql.end();
        }
      },
    );

    it("with --migrate applies them, serves, and stops cleanly", slow, async () => {
      const server = await startServe([notes, ...local, "--migrate"], {
        cwd: dir.path,
        env: { DATABASE_URL: database.url },
      });
      try {
        assert.match(server.stdout(), /^Applying migrations to PostgreSQL postgres:\/\//m);
        assert.match(server.stdout(), /^ {2}notes \[notes\]: version 0 → 3 /m);
        const created = await fetch(`${server.url}/api/notes`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id: 1, body: "on postgres" }),
        });
        assert.equal(created.status, 201);
        await created.body?.cancel();
        const listed = await fetch(`${server.url}/api/notes`);
        assert.deepEqual(await listed.json(), {
          notes: [{ id: 1, body: "on postgres", pinned: false }],
        });
      } finally {
        await expectStopped(server);
      }
    });
  },
);
