/**
 * Two-factor authentication in the example SPA, in headless Chromium against `fragment-cli serve`
 * started with the arguments of `deno task start`, driven by role and accessible name; TOTP codes
 * are computed by the test from the key the page shows (`otpauth`), and the QR image is read back
 * with a QR decoder (`jsqr`):
 * - sign up, verify the address → "Set up" (password) → the QR code of the key and the key as text → a code →
 *   "Enable" → 10 recovery codes shown once → sign out → password, then a wrong code (refused, no
 *   cookie), then a right one → signed in → sign out → password, "Use a recovery code" → signed in
 *   → sign out → the same recovery code again is refused → a fresh code → signed in → an email
 *   link asks for the second step too (a recovery code) → "New recovery codes" → "Disable" → a
 *   password alone signs in again;
 * - an organization that requires two-factor authentication: its owner cannot turn the rule on
 *   without a factor (the 409 message), can with one; a member without a factor sees it listed
 *   with a note and cannot switch to it, enables TOTP and is admitted; losing the factor again
 *   keeps them out of the active organization (a note instead of its members).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { NO_BROWSER } from "../helpers/browser.ts";
import { credentials, newPage, printedLink, servedSpa, WAIT } from "../helpers/spa_pages.ts";
import {
  enableTotpInSpa,
  passwordStep,
  sessionCookies,
  signOut,
} from "../helpers/spa_two_factor.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

/** Waits for the page's error message to contain `text`. */
async function refusal(page: Page, text: string): Promise<void> {
  await page.locator("#message", { hasText: text }).waitFor(WAIT);
}

describe("two-factor authentication in the example SPA, in a real browser", () => {
  const spa = servedSpa();

  it(
    "enables TOTP, signs in with password + code, once with a recovery code (a second use is refused), then disables it",
    slow,
    async () => {
      const { server, browser } = await spa();
      const email = "grace@example.com";
      const { context, page } = await newPage(browser);
      await page.goto(`${server.url}/`);
      await credentials(page, email, PASSWORD, "Sign up");
      // A verified address: an email link to an unverified account would take it back from
      // whoever set it up, second factors included (docs/auth.md).
      await page.goto(await printedLink(server, "Verification", email));
      await page.getByText("Your email address is verified.").waitFor(WAIT);
      const section = page.getByRole("region", { name: "Two-factor authentication" });
      await section.getByText("Off: your password alone signs you in").waitFor(WAIT);
      const { codes, recoveryCodes } = await enableTotpInSpa(page, PASSWORD);
      assert.equal(new Set(recoveryCodes).size, 10);
      await section.getByRole("button", { name: "I have saved them" }).click();
      assert.equal(await section.getByText("Keep them somewhere safe").count(), 0, "shown once");
      await signOut(page);

      // Password, then the second step: a wrong code is refused and sets no cookie.
      await passwordStep(page, email, PASSWORD);
      const step = page.locator("#second-step-view");
      assert.equal(await step.getByRole("button", { name: "Use a passkey" }).count(), 0);
      assert.deepEqual(await sessionCookies(context), [], "no credential after the password");
      await step.getByLabel("Verification code").fill(codes.stale());
      await step.getByRole("button", { name: "Verify" }).click();
      await refusal(page, "The code is wrong or was used already (4 attempts left)");
      assert.deepEqual(await sessionCookies(context), [], "no credential for a wrong code");
      await step.getByLabel("Verification code").fill(await codes.next());
      await step.getByRole("button", { name: "Verify" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      assert.equal(await page.locator("#message").textContent(), "");
      await signOut(page);

      // A recovery code, once.
      await passwordStep(page, email, PASSWORD);
      await step.getByRole("button", { name: "Use a recovery code" }).click();
      await step.getByLabel("Recovery code").fill(recoveryCodes[0]);
      await step.getByRole("button", { name: "Verify" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      await section.getByText("9 recovery code(s) left").waitFor(WAIT);
      await signOut(page);

      await passwordStep(page, email, PASSWORD);
      await step.getByRole("button", { name: "Use a recovery code" }).click();
      await step.getByLabel("Recovery code").fill(recoveryCodes[0]);
      await step.getByRole("button", { name: "Verify" }).click();
      await refusal(page, "The code is wrong or was used already");
      assert.deepEqual(await sessionCookies(context), [], "a used recovery code signs no one in");
      await step.getByRole("button", { name: "Use a verification code" }).click();
      await step.getByLabel("Verification code").fill(await codes.next());
      await step.getByRole("button", { name: "Verify" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);

      // An email link asks for the second step too.
      await signOut(page);
      await page.locator("#credentials").getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.getByText("a sign-in link is on its way").waitFor(WAIT);
      await page.goto(await printedLink(server, "Sign-in", email));
      await page.getByRole("button", { name: "Sign in with this link" }).click();
      await step.getByRole("button", { name: "Use a recovery code" }).click();
      assert.equal(new URL(page.url()).hash, "", "the link's token left the address bar");
      assert.deepEqual(await sessionCookies(context), [], "no credential from the link alone");
      await step.getByLabel("Recovery code").fill(recoveryCodes[1]);
      await step.getByRole("button", { name: "Verify" }).click();
      await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      await section.getByText("8 recovery code(s) left").waitFor(WAIT);

      // New recovery codes: shown once more, the old ones void.
      await section.getByLabel("Password").fill(PASSWORD);
      await section.getByRole("button", { name: "New recovery codes" }).click();
      await page.getByText("the previous ones no longer work").waitFor(WAIT);
      const renewed = await section.locator("#recovery-codes > li").allTextContents();
      assert.equal(renewed.length, 10);
      assert.ok(!renewed.includes(recoveryCodes[2]), "new codes");
      await section.getByText("10 recovery code(s) left").waitFor(WAIT);

      // Disable: a password alone signs in again.
      await section.getByLabel("Password").fill(PASSWORD);
      await section.getByRole("button", { name: "Disable" }).click();
      await section.getByText("Off:").waitFor(WAIT);
      assert.equal(await section.getByText("Keep them somewhere safe").count(), 0);
      await signOut(page);
      await credentials(page, email, PASSWORD, "Sign in");
      await context.close();
    },
  );

  it(
    "an organization requiring two-factor authentication keeps out a member without one and admits them once they enable it",
    slow,
    async () => {
      const { server, browser } = await spa();
      const owner = await newPage(browser);
      await owner.page.goto(`${server.url}/`);
      await credentials(owner.page, "hedy@example.com", PASSWORD, "Sign up");
      await owner.page.getByLabel("Name").fill("Vault");
      await owner.page.getByRole("button", { name: "Create organization" }).click();
      await owner.page.locator("#active-name", { hasText: "Vault" }).waitFor(WAIT);

      // No factor of her own: the rule is refused with the server's message.
      const rule = owner.page.getByLabel("Require two-factor authentication");
      await rule.click();
      await refusal(owner.page, "Enable a second factor (TOTP or a passkey) on your own account");
      await owner.page.waitForFunction('!document.getElementById("require-two-factor").checked');
      await enableTotpInSpa(owner.page, PASSWORD);
      await rule.click();
      await owner.page.locator("#audit-log li", { hasText: "organizationUpdated" }).waitFor(WAIT);
      assert.equal(await rule.isChecked(), true);
      assert.equal(await owner.page.locator("#message").textContent(), "");
      await owner.page.locator("#invite").getByLabel("Email").fill("ian@example.com");
      await owner.page.getByRole("button", { name: "Invite", exact: true }).click();
      await owner.page.locator("#invitations li", { hasText: "ian@example.com" }).waitFor(WAIT);

      // The member joins without a factor: listed with a note, no way to switch to it.
      const member = await newPage(browser);
      await member.page.goto(`${server.url}/`);
      await credentials(member.page, "ian@example.com", PASSWORD, "Sign up");
      await member.page.goto(await printedLink(server, "Verification", "ian@example.com"));
      await member.page.getByRole("button", { name: "Accept", exact: true }).click();
      const vault = member.page.locator("#organizations li", { hasText: "Vault" });
      await vault.getByText("requires two-factor authentication").waitFor(WAIT);
      assert.equal(await vault.getByRole("button").count(), 0, "no Switch");
      assert.equal(await member.page.locator("#active").isHidden(), true);

      // With TOTP enabled, admitted at once.
      await enableTotpInSpa(member.page, PASSWORD);
      await member.page.getByRole("button", { name: "Switch to Vault" }).click();
      await member.page.locator("#active-name", { hasText: "Vault" }).waitFor(WAIT);
      await member.page.locator("#members li").nth(1).waitFor(WAIT);
      assert.equal(await vault.getByText("requires two-factor authentication").count(), 0);
      assert.equal(await member.page.getByLabel("Require two-factor authentication").count(), 0);

      // Disabling it again keeps them out of the active organization: a note, no members.
      const section = member.page.getByRole("region", { name: "Two-factor authentication" });
      await section.getByRole("button", { name: "I have saved them" }).click();
      await section.getByLabel("Password").fill(PASSWORD);
      await section.getByRole("button", { name: "Disable" }).click();
      await member.page.getByText("This organization requires two-factor authentication")
        .waitFor(WAIT);
      assert.equal(await member.page.locator("#members").isHidden(), true);
      assert.equal(await member.page.locator("#message").textContent(), "");
      await owner.context.close();
      await member.context.close();
    },
  );
});
