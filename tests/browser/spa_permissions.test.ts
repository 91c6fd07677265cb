/**
 * The example SPA shows only what the signed-in member may do (issue 32), in headless Chromium
 * against `fragment-cli serve` started like `deno task start`, driven by role and accessible name:
 * an owner invites, sees the audit log and a "Transfer ownership" action; the invitee (a plain
 * member once accepted) sees no invite form, no audit log, no transfer action; the owner hands the
 * organization over, becomes an admin (still inviting and reading the log, transferring no more),
 * and the new owner sees the owner's view and the transfer in the log.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { NO_BROWSER } from "../helpers/browser.ts";
import { credentials, newPage, printedLink, servedSpa, WAIT } from "../helpers/spa_pages.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

/** Whether the page shows the element now (hidden screens are detached from the page). */
async function shown(page: Page, selector: string): Promise<boolean> {
  return await page.locator(selector).isVisible();
}

describe("the example SPA gates its UI on the member's permissions", () => {
  const spa = servedSpa();

  it(
    "invite form, audit log and transfer action only for those who may; the transfer itself",
    slow,
    async () => {
      const { server, browser } = await spa();
      const erin = await newPage(browser);
      await erin.page.goto(`${server.url}/`);
      await credentials(erin.page, "erin@example.com", PASSWORD, "Sign up");
      await erin.page.getByLabel("Name").fill("Globex");
      await erin.page.getByRole("button", { name: "Create organization" }).click();
      await erin.page.locator("#active-name", { hasText: "Globex" }).waitFor(WAIT);
      // The owner: the invite form and the audit log, with the creation in it.
      const audit = erin.page.getByRole("region", { name: "Audit log" });
      await audit.getByText("organizationCreated by erin@example.com (you)").waitFor(WAIT);
      await erin.page.locator("#invite").getByLabel("Email").fill("frank@example.com");
      await erin.page.getByRole("button", { name: "Invite", exact: true }).click();
      await erin.page.locator("#invitations li", { hasText: "frank@example.com" }).waitFor(WAIT);
      await audit.getByText("invitationCreated by erin@example.com (you)").waitFor(WAIT);

      const frank = await newPage(browser);
      await frank.page.goto(`${server.url}/`);
      await credentials(frank.page, "frank@example.com", PASSWORD, "Sign up");
      await frank.page.goto(await printedLink(server, "Verification", "frank@example.com"));
      await frank.page.getByText("Your email address is verified.").waitFor(WAIT);
      await frank.page.getByRole("button", { name: "Accept", exact: true }).click();
      await frank.page.locator("#active-name", { hasText: "Globex" }).waitFor(WAIT);
      await frank.page.locator("#members li", { hasText: "frank@example.com (you)" }).waitFor(WAIT);
      // A plain member: no invite form, no invitations, no audit log, no transfer action.
      assert.equal(await shown(frank.page, "#invite"), false);
      assert.equal(await shown(frank.page, "#invitations"), false);
      assert.equal(await shown(frank.page, "#audit"), false);
      assert.equal(
        await frank.page.getByRole("button", { name: /Transfer ownership/ }).count(),
        0,
      );

      // The owner sees the new member with a "Transfer ownership" action, and hands over.
      await erin.page.reload();
      const transfer = erin.page.getByRole("button", { name: /^Transfer ownership to / });
      await transfer.waitFor(WAIT);
      assert.equal(await transfer.count(), 1, "one action: for the one member who is not owner");
      await audit.getByText("invitationAccepted by").waitFor(WAIT);
      await transfer.click();
      await erin.page.locator("#members li", { hasText: "erin@example.com (you) · admin" })
        .waitFor(WAIT);
      assert.equal(await erin.page.locator("#message").textContent(), "");
      // Now an admin: still invites and reads the log, transfers no more.
      assert.equal(await erin.page.getByRole("button", { name: /Transfer ownership/ }).count(), 0);
      assert.equal(await shown(erin.page, "#invite"), true);
      await audit.getByText("ownershipTransferred by erin@example.com (you)").waitFor(WAIT);

      // The new owner's view.
      await frank.page.reload();
      await frank.page.locator("#members li", { hasText: "frank@example.com (you) · owner" })
        .waitFor(WAIT);
      await frank.page.getByRole("region", { name: "Audit log" }).getByText(
        "ownershipTransferred by",
      ).waitFor(WAIT);
      assert.equal(await shown(frank.page, "#invite"), true);
      assert.equal(
        await frank.page.getByRole("button", { name: /^Transfer ownership to / }).count(),
        1,
      );
      await erin.context.close();
      await frank.context.close();
    },
  );
});
