/**
 * Issue 22, point 4: `deno run -A jsr:@app/fragment-cli/cli …` downloads what the command needs
 * and nothing else. JSR is out of reach of the tests, so this checks what decides it: the module
 * graph Deno builds (static imports and dynamic imports written as literals, which Deno follows
 * and downloads ahead) from each entry point of the published package, and the publish
 * configuration. Dev-only packages (benchmarks, the docs site, tests, ORM outputs' validation)
 * must never be reached; each command reaches only the runtime packages it uses. Deno only (it
 * reads `deno info`).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname ?? ".", "../..");
const denoJson = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
/** The tasks' configuration (tests, benchmarks, the site): deno.json plus their packages. */
const devJson = JSON.parse(readFileSync(join(root, "deno.dev.json"), "utf8"));

/** Packages of deno.dev.json that only scripts/ and tests/ use. */
const DEV_ONLY = [
  "@opentelemetry/sdk-trace-base",
  "autocannon",
  "better-auth",
  "pg",
  "fast-check",
  "marked",
  "github-slugger",
  "drizzle-kit",
  "drizzle-orm",
  "@prisma/prisma-schema-wasm",
  "pg-boss",
  "graphile-worker",
  "oidc-provider",
  "jose",
  "@levischuck/tiny-cbor",
];
/**
 * What the library (mod.ts) needs: routing, validation, both database drivers, Node's server, the
 * OpenTelemetry API (its spans are no-ops until the application registers an SDK), the
 * OAuth 2 / OpenID Connect client of the auth module's sign-in providers, the WebAuthn verifier of
 * its passkeys and the TOTP library of its second factors.
 */
const LIBRARY = [
  "@electric-sql/pglite",
  "@hono/node-server",
  "@opentelemetry/api",
  "@simplewebauthn/server",
  "hono",
  "oauth4webapi",
  "otpauth",
  "postgres",
  "zod",
];

interface DenoInfo {
  roots: string[];
  redirects: Record<string, string>;
  modules: Array<{
    specifier: string;
    dependencies?: Array<{ code?: { specifier: string }; isDynamic?: boolean }>;
  }>;
}

/**
 * What the library loads before it runs anything: routing and validation. The database drivers, the
 * OpenTelemetry API, the OAuth client, the WebAuthn verifier and the TOTP library are imported on
 * first use, so a process on PostgreSQL never loads PGlite (nor postgres.js on PGlite), none loads
 * the OpenTelemetry API until an SDK is registered, none without sign-in providers loads the OAuth
 * client, none whose users never use a passkey loads the WebAuthn verifier, and none loads the TOTP
 * library before a TOTP code is made or checked.
 */
const LOADED_AT_IMPORT = ["hono", "zod"];

/**
 * The npm packages Deno loads or downloads when it runs `entry` (type-only imports left out);
 * with `staticOnly`, only those it loads before running it (dynamic imports left out too).
 */
function npmPackagesOf(entry: string, { staticOnly = false } = {}): string[] {
  const info: DenoInfo = JSON.parse(
    execFileSync(process.execPath, ["info", "--json", entry], { cwd: root, encoding: "utf8" }),
  );
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (specifier: string): void => {
    specifier = info.redirects[specifier] ?? specifier;
    const npm = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier);
    if (npm) return void packages.add(npm[1]);
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !(staticOnly && dependency.isDynamic)) {
        visit(dependency.code.specifier);
      }
    }
  };
  visit(pathToFileURL(join(root, entry)).href);
  assert.ok(seen.size > 1, `${entry}: the graph was not read`);
  return [...packages].sort();
}

describe("the import graph of the published package", () => {
  it("names every dev-only package in deno.dev.json (the list below stays true)", () => {
    for (const name of DEV_ONLY) assert.ok(devJson.imports[name], name);
  });

  it("cli.ts loads no npm package before a command runs", () => {
    assert.deepEqual(npmPackagesOf("cli.ts"), []);
  });

  it("mod.ts reaches only the library's runtime packages", () => {
    assert.deepEqual(npmPackagesOf("mod.ts"), LIBRARY);
  });

  for (const command of ["serve", "db_info", "db_migrate", "db_generate"]) {
    it(`${command.replace("_", " ")} reaches no package beyond the library's (no jiti on Deno)`, () => {
      const packages = npmPackagesOf(`src/cli/${command}_run.ts`);
      assert.deepEqual(packages.filter((p) => !LIBRARY.includes(p)), []);
    });
  }

  // Issue 23, point 6: `db info` on PostgreSQL and `serve` on PGlite start without loading what
  // they do not use; the user's file (mod.ts) loads no more than routing and validation either.
  for (const entry of ["mod.ts", "src/cli/db_info_run.ts", "src/cli/serve_run.ts"]) {
    it(`${entry} loads at most ${LOADED_AT_IMPORT.join(" and ")} at import (drivers, OpenTelemetry on first use)`, () => {
      const loaded = npmPackagesOf(entry, { staticOnly: true });
      assert.deepEqual(loaded.filter((p) => !LOADED_AT_IMPORT.includes(p)), [], entry);
    });
  }

  it("search reaches its index's packages only", () => {
    assert.deepEqual(npmPackagesOf("src/cli/search_run.ts"), ["minisearch", "zod"]);
  });

  it("no dev-only package anywhere, and the publish configuration leaves dev files out", () => {
    const entries = ["cli.ts", "mod.ts", "src/cli/serve_run.ts", "src/cli/db_generate_run.ts"];
    for (const entry of entries) {
      const dev = npmPackagesOf(entry).filter((p) => DEV_ONLY.includes(p));
      assert.deepEqual(dev, [], entry);
    }
    const excluded: string[] = denoJson.publish.exclude;
    for (const path of ["tests/", "scripts/", "examples/", "deno.lock"]) {
      assert.ok(excluded.includes(path), `publish.exclude lacks ${path}`);
    }
  });
});
