// Every docs/examples/*.ts is a program that asserts what it shows. This file runs each one as a
// child process on the runtime the suite runs on (Deno, Node ≥ 22 or Bun), on an in-memory PGlite
// and on a fresh PostgreSQL database (DATABASE_URL), and fails when one exits non-zero. Deno's
// type check of the examples is `deno task check` (`deno check docs/examples/`).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { childEnv } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters } from "../helpers/databases.ts";
import { runScript } from "../helpers/spawn_runtime.ts";

const root = new URL("../../", import.meta.url);
const examplesDir = new URL("docs/examples/", root);
const examples = readdirSync(examplesDir).filter((name) => name.endsWith(".ts")).sort();
const read = (path: string | URL): string => readFileSync(path, "utf8");

/** Runs one example to completion; `databaseUrl` unset means the example's in-memory PGlite. */
async function runExample(name: string, databaseUrl?: string): Promise<void> {
  const env = childEnv(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  const result = await runScript(fileURLToPath(new URL(name, examplesDir)), [], {
    cwd: fileURLToPath(root),
    env,
  });
  assert.equal(
    result.code,
    0,
    `docs/examples/${name} exited with ${result.code ?? result.signal}:\n${result.stderr}`,
  );
}

describe("docs/examples", () => {
  it("holds examples", () => {
    assert.ok(examples.length >= 8, examples.join(", "));
  });

  for (const adapter of enabledAdapters()) {
    describe(adapter, () => {
      for (const name of examples) {
        it(`${name} runs and its assertions hold`, { timeout: 120_000 }, async () => {
          if (adapter === "pglite") return await runExample(name);
          const database = await createTestDatabase();
          try {
            await runExample(name, database.url);
          } finally {
            await database.drop();
          }
        });
      }
    });
  }

  it("import the package by its published name, never its source files", () => {
    for (const name of examples) {
      const specifiers = [...read(new URL(name, examplesDir)).matchAll(/\bfrom\s+"([^"]+)"/g)]
        .map((match) => match[1]);
      for (const specifier of specifiers) {
        // Another example (a shared schema) is fine; a path into the package is not.
        const allowed = /^(@app\/fragment-cli(\/[a-z-]+)?|node:[a-z/]+|\.\/[a-z_]+\.ts)$/;
        assert.match(specifier, allowed, `docs/examples/${name} imports ${specifier}`);
      }
    }
  });

  it("assert their outcome rather than print it", () => {
    for (const name of examples) {
      const source = read(new URL(name, examplesDir));
      assert.doesNotMatch(source, /\bconsole\.log\(/, `docs/examples/${name} prints`);
      // database_schema.ts is imported by two others; every example asserts something itself.
      assert.match(source, /^import assert from "node:assert\/strict";$/m, name);
      assert.match(source, /^\s*(await )?assert\.\w+\(/m, `docs/examples/${name} asserts nothing`);
    }
  });

  it("are each named by a docs page, and every example a page names exists", () => {
    const docs = readdirSync(new URL("docs/", root)).filter((name) => name.endsWith(".md"))
      .map((name) => read(new URL(`docs/${name}`, root))).join("\n");
    for (const name of examples) {
      assert.ok(docs.includes(`docs/examples/${name}`), `no page of docs/ shows ${name}`);
    }
    for (const [, name] of docs.matchAll(/docs\/examples\/([a-z_]+\.ts)/g)) {
      assert.ok(examples.includes(name), `docs/ names docs/examples/${name}, which does not exist`);
    }
  });

  it("resolve the package name the same way on every runtime", () => {
    // Deno resolves `@app/fragment-cli` from deno.json (name, exports); Node and Bun from
    // package.json's self-reference. Both must list the same entry points.
    const deno = JSON.parse(read(new URL("deno.json", root)));
    const pkg = JSON.parse(read(new URL("package.json", root)));
    assert.equal(pkg.name, deno.name);
    assert.deepEqual(pkg.exports, deno.exports);
  });
});
