/**
 * The passkey ceremonies in headless Chromium with its virtual authenticator (CDP's WebAuthn
 * domain: a platform authenticator with resident keys and user verification): a bare page on
 * http://localhost (no publicOrigin: the loopback relying party) loads the typed client's browser
 * bundle and calls client.passkeys.register() and client.signIn.withPasskey(); the passkey signs
 * in with no password, the authenticator's counter recorded. A copy of its private key in a second
 * authenticator, with the counter of a fresh device, is refused as a clone (PASSKEY_CLONED); a
 * canceled ceremony (no authenticator left) is PASSKEY_CEREMONY_FAILED.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, CDPSession, Page } from "playwright-core";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { serve } from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { tempDir } from "../helpers/cli_process.ts";
import { launchChromium, NO_BROWSER } from "../helpers/browser.ts";

const slow = { timeout: 120_000, skip: NO_BROWSER };

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Passkeys</title>
<script type="module">
  import { createAuthClient } from "./client.js";
  window.client = createAuthClient({ baseUrl: "/api/auth" });
  document.title = "ready";
</script>`;

/** A virtual platform authenticator: resident keys, user verification, presence simulated. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

describe("passkeys in Chromium's virtual authenticator", () => {
  const dir = tempDir();
  let db: SqlAdapter;
  let server: { port: number; shutdown(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  let base = "";

  before(async () => {
    if (NO_BROWSER) return;
    writeFileSync(join(dir.path, "index.html"), PAGE);
    copyFileSync(
      fileURLToPath(new URL("../../examples/spa/client.js", import.meta.url)),
      join(dir.path, "client.js"),
    );
    db = pgliteAdapter();
    await migrate(db, authSchema);
    const module = auth({
      database: db,
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      autoStart: false,
    });
    server = await serve([module], {
      port: 0,
      hostname: "127.0.0.1",
      staticDir: dir.path,
      handleSignals: false,
    });
    base = `http://localhost:${server.port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.shutdown();
    await db?.close();
    dir.remove();
  });

  async function open(): Promise<Page> {
    const page = await (await browser!.newContext()).newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction('document.title === "ready"');
    return page;
  }

  it(
    "registers with client.passkeys.register(), signs in with client.signIn.withPasskey(), refuses a clone",
    slow,
    async () => {
      const laptop = await open();
      const { cdp, id } = await virtualAuthenticator(laptop);
      const registered = await laptop.evaluate(async () => {
        // deno-lint-ignore no-explicit-any
        const client = (globalThis as any).client;
        const signedUp = await client.signUp({
          email: "passkey-browser@example.com",
          password: "correct horse battery",
        });
        if (signedUp.error) return signedUp;
        return await client.passkeys.register({ name: "Virtual" });
      });
      assert.equal(registered.error, null, JSON.stringify(registered.error));
      assert.equal(registered.data.name, "Virtual");
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: id });
      assert.equal(credentials.length, 1);
      assert.equal(credentials[0].isResidentCredential, true, "a discoverable credential");

      const signedIn = await laptop.evaluate(async () => {
        // deno-lint-ignore no-explicit-any
        const client = (globalThis as any).client;
        await client.signOut();
        const anonymous = await client.me();
        const result = await client.signIn.withPasskey();
        const me = await client.me();
        return { anonymous: anonymous.error?.code, result, email: me.data?.user.email };
      });
      assert.equal(signedIn.anonymous, "UNAUTHENTICATED", "signed out before");
      assert.equal(signedIn.result.error, null, JSON.stringify(signedIn.result.error));
      assert.equal(signedIn.email, "passkey-browser@example.com", "the cookie carries the session");
      const [row] = await db.query<{ counter: number; last_used_at: Date | null }>(
        `SELECT counter::int AS counter, last_used_at FROM auth.passkeys`,
      );
      const [used] =
        (await cdp.send("WebAuthn.getCredentials", { authenticatorId: id })).credentials;
      assert.equal(row.counter, used.signCount, "the authenticator's counter recorded");
      assert.ok(row.last_used_at !== null);

      // The same private key in another browser's authenticator, counting from a fresh device.
      const copy = await open();
      const other = await virtualAuthenticator(copy);
      await other.cdp.send("WebAuthn.addCredential", {
        authenticatorId: other.id,
        credential: { ...used, signCount: 0 },
      });
      const cloned = await copy.evaluate(async () => {
        // deno-lint-ignore no-explicit-any
        return await (globalThis as any).client.signIn.withPasskey();
      });
      assert.equal(cloned.data, null);
      assert.equal(cloned.error.code, "PASSKEY_CLONED", JSON.stringify(cloned.error));

      // No authenticator left: the browser ends the ceremony.
      await other.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: other.id });
      const canceled = await copy.evaluate(async () => {
        // deno-lint-ignore no-explicit-any
        const client = (globalThis as any).client;
        return await client.signIn.withPasskey({ signal: AbortSignal.timeout(2_000) });
      });
      assert.equal(canceled.error.code, "PASSKEY_CEREMONY_FAILED", JSON.stringify(canceled.error));
    },
  );
});
