// The shape of src/ a newcomer relies on: no import cycle between files, no file over 450 lines
// of code, the auth module's root kept small (its files live in concept folders), and every
// route path written in one file (the declaration of its operation, whose type repeats it as a
// literal the value must match), never in the client (its generated copy of the route keys,
// generated/client_routes.ts, is outside src/ and checked against the declarations by
// tests/client/client_routes.test.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { auth, messenger, pgliteAdapter } from "../../mod.ts";
import { edgesOf, findFileCycle, linesOfCode, readSources } from "./source_graph.ts";

const MAX_LINES_OF_CODE = 450;
/** Files over the limit while they are being split (each with the issue that splits it). */
const TEMPORARY_EXCEPTIONS: readonly string[] = [];

const files = readSources();

describe("the shape of src/", () => {
  it("has no import cycle between files (type-only imports included)", () => {
    assert.equal(findFileCycle(edgesOf(files))?.join(" → "), undefined);
  });

  it(`has no file over ${MAX_LINES_OF_CODE} lines of code (comments and blank lines aside)`, () => {
    const over = files
      .map((file) => ({ path: file.path, lines: linesOfCode(file.withoutComments) }))
      .filter((file) => file.lines > MAX_LINES_OF_CODE && !TEMPORARY_EXCEPTIONS.includes(file.path))
      .map((file) => `${file.path}: ${file.lines}`);
    assert.deepEqual(over, []);
    assert.ok(files.some((f) => linesOfCode(f.withoutComments) > 300), "counts real files");
  });

  it("keeps at most 12 files at the root of src/auth/ (the rest in concept folders)", () => {
    const root = files.filter((f) => /^src\/auth\/[^/]+\.ts$/.test(f.path)).map((f) => f.path);
    assert.ok(root.length <= 12, root.join("\n"));
    assert.ok(root.includes("src/auth/mod.ts"));
  });

  it("writes each route path once in src/ (its declaration), none in src/client/", () => {
    const database = pgliteAdapter();
    const modules = [
      auth({ database, autoStart: false }),
      messenger({
        database,
        webhookSecret: "s3cret-token",
        secret: "x".repeat(32),
        autoStart: false,
      }),
    ];
    const paths = new Set(
      modules.flatMap((module) =>
        module.routes.map((route) => route.path.slice(module.mountRoute.length))
      ),
    );
    assert.ok(paths.size > 15 && paths.has("/organizations/:organizationId/members"));
    const problems: string[] = [];
    for (const path of paths) {
      const literal = new RegExp(`["'\`]${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}["'\`]`);
      const holders = files.filter((f) => literal.test(f.withoutComments)).map((f) => f.path);
      if (holders.length !== 1) problems.push(`${path}: ${holders.join(", ") || "nowhere"}`);
      if (holders.some((p) => p.startsWith("src/client/"))) problems.push(`${path}: in the client`);
    }
    assert.deepEqual(problems, []);
  });
});
