/**
 * Issue 19, point 3: a public API you can read in one screen. Every entry of deno.json's `exports`
 * names its symbols explicitly (no `export *`), the root entry has at most 80, every exported
 * symbol is documented with an `@example`, and `deno doc --lint` finds nothing on the entries
 * taken together (what JSR scores: a type one entry exports may be used by another). Deno only (it
 * reads `deno doc`).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

const root = resolve(import.meta.dirname ?? ".", "../..");
const exportsMap: Record<string, string> = JSON.parse(
  readFileSync(join(root, "deno.json"), "utf8"),
).exports;
const entries = Object.values(exportsMap);

interface DocSymbol {
  name: string;
  declarations: { jsDoc?: { doc?: string; tags?: { kind: string }[] } }[];
}

/** The symbols `deno doc` shows for one entry. */
function symbolsOf(entry: string): DocSymbol[] {
  const out = execFileSync(process.execPath, ["doc", "--json", entry], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const nodes = Object.values(JSON.parse(out).nodes) as { symbols?: DocSymbol[] }[];
  return nodes.flatMap((node) => node.symbols ?? []);
}

/** Every mod.ts of src/ and the root one. */
function modFiles(dir = join(root, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? modFiles(join(dir, entry.name))
      : entry.name === "mod.ts"
      ? [join(dir, entry.name)]
      : []
  );
}

describe("public API", () => {
  it("has the subpath entries of issue 19, in deno.json and package.json alike", () => {
    for (const subpath of [".", "./auth", "./messenger", "./hooks", "./sql", "./schema", "./cli"]) {
      assert.ok(subpath in exportsMap, subpath);
    }
    assert.ok("./client" in exportsMap);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.deepEqual(pkg.exports, exportsMap);
  });

  it("names every export: no `export *` in a mod.ts", () => {
    for (const file of [join(root, "mod.ts"), ...modFiles()]) {
      assert.doesNotMatch(readFileSync(file, "utf8"), /^export \* /m, file);
    }
  });

  it("keeps the root entry at 80 symbols or fewer", () => {
    const names = symbolsOf("mod.ts").map((symbol) => symbol.name);
    assert.ok(names.length > 20, `the root entry exports ${names.length} symbols`);
    assert.ok(names.length <= 80, `the root entry exports ${names.length} symbols: ${names}`);
  });

  it("documents every exported symbol of every entry with an example", () => {
    const missing: string[] = [];
    for (const entry of entries) {
      for (const symbol of symbolsOf(entry)) {
        const documented = symbol.declarations.some((declaration) =>
          declaration.jsDoc?.tags?.some((tag) => tag.kind === "example")
        );
        if (!documented) missing.push(`${entry}: ${symbol.name}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it("passes `deno doc --lint` on the entries together", () => {
    const result = spawnSync(process.execPath, ["doc", "--lint", ...entries], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(result.status, 0, result.stderr.slice(0, 20_000));
  });
});
