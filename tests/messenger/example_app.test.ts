// `serve examples/app.ts` (= `deno task start`) with the messenger: without WEBHOOK_SECRET a random
// development secret is shown once and accepted; with it, that secret is the one required. The
// update is processed by the example's handler through the worker `serve` runs.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const slow = { timeout: 180_000 };
const HEADER = "X-Messenger-Bot-Api-Secret-Token";

function deliver(server: ServeProcess, secret: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/messenger/messenger/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", [HEADER]: secret },
    body: JSON.stringify(body),
  });
}

/** Resolves once `output()` matches `pattern` (the test's timeout bounds the wait). */
async function printed(output: () => string, pattern: RegExp): Promise<void> {
  while (!pattern.test(output())) await new Promise((r) => setTimeout(r, 50));
}

describe("serve examples/app.ts with the messenger", () => {
  const dir = tempDir();
  let server: ServeProcess | undefined;
  after(async () => {
    await server?.stop();
    dir.remove();
  });

  it(
    "without WEBHOOK_SECRET: shows a random development secret once and accepts it",
    slow,
    async () => {
      server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
        cwd: dir.path,
        env: { WEBHOOK_SECRET: "" },
      });
      await printed(server.stderr, /Set WEBHOOK_SECRET in production/);
      const warnings = server.stderr().match(/development secret for this run: ([A-Za-z0-9_-]+)/g);
      assert.equal(warnings?.length, 1, server.stderr());
      const secret = /for this run: ([A-Za-z0-9_-]+)/.exec(warnings![0])![1];
      assert.match(server.stdout(), /^ {4}POST +\/api\/messenger\/messenger\/webhook$/m);

      assert.equal((await deliver(server, "guess", { update_id: 1 })).status, 401);
      const response = await deliver(server, secret, {
        update_id: 1,
        message: { message_id: 1, text: "hello from the test" },
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { ok: true });
      await printed(server.stdout, /^\[messenger\] update 1: hello from the test$/m);
      const code = await server.stop();
      server = undefined;
      if (RUNTIME !== "deno") assert.equal(code, 0);
    },
  );

  it("with WEBHOOK_SECRET: requires it and warns about nothing", slow, async () => {
    const secret = "configured_secret-42";
    server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
      cwd: dir.path,
      env: { WEBHOOK_SECRET: secret },
    });
    assert.doesNotMatch(server.stderr(), /WEBHOOK_SECRET/);
    assert.equal((await deliver(server, secret + "x", { update_id: 2 })).status, 401);
    const again = await deliver(server, secret, { update_id: 1, message: { text: "retry" } });
    assert.deepEqual(await again.json(), { ok: true, duplicate: true });
    const fresh = await deliver(server, secret, { update_id: 2, message: { text: "second" } });
    assert.deepEqual(await fresh.json(), { ok: true });
    await printed(server.stdout, /^\[messenger\] update 2: second$/m);
  });
});
