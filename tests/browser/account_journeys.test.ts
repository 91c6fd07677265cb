/**
 * The account journeys of the example SPA in headless Chromium, against `fragment-cli serve`
 * started with the arguments of `deno task start`, driven by role and accessible name:
 * - invite → the invitee signs up → verifies from the link the server printed → accepts → sees
 *   the organization;
 * - forgot password → reset from the mailed (printed) link → the old session is signed out → sign
 *   in with the new password.
 * With `UPDATE_SCREENSHOTS=1` the account area's screenshot is saved to docs/images/account.png.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { docsScreenshot, NO_BROWSER } from "../helpers/browser.ts";
import { credentials, newPage, printedLink, servedSpa, WAIT } from "../helpers/spa_pages.ts";

const screenshot = docsScreenshot("account.png");
const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

describe("the example SPA's account journeys in a real browser", () => {
  const spa = servedSpa();

  it(
    "invite → the invitee signs up → verifies from the printed link → accepts → sees the organization",
    slow,
    async () => {
      const { server, browser } = await spa();
      const alice = await newPage(browser);
      await alice.page.goto(`${server.url}/`);
      await credentials(alice.page, "alice@example.com", PASSWORD, "Sign up");
      await alice.page.getByLabel("Name").fill("Acme");
      await alice.page.getByRole("button", { name: "Create organization" }).click();
      await alice.page.locator("#active-name", { hasText: "Acme" }).waitFor(WAIT);
      await alice.page.locator("#invite").getByLabel("Email").fill("bob@example.com");
      await alice.page.getByRole("button", { name: "Invite", exact: true }).click();
      await alice.page.locator("#invitations li", { hasText: "bob@example.com" }).waitFor(WAIT);

      const bob = await newPage(browser);
      await bob.page.goto(`${server.url}/`);
      await credentials(bob.page, "bob@example.com", PASSWORD, "Sign up");
      await bob.page.getByText("Verify your email").waitFor(WAIT);
      await bob.page.getByRole("button", { name: "Resend verification email" }).waitFor(WAIT);
      assert.equal(await bob.page.getByRole("button", { name: "Accept", exact: true }).count(), 0);

      const link = await printedLink(server, "Verification", "bob@example.com");
      assert.ok(link.startsWith(`${server.url}/api/auth/verify-email?token=`), link);
      await bob.page.goto(link);
      await bob.page.getByText("Your email address is verified.").waitFor(WAIT);
      assert.equal(new URL(bob.page.url()).search, "", "the token left the address bar");
      assert.equal(await bob.page.getByText("Verify your email").count(), 0);
      await bob.page.locator("#my-invitations li", { hasText: "Acme" }).waitFor(WAIT);
      await bob.page.getByRole("button", { name: "Accept", exact: true }).click();
      await bob.page.locator("#organizations li", { hasText: "Acme" }).waitFor(WAIT);
      assert.equal(await bob.page.locator("#my-invitations").isHidden(), true);
      assert.equal(await bob.page.locator("#message").textContent(), "");

      // Alice sees Bob among the members after a reload.
      await alice.page.reload();
      await alice.page.locator("#members li").nth(1).waitFor(WAIT);
      assert.equal(await alice.page.locator("#members li").count(), 2);
      await alice.context.close();
      await bob.context.close();
    },
  );

  it(
    "forgot → reset from the mailed link → the old session is signed out → signs in with the new password",
    slow,
    async () => {
      const { server, browser } = await spa();
      const email = "carol@example.com";
      const laptop = await newPage(browser);
      await laptop.page.goto(`${server.url}/`);
      await credentials(laptop.page, email, PASSWORD, "Sign up");
      await laptop.page.getByRole("region", { name: "Sessions" }).getByRole("button", {
        name: "Revoke",
      }).waitFor(WAIT);
      if (screenshot) await laptop.page.locator("#account").screenshot({ path: screenshot });

      const phone = await newPage(browser);
      await phone.page.goto(`${server.url}/`);
      await phone.page.getByRole("button", { name: "Forgot password?" }).click();
      await phone.page.getByLabel("Email").fill(email);
      await phone.page.getByRole("button", { name: "Send reset link" }).click();
      await phone.page.getByText("a password reset link is on its way").waitFor(WAIT);

      const link = await printedLink(server, "Password reset", email);
      assert.ok(link.startsWith(`${server.url}/#reset-password?token=`), link);
      await phone.page.goto(link);
      await phone.page.getByLabel("New password").fill("a brand new password");
      // Opening the link consumed nothing: the laptop is still signed in until the reset.
      await laptop.page.reload();
      await laptop.page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      await phone.page.getByRole("button", { name: "Set new password" }).click();
      await phone.page.getByText("sign in with the new one").waitFor(WAIT);

      await laptop.page.reload();
      await laptop.page.locator("#credentials").waitFor({ state: "visible", ...WAIT });

      await credentials(phone.page, email, "a brand new password", "Sign in");
      assert.equal(await phone.page.locator("#message").textContent(), "");
      await laptop.context.close();
      await phone.context.close();
    },
  );

  it(
    "the account area: change password, sign out other sessions, change email, delete account",
    slow,
    async () => {
      const { server, browser } = await spa();
      const email = "dora@example.com";
      const main = await newPage(browser);
      await main.page.goto(`${server.url}/`);
      await credentials(main.page, email, PASSWORD, "Sign up");
      const other = await newPage(browser);
      await other.page.goto(`${server.url}/`);
      await credentials(other.page, email, PASSWORD, "Sign in");

      await main.page.reload();
      const sessions = main.page.getByRole("region", { name: "Sessions" });
      await sessions.getByRole("button", { name: "Revoke" }).nth(1).waitFor(WAIT);
      await sessions.getByRole("button", { name: "Sign out other sessions" }).click();
      await main.page.getByText("1 other session(s) signed out.").waitFor(WAIT);
      await other.page.reload();
      await other.page.locator("#credentials").waitFor({ state: "visible", ...WAIT });

      const password = main.page.getByRole("region", { name: "Change password" });
      await password.getByLabel("Current password").fill(PASSWORD);
      await password.getByLabel("New password").fill("second password");
      await password.getByRole("button", { name: "Change password" }).click();
      await main.page.getByText("Password changed").waitFor(WAIT);

      const change = main.page.getByRole("region", { name: "Change email" });
      await change.getByLabel("New email").fill("dora.new@example.com");
      await change.getByLabel("Password", { exact: true }).fill("second password");
      await change.getByRole("button", { name: "Change email" }).click();
      await main.page.getByText("A confirmation link was sent to the new address").waitFor(WAIT);
      const link = await printedLink(server, "Email change confirmation", "dora.new@example.com");
      await main.page.goto(link);
      await main.page.getByRole("button", { name: "Confirm new email" }).click();
      await main.page.getByText("Signed in as dora.new@example.com").waitFor(WAIT);

      const remove = main.page.getByRole("region", { name: "Delete account" });
      await remove.getByLabel("Password", { exact: true }).fill("second password");
      await remove.getByRole("button", { name: "Delete account" }).click();
      await main.page.getByText("Your account was deleted.").waitFor(WAIT);
      const form = main.page.locator("#credentials");
      await form.waitFor({ state: "visible", ...WAIT });
      await form.getByLabel("Email").fill("dora.new@example.com");
      await form.getByLabel("Password").fill("second password");
      await main.page.getByRole("button", { name: "Sign in", exact: true }).click();
      await main.page.getByText("Invalid email or password").waitFor(WAIT);
      await main.context.close();
      await other.context.close();
    },
  );
});
