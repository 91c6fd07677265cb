/**
 * `fragment-cli openapi <file> [-o path]` as a process: the merged OpenAPI 3.1 document of the
 * example app's modules, on stdout or in a file, without a database (DATABASE_URL points at a port
 * where nothing listens, so any attempt to connect would fail the test), and its usage errors.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validate } from "@readme/openapi-parser";
import { cliFixture, runCli, tempDir } from "../helpers/cli_process.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const unreachable = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/nothing_listens_here" };
const slow = { timeout: 120_000 };

describe("fragment-cli openapi", () => {
  const dir = tempDir();
  after(() => dir.remove());
  const cli = (args: string[]) => runCli(args, { cwd: dir.path, env: unreachable });

  it(
    "prints the merged document of every module of the file, valid OpenAPI 3.1",
    slow,
    async () => {
      const result = await cli(["openapi", app]);
      assert.equal(result.code, 0, result.stderr);
      const document = JSON.parse(result.stdout);
      assert.equal(document.openapi, "3.1.0");
      const validation = await validate(structuredClone(document));
      assert.equal(validation.valid, true, JSON.stringify(validation));
      const paths = Object.keys(document.paths);
      assert.ok(paths.every((p) => p.startsWith("/api/auth/") || p.startsWith("/api/messenger/")));
      for (
        const [path, method] of [
          ["/api/auth/sign-up", "post"],
          ["/api/auth/sign-in/email-link", "post"],
          ["/api/auth/sign-in/email-link/verify", "post"],
          ["/api/auth/organizations/{organizationId}/members/{memberId}", "patch"],
          ["/api/auth/organizations/{organizationId}/audit-log", "get"],
          ["/api/auth/organizations/{organizationId}/transfer-ownership", "post"],
          ["/api/auth/openapi.json", "get"],
          ["/api/messenger/messenger/webhook", "post"],
          ["/api/messenger/openapi.json", "get"],
        ]
      ) assert.ok(document.paths[path]?.[method], `${method} ${path}`);
      assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), [
        "bearerToken",
        "sessionCookie",
        "webhookSecret",
      ]);
    },
  );

  it("-o writes the document in a file (creating its directory)", slow, async () => {
    const result = await cli(["openapi", app, "-o", "docs/api/openapi.json"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^✓ Wrote docs\/api\/openapi\.json: \d+ operations of 2 modules \(auth, messenger\)\n$/,
    );
    const document = JSON.parse(readFileSync(join(dir.path, "docs/api/openapi.json"), "utf8"));
    assert.ok(document.paths["/api/auth/me"].get);
  });

  it("usage errors exit 2: no file, two files, a directory as --output", slow, async () => {
    mkdirSync(join(dir.path, "out"), { recursive: true });
    for (
      const [args, message] of [
        [["openapi"], /missing <file>/],
        [["openapi", app, app], /expected one <file>/],
        [["openapi", app, "-o", "out"], /--output out is a directory/],
        [["openapi", app, "--format", "yaml"], /--format/],
      ] as const
    ) {
      const result = await cli([...args]);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, "");
    }
  });

  it("a file that fails to import exits 1 with its reason", slow, async () => {
    const result = await cli(["openapi", cliFixture("broken.ts")]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /broken\.ts/);
  });
});
