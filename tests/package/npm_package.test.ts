/**
 * Builds the npm package, packs it with `npm pack`, installs the tarball into a scratch folder
 * and runs its `fragment-cli` bin with the machine's Node and with Bun. Runs under Deno only
 * (scripts/test.ts), since it drives Node and Bun itself.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";

const root = resolve(import.meta.dirname ?? ".", "../..");
const version = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).version;
const quiet = { ...process.env, npm_config_loglevel: "error", NO_COLOR: "1" };

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
    execFileSync("npm", ["install", "--no-audit", "--no-fund", `./${tarball}`], {
      cwd: scratch,
      stdio: "pipe",
      env: quiet,
    });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

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
});
