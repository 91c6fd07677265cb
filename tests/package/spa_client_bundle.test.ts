/**
 * examples/spa/client.js is the bundle of src/client/ that `deno task spa:client` makes: the SPA
 * runs the client as the source says, not an older copy; examples/spa/qr.js is the same task's
 * bundle of the QR code renderer (uqr, at deno.dev.lock's version). Deno only (scripts/test.ts): it
 * runs `deno bundle`.
 */
import { it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  bundleSpaClient,
  bundleSpaQr,
  SPA_CLIENT_FILE,
  SPA_QR_FILE,
} from "../../scripts/build_spa_client.ts";

it("examples/spa/client.js is up to date (run deno task spa:client)", { timeout: 120_000 }, () => {
  const committed = readFileSync(SPA_CLIENT_FILE, "utf8");
  assert.ok(
    committed === bundleSpaClient(),
    "examples/spa/client.js is out of date: run `deno task spa:client` and commit the result",
  );
});

it("examples/spa/qr.js is up to date (run deno task spa:client)", { timeout: 120_000 }, () => {
  const committed = readFileSync(SPA_QR_FILE, "utf8");
  assert.ok(
    committed === bundleSpaQr(),
    "examples/spa/qr.js is out of date: run `deno task spa:client` and commit the result",
  );
});
