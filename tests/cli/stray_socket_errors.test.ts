// `serve` survives the stray closed-socket rejection postgres.js can leave during a database
// outage (the database_outage reliability test saw a Deno serve process die of it), and still
// dies of any other unhandled rejection.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runScript } from "../helpers/spawn_runtime.ts";

const fixture = fileURLToPath(new URL("../fixtures/stray_rejection.ts", import.meta.url));

describe("serve's stray socket errors", () => {
  it("an unawaited EPIPE rejection is logged in one line, and the process goes on", async () => {
    const result = await runScript(fixture, ["EPIPE"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "alive");
    assert.match(result.stderr, /^warning: a database connection closed under a write \(EPIPE\)/);
  });

  it("an uncaught EPIPE exception is logged in one line, and the process goes on", async () => {
    const result = await runScript(fixture, ["throw", "EPIPE"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "alive");
    assert.match(result.stderr, /^warning: a database connection closed under a write \(EPIPE\)/);
  });

  it("any other unhandled rejection still ends the process", async () => {
    const result = await runScript(fixture, ["none"]);
    assert.notEqual(result.code, 0);
    assert.doesNotMatch(result.stdout, /alive/);
  });
});
