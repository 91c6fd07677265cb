/**
 * Builds the npm package, packs it with `npm pack`, installs the tarball into a scratch folder
 * and runs its `fragment-cli` bin with the machine's Node and with Bun. Runs under Deno only
 * (scripts/test.ts), since it drives Node and Bun itself.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { ADMIN_URL } from "../helpers/databases.ts";
import { closedPort } from "../helpers/local_server.ts";

const root = resolve(import.meta.dirname ?? ".", "../..");
const version = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).version;
// The user's files below run on the installed package; DATABASE_URL unset means PGlite.
const { DATABASE_URL: _unused, ...inherited } = process.env;
const quiet = { ...inherited, npm_config_loglevel: "error", NO_COLOR: "1" };

/** A user's TypeScript file importing the installed package (types on purpose: Node 20 uses jiti). */
const USER_APP =
  `import { column, createModule, databaseFromEnv, defineSchema, route } from "fragment-cli";

const greeting: string = "hello from TypeScript";
const schema = defineSchema("notes", (s) =>
  s.createTable("notes", { id: column.integer().primaryKey(), body: column.text() }));

export const notes = createModule({
  name: "notes",
  database: { schema, namespace: "notes", adapter: databaseFromEnv() },
  routes: [route({ method: "GET", path: "/", handler: () => ({ greeting }) })],
});
`;

/**
 * Runs \`<command…> serve app.ts\` in \`cwd\` (a runtime and the installed bin, or bunx); once it
 * prints its routes, requests a route and an unmatched path, then stops it with SIGTERM.
 */
async function serveAndRequest(command: string[], cwd: string): Promise<string> {
  const [program, ...args] = command;
  const serveArgs = ["serve", "app.ts", "--port", "0", "--host", "127.0.0.1"];
  const child = spawn(program, [...args, ...serveArgs], {
    cwd,
    env: quiet,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      stdout += `${line}\n`;
      if (line === "Press Ctrl-C to stop.") ready();
    });
    exited.then((code) => fail(new Error(`serve exited with ${code}: ${stdout}${stderr}`)));
  });
  const url = /^Server running on (\S+)$/m.exec(stdout)![1];
  const ok = await fetch(`${url}/api/notes`);
  assert.deepEqual(await ok.json(), { greeting: "hello from TypeScript" });
  const missing = await fetch(`${url}/elsewhere`);
  assert.equal(missing.status, 404);
  assert.deepEqual((await missing.json()).availableRoutes, ["/api/notes"]);
  child.kill("SIGTERM");
  // Deno's child_process reports a child that exits by itself on SIGTERM as killed (code null),
  // so the graceful shutdown is checked by its last line.
  await exited;
  assert.match(stdout, /^Server stopped$/m, stderr);
  return stdout;
}

describe("npm package", () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), "fragment-cli-npm-"));
    execFileSync(process.execPath, ["task", "build:npm"], { cwd: root, stdio: "pipe", env: quiet });
    execFileSync("npm", ["pack", "--pack-destination", scratch, "./npm"], {
      cwd: root,
      stdio: "pipe",
      env: quiet,
    });
    const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
    assert.ok(tarball, "npm pack wrote no tarball");
    writeFileSync(join(scratch, "package.json"), '{"name":"scratch","private":true}');
    // The optional peers (the frameworks of ./react, ./vue, ./solid) too, as an app using those
    // bindings has them: each subpath is imported below.
    const peers = Object.entries(
      JSON.parse(readFileSync(join(root, "npm/package.json"), "utf8")).peerDependencies ?? {},
    ).map(([name, range]) => `${name}@${range}`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", `./${tarball}`, ...peers], {
      cwd: scratch,
      stdio: "pipe",
      env: quiet,
    });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const slow = { timeout: 180_000 };

  it("installs a fragment-cli bin that runs on Node 20", () => {
    const out = execFileSync(
      "node",
      [join(scratch, "node_modules/.bin/fragment-cli"), "--version"],
      {
        encoding: "utf8",
        env: quiet,
      },
    );
    assert.equal(out.trim(), `fragment-cli ${version}`);
  });

  it("runs the same bin on Bun", () => {
    const bin = join(scratch, "node_modules/fragment-cli/bin/fragment-cli.js");
    const out = execFileSync("npx", ["-y", "bun@1", bin, "--version"], {
      encoding: "utf8",
      env: quiet,
    });
    assert.equal(out.trim(), `fragment-cli ${version}`);
  });

  it("ships the library entry with types", () => {
    const pkg = JSON.parse(
      readFileSync(join(scratch, "node_modules/fragment-cli/package.json"), "utf8"),
    );
    assert.equal(pkg.name, "fragment-cli");
    assert.equal(pkg.bin["fragment-cli"], "./bin/fragment-cli.js");
    const out = execFileSync(
      "node",
      ["--input-type=module", "-e", 'import("fragment-cli").then((m) => console.log(m.VERSION))'],
      { cwd: scratch, encoding: "utf8", env: quiet },
    );
    assert.equal(out.trim(), version);
  });
  it("exposes deno.json's subpath entries, each importable under Node with its types", () => {
    const installed = join(scratch, "node_modules/fragment-cli");
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    const denoExports = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).exports;
    assert.deepEqual(Object.keys(pkg.exports).sort(), Object.keys(denoExports).sort());
    for (const [subpath, target] of Object.entries(pkg.exports) as [string, { types: string }][]) {
      assert.ok(readFileSync(join(installed, target.types), "utf8").length > 0, subpath);
      if (subpath === "./cli") continue; // runs the command when imported
      const specifier = `fragment-cli${subpath.slice(1)}`;
      const out = execFileSync(
        "node",
        [
          "--input-type=module",
          "-e",
          `import(${JSON.stringify(specifier)}).then((m) => console.log(Object.keys(m).length))`,
        ],
        { cwd: scratch, encoding: "utf8", env: quiet },
      );
      assert.ok(Number(out.trim()) > 0, `${specifier} exports nothing`);
    }
  });

  it("ships fragment-cli/client with types, importing nothing but its own files", () => {
    const installed = join(scratch, "node_modules/fragment-cli");
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    assert.deepEqual(pkg.exports["./client"], {
      types: "./esm/src/client/mod.d.ts",
      import: "./esm/src/client/mod.js",
    });
    assert.match(
      readFileSync(join(installed, "esm/src/client/mod.d.ts"), "utf8"),
      /createAuthClient/,
    );
    // The emitted JavaScript imports its own files and the generated route table only (the
    // operations' methods and paths, not the declarations: their zod schemas stay out of a
    // browser bundle); never hono, zod, a driver or a built-in.
    const clientDir = join(installed, "esm/src/client");
    for (const file of readdirSync(clientDir).filter((name) => name.endsWith(".js"))) {
      // Comments dropped: the JSDoc examples show `import … from "@app/fragment-cli/client"`.
      const code = readFileSync(join(clientDir, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)]
        .map((match) => match[1]);
      for (const specifier of specifiers) {
        assert.match(
          specifier,
          /^(\.\/[a-z_]+|\.\.\/\.\.\/generated\/client_routes)\.js$/,
          `${file} imports ${specifier}`,
        );
      }
    }
    const out = execFileSync(
      "node",
      [
        "--input-type=module",
        "-e",
        'import("fragment-cli/client").then((m) => console.log(typeof m.createAuthClient({ baseUrl: "/api/auth" }).me))',
      ],
      { cwd: scratch, encoding: "utf8", env: quiet },
    );
    assert.equal(out.trim(), "function");
  });
  it("searches the docs it ships when the site is unreachable, as the source checkout does", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const env = { ...quiet, FRAGMENT_CLI_SEARCH_URL: dead };
    const args = ["search", "durable hooks", "--json"];
    const bin = join(scratch, "node_modules/fragment-cli/bin/fragment-cli.js");
    const fromCheckout = spawnSync(process.execPath, ["run", "-A", "cli.ts", ...args], {
      cwd: root,
      encoding: "utf8",
      env,
    });
    assert.equal(fromCheckout.status, 0, fromCheckout.stderr);
    const expected = JSON.parse(fromCheckout.stdout);
    assert.ok(expected.length > 0);
    for (const runtime of ["node", bunExecutable()]) {
      const installed = spawnSync(runtime, [bin, ...args], { cwd: scratch, encoding: "utf8", env });
      assert.equal(installed.status, 0, installed.stderr);
      assert.match(installed.stderr, /searching the docs bundled with fragment-cli/);
      assert.deepEqual(JSON.parse(installed.stdout), expected, runtime);
    }
  });

  it(
    "runs db info and serve on a user's TypeScript file under Node 20 (through jiti)",
    slow,
    async () => {
      const cwd = join(scratch, "node-app");
      mkdirSync(cwd);
      writeFileSync(join(cwd, "app.ts"), USER_APP);
      const bin = join(scratch, "node_modules/.bin/fragment-cli");
      const info = execFileSync("node", [bin, "db", "info", "app.ts"], {
        cwd,
        encoding: "utf8",
        env: quiet,
      });
      assert.match(info, /^notes +notes +1 +0 +1 +1 pending$/m);
      // On a PostgreSQL server: postgres.js is loaded on first use, so this proves the package
      // declares it (the PGlite runs above never load it). Read-only: nothing is migrated.
      const onServer = execFileSync("node", [bin, "db", "info", "app.ts", "--json"], {
        cwd,
        encoding: "utf8",
        env: { ...quiet, DATABASE_URL: ADMIN_URL },
      });
      assert.match(JSON.parse(onServer).namespaces[0].database, /^PostgreSQL postgres:\/\//);
      const out = await serveAndRequest(["node", bin], cwd);
      assert.match(out, /^Found 1 module in app\.ts: notes$/m);
      assert.match(out, /^ {2}notes \[notes\]: version 0 → 1 /m);
      assert.match(out, /^ {4}GET \/api\/notes$/m);
    },
  );

  it("runs db info and serve on the same file under Bun", slow, async () => {
    const cwd = join(scratch, "bun-app");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "app.ts"), USER_APP);
    const bun = bunExecutable();
    const bin = join(scratch, "node_modules/fragment-cli/bin/fragment-cli.js");
    const info = execFileSync(bun, [bin, "db", "info", "app.ts", "--json"], {
      cwd,
      encoding: "utf8",
      env: quiet,
    });
    assert.deepEqual(JSON.parse(info).namespaces.map((r: { status: string }) => r.status), [
      "pending",
    ]);
    const out = await serveAndRequest([bun, bin], cwd);
    assert.match(out, /^Applying migrations to PGlite \.\/\.data\/pglite:$/m);
  });

  it(
    "bunx fragment-cli runs on Bun (the bin's shebang names Node), npx fragment-cli on Node",
    slow,
    async () => {
      const cwd = join(scratch, "bunx-app");
      mkdirSync(cwd);
      writeFileSync(join(cwd, "app.ts"), USER_APP);
      writeFileSync(join(cwd, "probe.ts"), RUNTIME_PROBE);
      const bun = bunExecutable();
      // A user's shell: none of the npm_* variables npx set for this test's process (unset with
      // env(1): Deno's child_process adds the parent's variables to a given `env`).
      const unset = Object.keys(process.env).filter((key) => key.startsWith("npm_"));
      const inShell = (
        command: string[],
      ) => ["env", ...unset.flatMap((k) => ["-u", k]), ...command];
      const run = (command: string[]) => {
        const [program, ...args] = inShell(command);
        return execFileSync(program, args, { cwd, encoding: "utf8", env: quiet });
      };
      assert.match(run([bun, "x", "fragment-cli", "db", "info", "probe.ts"]), /^on-bun +- /m);
      assert.match(run(["npx", "fragment-cli", "db", "info", "probe.ts"]), /^on-node +- /m);
      // bunx inside an npm script keeps npm's npm_execpath: the bin finds `bun` on the PATH.
      const path = join(scratch, "bun-on-path");
      mkdirSync(path);
      symlinkSync(bun, join(path, "bun"));
      const inNpmScript = {
        ...quiet,
        npm_config_user_agent: "npm/10.9.0 node/v20.19.0 linux x64 workspaces/false",
        npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
        PATH: `${path}${delimiter}${process.env.PATH}`,
      };
      assert.match(
        execFileSync(bun, ["x", "fragment-cli", "db", "info", "probe.ts"], {
          cwd,
          encoding: "utf8",
          env: inNpmScript,
        }),
        /^on-bun +- /m,
      );
      // The hand-over keeps exit codes and passes SIGTERM on: serve stops gracefully.
      const [env, ...refusedArgs] = inShell([bun, "x", "fragment-cli", "frobnicate"]);
      const refused = spawnSync(env, refusedArgs, { cwd, env: quiet });
      assert.equal(refused.status, 2);
      const out = await serveAndRequest(inShell([bun, "x", "fragment-cli"]), cwd);
      assert.match(out, /^Applying migrations to PGlite \.\/\.data\/pglite:$/m);
    },
  );
});

/** A user's file whose module is named after the runtime that imports it. */
const RUNTIME_PROBE = `import { createModule } from "fragment-cli";

export const probe = createModule({
  name: typeof (globalThis as { Bun?: unknown }).Bun === "undefined" ? "on-node" : "on-bun",
  routes: [],
});
`;

let bun: string | undefined;
/** The path of Bun's executable (from npm, as everywhere in the tests). */
function bunExecutable(): string {
  bun ??= execFileSync("npx", ["-y", "bun@1", "-e", "console.log(process.execPath)"], {
    encoding: "utf8",
    env: quiet,
  }).trim();
  return bun;
}
