/**
 * Issue 22, point 4: serving or migrating a user's file under Deno leaves the user's files as they
 * were, `deno.lock` included, byte for byte. Deno writes into the lockfile of the config it found
 * (the user's) every package a dynamic import brings in: the CLI's command modules must bring in
 * nothing the user's own `import "@app/fragment-cli"` did not already lock.
 *
 * The package is laid out inside a scratch project (as `deno run jsr:@app/fragment-cli/cli` uses
 * the user's deno.json and deno.lock), and the project's own graph is locked first with
 * `deno cache app.ts`, as running the app would. Deno only (it tests Deno's lockfile).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { childEnv, runCli, startServe, tempDir } from "../helpers/cli_process.ts";

const root = resolve(import.meta.dirname ?? ".", "../..");
const USER_FILES = ["deno.json", "deno.lock", "app.ts"];

const APP =
  `import { column, createModule, databaseFromEnv, defineSchema, route } from "@app/fragment-cli";

const schema = defineSchema("notes", (s) =>
  s.createTable("notes", { id: column.integer().primaryKey(), body: column.text() }));

export const notes = createModule({
  name: "notes",
  database: { schema, namespace: "notes", adapter: databaseFromEnv() },
  routes: [route({ method: "GET", path: "/", handler: () => ({ ok: true }) })],
});
`;

describe("the user's deno.lock", () => {
  const project = tempDir("fragment-cli-lock-");
  const cwd = project.path;
  const cli = join(cwd, "vendor/fragment-cli/cli.ts");
  let before_: Map<string, Buffer>;
  const slow = { timeout: 180_000 };

  before(() => {
    const vendor = join(cwd, "vendor/fragment-cli");
    mkdirSync(vendor, { recursive: true });
    for (const entry of ["mod.ts", "cli.ts", "src"]) {
      cpSync(join(root, entry), join(vendor, entry), { recursive: true });
    }
    const { imports } = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
    const config = { imports: { "@app/fragment-cli": "./vendor/fragment-cli/mod.ts", ...imports } };
    writeFileSync(join(cwd, "deno.json"), `${JSON.stringify(config, null, 2)}\n`);
    writeFileSync(join(cwd, "app.ts"), APP);
    execFileSync(process.execPath, ["cache", "--quiet", "app.ts"], { cwd, env: childEnv() });
    before_ = new Map(USER_FILES.map((f) => [f, readFileSync(join(cwd, f))]));
  }, slow);
  after(() => project.remove());

  function assertUntouched(after: string): void {
    for (const [file, bytes] of before_) {
      assert.ok(readFileSync(join(cwd, file)).equals(bytes), `${after} changed ${file}`);
    }
  }

  it("is left as it was by db info, db migrate and serve", slow, async () => {
    const info = await runCli(["db", "info", "app.ts"], { cwd, cli });
    assert.equal(info.code, 0, info.stderr);
    assertUntouched("db info");
    const migrate = await runCli(["db", "migrate", "app.ts"], { cwd, cli });
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.match(migrate.stdout, /version 0 → 1/);
    assertUntouched("db migrate");
    const server = await startServe(["app.ts", "--port", "0", "--host", "127.0.0.1"], {
      cwd,
      cli,
    });
    try {
      const response = await fetch(`${server.url}/api/notes/`);
      assert.deepEqual(await response.json(), { ok: true });
    } finally {
      await server.stop();
    }
    assertUntouched("serve");
  });
});
