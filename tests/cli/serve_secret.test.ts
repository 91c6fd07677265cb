/**
 * The deployment secret of `fragment-cli serve`: on the embedded database it generates one, keeps
 * it in `.data/fragment-secret` (mode 0600) and reuses it at the next start, handing it to the
 * user's modules as FRAGMENT_SECRET before they are imported; a FRAGMENT_SECRET from the
 * environment wins; on PostgreSQL without one it warns loudly.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { cliFixture, type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";

const notes = cliFixture("notes_app.ts");
const probe = cliFixture("secret_probe.ts");
const local = ["--port", "0", "--host", "127.0.0.1"];
const slow = { timeout: 120_000 };
/** Empty is unset: the tests must not inherit a FRAGMENT_SECRET of the machine running them. */
const NO_SECRET = { FRAGMENT_SECRET: "" };

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The SHA-256 of the FRAGMENT_SECRET the probe module saw at import. */
async function seenSecret(server: ServeProcess): Promise<string> {
  const response = await fetch(`${server.url}/api/secret-probe`);
  return ((await response.json()) as { sha256: string }).sha256;
}

async function serveOnce<T>(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
  fn: (server: ServeProcess) => Promise<T>,
): Promise<T> {
  const server = await startServe([...args, ...local], options);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

describe("fragment-cli serve on PGlite: the generated secret", () => {
  const dir = tempDir();
  const file = join(dir.path, ".data", "fragment-secret");
  after(() => dir.remove());

  it(
    "generates one at the first start, keeps it in .data/ (0600), hands it to the modules",
    slow,
    async () => {
      await serveOnce([notes, probe], { cwd: dir.path, env: NO_SECRET }, async (server) => {
        assert.match(
          server.stdout(),
          /^Generated FRAGMENT_SECRET in \.data\/fragment-secret \(reused at the next start; /m,
        );
        assert.doesNotMatch(server.stderr(), /warning/i);
        const secret = readFileSync(file, "utf8").trim();
        assert.ok(secret.length >= 32, secret);
        if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o600);
        assert.equal(await seenSecret(server), sha256(secret));
      });
    },
  );

  it("reuses it at the next start, without a word", slow, async () => {
    const before = readFileSync(file, "utf8");
    await serveOnce([notes, probe], { cwd: dir.path, env: NO_SECRET }, async (server) => {
      assert.doesNotMatch(server.stdout(), /Generated FRAGMENT_SECRET/);
      assert.equal(await seenSecret(server), sha256(before.trim()));
    });
    assert.equal(readFileSync(file, "utf8"), before);
  });

  it("prefers FRAGMENT_SECRET from the environment, and leaves the file alone", slow, async () => {
    const before = readFileSync(file, "utf8");
    const configured = "a deployment secret from the environment, 32+";
    const env = { FRAGMENT_SECRET: configured };
    await serveOnce([notes, probe], { cwd: dir.path, env }, async (server) => {
      assert.equal(await seenSecret(server), sha256(configured));
    });
    assert.equal(readFileSync(file, "utf8"), before);
  });
});

describe(
  "fragment-cli serve on PostgreSQL without FRAGMENT_SECRET",
  { skip: !enabledAdapters().includes("postgres") },
  () => {
    let database: TestDatabase;
    const dir = tempDir();
    before(async () => {
      database = await createTestDatabase();
    }, slow);
    after(async () => {
      await database?.drop();
      dir.remove();
    });

    it("warns loudly on stderr, still serves, and writes no secret file", slow, async () => {
      const env = { ...NO_SECRET, DATABASE_URL: database.url };
      await serveOnce([notes, probe, "--migrate"], { cwd: dir.path, env }, async (server) => {
        assert.match(
          server.stderr(),
          /^WARNING: FRAGMENT_SECRET is not set and a module uses a PostgreSQL database\.$/m,
        );
        assert.match(server.stderr(), /FRAGMENT_SECRET=\$\(openssl rand -base64 32\)/);
        const response = await fetch(`${server.url}/api/notes`);
        assert.equal(response.status, 200);
        await response.body?.cancel();
      });
      assert.equal(existsSync(join(dir.path, ".data", "fragment-secret")), false);
    });

    it("says nothing when FRAGMENT_SECRET is set", slow, async () => {
      const env = { FRAGMENT_SECRET: "a deployment secret from the environment, 32+" };
      await serveOnce([notes], { cwd: dir.path, env: { ...env, DATABASE_URL: database.url } }, (
        server,
      ) => {
        assert.doesNotMatch(server.stderr(), /FRAGMENT_SECRET/);
        return Promise.resolve();
      });
    });
  },
);
