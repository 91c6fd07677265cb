// `serve examples/app.ts` (= `deno task start`) with the messenger: without WEBHOOK_SECRET a random
// secret is generated but never shown, so every delivery is refused; with it, that secret is the
// one required. The update is processed by the example's handler through the worker `serve` runs,
// which logs its id and kind, never its text.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

const app = fileURLToPath(new URL("../../examples/app.ts", import.meta.url));
const slow = { timeout: 180_000 };
const HEADER = "X-Messenger-Bot-Api-Secret-Token";

function deliver(
  server: ServeProcess,
  secret: string,
  body: unknown,
  header = HEADER,
): Promise<Response> {
  return fetch(`${server.url}/api/messenger/messenger/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", [header]: secret },
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
    "without WEBHOOK_SECRET: says a secret was generated, never shows it, refuses deliveries",
    slow,
    async () => {
      server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
        cwd: dir.path,
        env: { WEBHOOK_SECRET: "" },
      });
      await printed(server.stderr, /set WEBHOOK_SECRET/);
      const warnings = server.stderr().match(/WEBHOOK_SECRET is not set/g);
      assert.equal(warnings?.length, 1, server.stderr());
      assert.match(server.stderr(), /not shown/);
      // The old warning ended with the secret itself (24 random bytes in base64url).
      assert.doesNotMatch(server.stderr(), /[A-Za-z0-9_-]{32}/);
      assert.match(server.stdout(), /^ {4}POST +\/api\/messenger\/messenger\/webhook$/m);
      // Without PUBLIC_ORIGIN, the URL for setWebhook is on the address served.
      assert.ok(
        server.stdout().includes(
          `\n  Webhook URL (for setWebhook): ${server.url}/api/messenger/messenger/webhook\n` +
            `    Secret header: ${HEADER} (its value: webhookSecret)\n`,
        ),
        server.stdout(),
      );
      assert.equal((await deliver(server, "guess", { update_id: 1 })).status, 401);
      const code = await server.stop();
      server = undefined;
      if (RUNTIME !== "deno") assert.equal(code, 0);
    },
  );

  it(
    "with WEBHOOK_SECRET: requires it in the header WEBHOOK_SECRET_HEADER names, warns about nothing",
    slow,
    async () => {
      const secret = "configured_secret-42";
      const telegram = "X-Telegram-Bot-Api-Secret-Token";
      server = await startServe([app, "--port", "0", "--host", "127.0.0.1"], {
        cwd: dir.path,
        env: {
          WEBHOOK_SECRET: secret,
          WEBHOOK_SECRET_HEADER: telegram,
          PUBLIC_ORIGIN: "https://bot.example.com",
        },
      });
      assert.doesNotMatch(server.stderr(), /WEBHOOK_SECRET/);
      assert.match(
        server.stdout(),
        /^ {2}Webhook URL \(for setWebhook\): https:\/\/bot\.example\.com\/api\/messenger\/messenger\/webhook$/m,
      );
      assert.match(server.stdout(), new RegExp(`^ {4}Secret header: ${telegram} `, "m"));
      assert.ok(!server.stdout().includes(secret), "the secret is not printed");
      const otherHeader = await deliver(server, secret, { update_id: 3 }, HEADER);
      assert.equal(otherHeader.status, 401);
      await otherHeader.body?.cancel();
      const deliverTelegram = (secret: string, body: unknown) =>
        deliver(server!, secret, body, telegram);
      assert.equal((await deliverTelegram(secret + "x", { update_id: 2 })).status, 401);
      const text = "hello from the test";
      const first = await deliverTelegram(secret, {
        update_id: 1,
        message: { message_id: 1, text },
      });
      assert.deepEqual(await first.json(), { ok: true });
      const again = await deliverTelegram(secret, { update_id: 1, message: { text: "retry" } });
      assert.deepEqual(await again.json(), { ok: true, duplicate: true });
      const fresh = await deliverTelegram(secret, {
        update_id: 2,
        message: { text: "second private words" },
      });
      assert.deepEqual(await fresh.json(), { ok: true });
      // The example's handler logs the update's id and kind, never the message text.
      await printed(server.stdout, /^\[messenger\] update 2 \(message\) processed$/m);
      assert.match(server.stdout(), /^\[messenger\] update 1 \(message\) processed$/m);
      assert.ok(!server.stdout().includes(text), server.stdout());
      assert.ok(!server.stdout().includes("second private words"), server.stdout());
    },
  );
});
