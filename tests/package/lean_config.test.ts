/**
 * Issue 29, point 7: a fresh clone's `deno task start` fetches only what serving needs. `deno task`
 * installs every npm package of the lockfile of deno.json before it runs a task, so deno.json and
 * deno.lock hold only the package's own runtime packages; tests, benchmarks and the site take
 * theirs from deno.dev.json and deno.dev.lock (the tasks pass `--config deno.dev.json`). These
 * checks keep the two in step: the same package identity, the same runtime packages at the same
 * resolved versions, and nothing else in the lean pair.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname ?? ".", "../..");
const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));
const deno = read("deno.json");
const dev = read("deno.dev.json");

/**
 * What `serve`, `db …` and `search` import, on any runtime (jiti: Node without type stripping;
 * oauth4webapi: the auth module's sign-in providers, on their first use; @simplewebauthn/server:
 * its passkeys, on their first use; otpauth: its TOTP, on first use), and nanostores, the one
 * package of the browser store (`./client/store`: no dependency of its own).
 */
const RUNTIME_PACKAGES = [
  "@electric-sql/pglite",
  "@hono/node-server",
  "@opentelemetry/api",
  "@simplewebauthn/server",
  "hono",
  "jiti",
  "minisearch",
  "nanostores",
  "oauth4webapi",
  "otpauth",
  "postgres",
  "zod",
];

/** The npm packages of a lockfile (name@version, transitive ones included). */
function lockedPackages(file: string): string[] {
  return Object.keys(read(file).npm ?? {}).sort();
}

describe("deno.json stays lean (issue 29, point 7)", () => {
  it("imports only the runtime packages", () => {
    assert.deepEqual(Object.keys(deno.imports).sort(), RUNTIME_PACKAGES);
  });

  // @simplewebauthn/server brings 24 packages of its own (the ASN.1 and X.509 parsers of
  // attestation statements), fetched on a fresh clone but loaded only with the first passkey.
  it("locks at most 40 npm packages, each at deno.dev.lock's version", () => {
    const lean = lockedPackages("deno.lock");
    assert.ok(lean.length <= 40, `deno.lock holds ${lean.length} npm packages`);
    const full = new Set(lockedPackages("deno.dev.lock"));
    for (const entry of lean) assert.ok(full.has(entry), `${entry} differs in deno.dev.lock`);
  });

  it("deno.dev.json is deno.json's package plus the tasks' packages", () => {
    assert.equal(dev.name, deno.name);
    assert.equal(dev.version, deno.version);
    assert.deepEqual(dev.exports, deno.exports);
    assert.equal(dev.lock, "deno.dev.lock");
    for (const [name, specifier] of Object.entries(deno.imports)) {
      assert.equal(dev.imports[name], specifier, name);
    }
  });

  it("every task that loads a dev package runs with deno.dev.json", () => {
    for (const task of ["test", "test:reliability", "bench", "site", "docs:index", "build:npm"]) {
      assert.match(deno.tasks[task], /--config deno\.dev\.json /, task);
    }
    assert.doesNotMatch(deno.tasks.start, /deno\.dev\.json/);
  });
});
