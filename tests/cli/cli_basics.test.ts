import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runScript } from "../helpers/spawn_runtime.ts";
import { VERSION } from "../../mod.ts";

const cli = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const denoJson = JSON.parse(readFileSync(new URL("../../deno.json", import.meta.url), "utf8"));

describe("fragment-cli basics", () => {
  it("--version prints the version of deno.json", async () => {
    assert.equal(VERSION, denoJson.version);
    const result = await runScript(cli, ["--version"]);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `fragment-cli ${VERSION}\n`);
  });

  it("--help lists the usage and global options on stdout", async () => {
    const result = await runScript(cli, ["--help"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: fragment-cli <command> \[options\]/);
    assert.match(result.stdout, /--version/);
    assert.equal(result.stderr, "");
  });

  it("an unknown command exits 2 with one reason line and the usage", async () => {
    const result = await runScript(cli, ["frobnicate"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    const lines = result.stderr.trim().split("\n");
    assert.match(lines[0], /^error: unknown command "frobnicate"/);
    assert.match(lines[1], /^Usage: fragment-cli/);
  });
});
