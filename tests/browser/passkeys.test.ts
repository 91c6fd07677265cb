/**
 * Passkeys in the example SPA, in headless Chromium with its virtual authenticator (CDP's WebAuthn
 * domain: a platform authenticator with resident keys and user verification) against
 * `fragment-cli serve` started with the arguments of `deno task start`, the page opened at
 * http://localhost:<port> (WebAuthn refuses IP addresses; without PUBLIC_ORIGIN the module's
 * relying party is `localhost`):
 * - sign up → "Add a passkey" with a name → listed → "Rename" → sign out → a password sign-in now
 *   asks for the passkey (the only way offered) → back → "Sign in with a passkey" alone → signed in;
 * - the same user with TOTP too: password, then "Use a passkey" at the second step → signed in;
 * - "Remove" → the authenticator's passkey no longer signs in (INVALID_PASSKEY), and a password
 *   alone does again.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { NO_BROWSER } from "../helpers/browser.ts";
import { credentials, newPage, servedSpa, WAIT } from "../helpers/spa_pages.ts";
import {
  enableTotpInSpa,
  passwordStep,
  sessionCookies,
  signOut,
  virtualAuthenticator,
} from "../helpers/spa_two_factor.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

describe("passkeys in the example SPA, in Chromium's virtual authenticator", () => {
  const spa = servedSpa();

  it(
    "adds a passkey, renames it, signs in with it alone, answers the second step with it, removes it",
    slow,
    async () => {
      const { server, browser } = await spa();
      const url = new URL(server.url);
      url.hostname = "localhost";
      const email = "katherine@example.com";
      const { context, page } = await newPage(browser);
      await page.goto(url.href);
      await virtualAuthenticator(page);
      await credentials(page, email, PASSWORD, "Sign up");

      const section = page.getByRole("region", { name: "Passkeys" });
      await section.getByText("No passkeys yet").waitFor(WAIT);
      await section.getByLabel("Device").fill("Virtual laptop");
      await section.getByRole("button", { name: "Add a passkey" }).click();
      await section.locator("li", { hasText: "Virtual laptop" }).waitFor(WAIT);
      await page.getByText("The passkey Virtual laptop was added").waitFor(WAIT);
      assert.match((await section.locator("li").textContent())!, /never used/);
      await page.getByRole("region", { name: "Two-factor authentication" })
        .getByText("asks for one of your passkeys").waitFor(WAIT);

      await section.getByRole("button", { name: "Rename Virtual laptop" }).click();
      await section.getByLabel("Rename to").fill("Work laptop");
      await section.getByRole("button", { name: "Save" }).click();
      await section.locator("li", { hasText: "Work laptop" }).waitFor(WAIT);
      assert.equal(await section.locator("li").count(), 1);
      await signOut(page);

      // A password alone no longer signs in: the second step offers the passkey, and only it.
      await passwordStep(page, email, PASSWORD);
      const step = page.locator("#second-step-view");
      await step.getByRole("button", { name: "Use a passkey" }).waitFor(WAIT);
      assert.equal(await step.getByLabel("Verification code").count(), 0);
      assert.equal(await step.getByRole("button", { name: "Use a recovery code" }).count(), 0);
      assert.deepEqual(await sessionCookies(context), []);
      await step.getByRole("button", { name: "Back to sign in" }).click();

      // The passkey alone: no address, no password.
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      assert.equal(await page.locator("#message").textContent(), "");
      await section.locator("li", { hasText: "last used" }).waitFor(WAIT);

      // With TOTP too, the passkey answers the second step of a password sign-in.
      await enableTotpInSpa(page, PASSWORD);
      await signOut(page);
      await passwordStep(page, email, PASSWORD);
      await step.getByLabel("Verification code").waitFor(WAIT);
      await step.getByRole("button", { name: "Use a passkey" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      assert.equal(await page.locator("#message").textContent(), "");

      // Removed, the passkey the authenticator still holds signs no one in.
      await section.getByRole("button", { name: "Remove Work laptop" }).click();
      await section.getByText("No passkeys yet").waitFor(WAIT);
      await page.getByText("The passkey Work laptop was removed").waitFor(WAIT);
      await signOut(page);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.locator("#message", { hasText: /passkey/i }).waitFor(WAIT);
      assert.deepEqual(await sessionCookies(context), []);
      await context.close();
    },
  );
});
