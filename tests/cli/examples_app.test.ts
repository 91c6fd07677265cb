/**
 * The project's own example and migrations: `migrations/` is what `db generate` makes of
 * examples/app.ts (date prefixes aside), those files bring a PostgreSQL database to the code's
 * versions, and `serve examples/app.ts` (= `deno task start`) works on a fresh PGlite directory.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const migrations = fileURLToPath(new URL("../../migrations", import.meta.url));
const slow = { timeout: 180_000 };
/** The Telegram settings `deno task migrations` reads the app with (scripts/generate_migrations.ts). */
const TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: "1:migrations-only-not-a-bot-token",
  TELEGRAM_BOT_USERNAME: "migrations_bot",
};

/** The SQL files of a folder by name without the `YYYYMMDD_` date prefix, in name order. */
function sqlFiles(dir: string): Map<string, string> {
  const names = readdirSync(dir).filter((f) => f.endsWith(".sql")).sort();
  return new Map(names.map((name) => [name.slice(9), readFileSync(join(dir, name), "utf8")]));
}

describe("migrations/", () => {
  const dir = tempDir();
  let database: TestDatabase | undefined;
  before(async () => {
    if (enabledAdapters().includes("postgres")) database = await createTestDatabase();
  }, slow);
  after(async () => {
    await database?.drop();
    dir.remove();
  });

  it(
    "is what db generate --from 0 makes of examples/app.ts (run deno task migrations)",
    slow,
    async () => {
      const result = await runCli(["db", "generate", app, "--from", "0", "-o", "out/"], {
        cwd: dir.path,
        env: TELEGRAM_ENV,
      });
      assert.equal(result.code, 0, result.stderr);
      const fresh = sqlFiles(join(dir.path, "out"));
      const committed = sqlFiles(migrations);
      assert.ok(fresh.size > 0, "examples/app.ts has no module with a database");
      assert.deepEqual(
        [...committed.keys()],
        [...fresh.keys()],
        "migrations/ is out of date: run `deno task migrations` and commit the result",
      );
      for (const [name, sql] of fresh) {
        assert.equal(
          committed.get(name),
          sql,
          `migrations/*_${name} is out of date: run \`deno task migrations\``,
        );
      }
    },
  );

  it("applied with psql, brings a PostgreSQL database to the code's versions", {
    ...slow,
    skip: !enabledAdapters().includes("postgres"),
  }, async () => {
    const names = readdirSync(migrations).filter((f) => f.endsWith(".sql")).sort();
    for (const name of names) {
      execFileSync("psql", [
        "-X",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-d",
        database!.url,
        "-f",
        join(migrations, name),
      ], {
        stdio: "pipe",
      });
    }
    const result = await runCli(["db", "info", app, "--json"], {
      cwd: dir.path,
      env: { DATABASE_URL: database!.url, ...TELEGRAM_ENV },
    });
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout).namespaces as { status: string; namespace: string }[];
    assert.ok(rows.length > 0);
    for (const row of rows) assert.equal(row.status, "up-to-date", row.namespace);
  });
});

describe("serve examples/app.ts (deno task start) on a fresh PGlite directory", () => {
  const dir = tempDir();
  let server: ServeProcess | undefined;
  after(async () => {
    await server?.stop();
    dir.remove();
  });

  it("migrates, serves auth, signs a user up and answers GET /me", slow, async () => {
    server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], { cwd: dir.path });
    assert.match(server.stdout(), /^Applying migrations to PGlite \.\/\.data\/pglite:$/m);
    assert.match(server.stdout(), /^ {4}POST +\/api\/auth\/sign-up$/m);
    const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
    });
    assert.equal(signUp.status, 200, await signUp.clone().text());
    const { token } = await signUp.json();
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(me.status, 200);
    assert.equal((await me.json()).user.email, "ada@example.com");
    const code = await server.stop();
    server = undefined;
    if (RUNTIME !== "deno") assert.equal(code, 0);
  });

  it("says a webhook secret was generated without showing it", slow, async () => {
    server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
      cwd: dir.path,
      env: { WEBHOOK_SECRET: "", PUBLIC_ORIGIN: "" },
    });
    const stderr = server.stderr();
    assert.match(stderr, /WEBHOOK_SECRET is not set; .* not shown/);
    // The old warning ended with the secret (24 random bytes in base64url: 32 characters). The
    // name of the secret header, which serve prints with the webhook URL, is 32 characters too.
    const printed = `${stderr}\n${server.stdout()}`
      .replaceAll("Secret header: X-Messenger-Bot-Api-Secret-Token ", "");
    assert.match(server.stdout(), /Webhook URL \(for setWebhook\): /);
    assert.doesNotMatch(printed, /[A-Za-z0-9_-]{32}/);
    await server.stop();
    server = undefined;
  });

  it("follows PUBLIC_ORIGIN and logs an update's id and kind, never its text", slow, async () => {
    const secret = "examples-app-test-secret";
    server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
      cwd: dir.path,
      env: { WEBHOOK_SECRET: secret, PUBLIC_ORIGIN: "https://app.example.com" },
    });
    const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://app.example.com" },
      body: JSON.stringify({ email: "grace@example.com", password: "correct horse battery" }),
    });
    assert.equal(signUp.status, 200, await signUp.clone().text());
    await signUp.body?.cancel();
    // Served over plain http on 127.0.0.1, but the deployment's origin is https.
    assert.match(signUp.headers.get("set-cookie") ?? "", /; Secure/);
    const fromHost = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: "grace@example.com", password: "correct horse battery" }),
    });
    assert.equal(fromHost.status, 403);
    await fromHost.body?.cancel();

    const text = "a very private message";
    const delivered = await fetch(`${server.url}/api/messenger/messenger/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-messenger-bot-api-secret-token": secret,
      },
      body: JSON.stringify({ update_id: 4242, message: { message_id: 1, text } }),
    });
    assert.equal(delivered.status, 200, await delivered.clone().text());
    await delivered.body?.cancel();
    const deadline = Date.now() + 30_000;
    while (!/update 4242/.test(server.stdout()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(server.stdout(), /\[messenger\] update 4242 \(message\) processed/);
    assert.ok(!`${server.stdout()}${server.stderr()}`.includes(text), "message text logged");
    await server.stop();
    server = undefined;
  });
});
