// The layering of src/ (docs/architecture.md draws it; this table is the source of truth): which
// folder may import which, no cycle between folders, `Deno.*` only in src/runtime/, the hook table
// named only by src/hooks/, and the browser client importing the auth module for types only.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { edgesOf, findCycle, mentions, readSources, violations } from "./source_graph.ts";

/** The folders below every other: anyone may import these. */
const EVERYONE = ["version"];
const BELOW_CORE = ["runtime", "sql", "schema", "migrate", "hooks", "pagination"];
const EVERY_SRC_FOLDER = [
  ...EVERYONE,
  ...BELOW_CORE,
  "core",
  "auth",
  "messenger",
  "client",
  "search",
  "cli",
];

/** Folder → the folders it may import (besides itself and {@link EVERYONE}). */
const ALLOWED: Record<string, readonly string[]> = {
  version: [],
  runtime: [],
  sql: [],
  schema: ["sql"],
  pagination: ["sql"],
  migrate: ["schema", "sql"],
  hooks: ["schema", "sql", "pagination", "runtime"],
  core: BELOW_CORE,
  // The two shipped modules: core and everything below it, never each other.
  auth: ["core", ...BELOW_CORE],
  messenger: ["core", ...BELOW_CORE],
  // Type-only (see the last test): the auth module's contract, the core's route and module types.
  client: ["auth", "core", "generated"],
  search: ["generated"],
  cli: [...EVERY_SRC_FOLDER, "generated"],
  // mod.ts and cli.ts, the root entries.
  root: [...EVERY_SRC_FOLDER, "generated"],
};
const ALLOWED_WITH_EVERYONE = Object.fromEntries(
  Object.entries(ALLOWED).map(([folder, to]) => [folder, [...EVERYONE, ...to]]),
);

const files = readSources();
const edges = edgesOf(files);

describe("the import rule of src/", () => {
  it("reads the whole tree", () => {
    // Guards against a vacuous pass: a scanner that found nothing would break no rule.
    assert.ok(files.length > 150, `${files.length} files`);
    assert.ok(edges.length > 500, `${edges.length} relative imports`);
    assert.ok(edges.some((e) => e.fromFolder === "cli" && e.toFolder === "core"));
  });

  it("places every folder of src/ in the table", () => {
    const folders = [...new Set(files.map((f) => f.folder))].sort();
    assert.deepEqual(folders, Object.keys(ALLOWED).sort());
    assert.deepEqual([...EVERY_SRC_FOLDER, "root"].sort(), folders);
  });

  it("marks no file internal with a `_` prefix (the folder's mod.ts says what is internal)", () => {
    assert.deepEqual(files.filter((f) => /(^|\/)_[^/]*$/.test(f.path)).map((f) => f.path), []);
  });

  it("imports only the folders each folder may import", () => {
    assert.deepEqual(violations(edges, ALLOWED_WITH_EVERYONE), []);
  });

  it("imports nothing missing (every relative import names an existing source)", () => {
    const known = new Set(files.map((f) => f.path));
    const missing = edges
      .filter((e) => e.toFolder !== "generated" && !known.has(e.to))
      .map((e) => `${e.from}:${e.line} → ${e.to}`);
    assert.deepEqual(missing, []);
  });

  it("has no cycle between folders", () => {
    assert.equal(findCycle(edges)?.join(" → "), undefined);
  });

  it("uses Deno.* only in src/runtime/", () => {
    const outside = files.filter((f) => f.folder !== "runtime");
    assert.deepEqual(mentions(outside, /(?<![\w$.])Deno\./), []);
  });

  it("names the hook table (HOOK_TABLE, hook_occurrences) only in src/hooks/: modules use its API", () => {
    const outside = files.filter((f) => f.folder !== "hooks");
    assert.deepEqual(mentions(outside, /HOOK_TABLE|hook_occurrences/), []);
  });

  it("imports src/auth/ and src/core/ from src/client/ for types only (paths come from generated/client_routes.ts and the calls' route keys)", () => {
    for (const server of ["auth", "core"]) {
      const runtime = edges
        .filter((e) => e.fromFolder === "client" && e.toFolder === server && !e.typeOnly)
        .map((e) => `${e.from}:${e.line} → ${e.to}`);
      assert.deepEqual(runtime, [], server);
      assert.ok(edges.some((e) => e.fromFolder === "client" && e.toFolder === server), server);
    }
  });
});
