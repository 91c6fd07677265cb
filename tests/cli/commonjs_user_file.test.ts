// Issue 22, point 4: a user's `.ts` file with import/export in a project whose package.json says
// `"type": "commonjs"`. Node ≥ 22.18 strips the types but loads the file as CommonJS, and its own
// error is a bare SyntaxError; the CLI names the cause and the fix (exit 1, as every file that
// fails to import). Deno and Bun load such a `.ts` file as an ES module: it just works there.
// A `.cts` file is CommonJS everywhere.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runCli, tempDir } from "../helpers/cli_process.ts";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

const MOD = pathToFileURL(join(import.meta.dirname ?? ".", "../../mod.ts")).href;
const APP = `import { createModule, route } from "${MOD}";

const greeting: string = "hello";
export const ping = createModule({
  name: "ping",
  routes: [route({ method: "GET", path: "/", handler: () => ({ greeting }) })],
});
`;

describe("a user's ES module in a CommonJS package", () => {
  const project = tempDir("fragment-cli-commonjs-");
  const cwd = project.path;
  before(() => {
    writeFileSync(join(cwd, "package.json"), '{ "name": "user-app", "type": "commonjs" }\n');
    writeFileSync(join(cwd, "app.ts"), APP);
    writeFileSync(join(cwd, "app.cts"), APP);
    writeFileSync(join(cwd, "app.mts"), APP);
  });
  after(() => project.remove());

  it(`app.ts: ${RUNTIME === "node" ? "the cause and the fix" : "loads"}`, async () => {
    const result = await runCli(["db", "info", "app.ts"], { cwd });
    if (RUNTIME === "node") {
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(
        result.stderr,
        /^error: app\.ts: this file is loaded as CommonJS \("type": "commonjs" in package\.json\), but it uses import\/export: rename it to app\.mts, or set "type": "module" in package\.json$/m,
      );
    } else {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^ping +- +- +- +- +no database$/m);
    }
  });

  it("app.mts, the fix, loads everywhere", async () => {
    const result = await runCli(["db", "info", "app.mts"], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ping +- +- +- +- +no database$/m);
  });

  it(`app.cts: ${RUNTIME === "bun" ? "loads" : "CommonJS by its extension"}`, async () => {
    const result = await runCli(["db", "info", "app.cts"], { cwd });
    if (RUNTIME === "bun") {
      // Bun evaluates import/export in a .cts file as a module; Node and Deno do not.
      assert.equal(result.code, 0, result.stderr);
      return;
    }
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /^error: app\.cts: \.cts files are CommonJS, but this one uses import\/export: rename it to app\.mts$/m,
    );
  });
});
