/**
 * examples/spa/client.js is the bundle of src/client/ that `deno task spa:client` makes: the SPA
 * runs the client as the source says, not an older copy. Deno only (scripts/test.ts): it runs
 * `deno bundle`.
 */
import { it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { bundleSpaClient, SPA_CLIENT_FILE } from "../../scripts/build_spa_client.ts";

it("examples/spa/client.js is up to date (run deno task spa:client)", { timeout: 120_000 }, () => {
  const committed = readFileSync(SPA_CLIENT_FILE, "utf8");
  assert.ok(
    committed === bundleSpaClient(),
    "examples/spa/client.js is out of date: run `deno task spa:client` and commit the result",
  );
});
