/**
 * The React example (examples/react/, its committed bundle) in headless Chromium, at `/react/` of
 * `fragment-cli serve` started with the arguments of `deno task start`, driven by role and
 * accessible name: sign-up → create an organization → invite → the invitee signs up, verifies
 * from the printed link and accepts → switch; and two tabs of one browser, the second following
 * an organization created, a switch in either tab, and a sign-out.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { NO_BROWSER } from "../helpers/browser.ts";
import { printedLink, servedSpa, WAIT } from "../helpers/spa_pages.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";

/** A tab at `/react/`, its page errors collected in `errors`. */
async function openTab(context: BrowserContext, url: string, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${url}/react/`);
  return page;
}

/** Signs up on the sign-in form and waits for the signed-in header. */
async function signUp(page: Page, email: string): Promise<void> {
  const form = page.getByRole("region", { name: "Sign in or create an account" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
}

/** Creates an organization with the form of "Your organizations". */
async function createOrganization(page: Page, name: string): Promise<void> {
  const section = page.getByRole("region", { name: "Your organizations" });
  await section.getByLabel("Name").fill(name);
  await section.getByRole("button", { name: "Create organization" }).click();
  await section.getByRole("listitem").filter({ hasText: name }).waitFor(WAIT);
}

/** Waits until the list named `list` shows one item per matcher, each equal to or matching it. */
async function waitItems(page: Page, list: string, texts: (string | RegExp)[]): Promise<void> {
  const items = page.getByRole("list", { name: list }).getByRole("listitem");
  const matches = (found: string[]) =>
    found.length === texts.length &&
    texts.every((text, i) => typeof text === "string" ? found[i] === text : text.test(found[i]));
  const deadline = Date.now() + WAIT.timeout;
  let last = await items.allTextContents();
  while (!matches(last)) {
    assert.ok(Date.now() < deadline, `${list}: ${JSON.stringify(last)}`);
    await page.waitForTimeout(100);
    last = await items.allTextContents();
  }
}

/** A member that is not the viewer: their user id and roles. */
const OTHER_OWNER = /^[0-9a-f-]{36} · owner$/;
const OTHER_MEMBER = /^[0-9a-f-]{36} · member$/;

const active = (page: Page, name: string) =>
  page.getByRole("heading", { name: `Active: ${name}`, exact: true }).waitFor(WAIT);

describe("the React example in a real browser", () => {
  const spa = servedSpa();

  it(
    "sign-up → organization → invite → accept → switch, and a second tab following",
    slow,
    async () => {
      const { server, browser } = await spa();
      const url = server.url;
      const errors: string[] = [];
      const alice = await browser.newContext();
      const first = await openTab(alice, url, errors);
      await signUp(first, "alice@example.com");

      // The first organization becomes the active one; its only member is the owner.
      await createOrganization(first, "Acme");
      await active(first, "Acme");
      await waitItems(first, "Members", ["alice@example.com (you) · owner"]);
      const invite = first.getByRole("form", { name: "Invite" });
      await invite.getByLabel("Email").fill("bob@example.com");
      await invite.getByRole("button", { name: "Invite" }).click();
      await waitItems(first, "Pending invitations", ["bob@example.com · member"]);

      // Bob signs up; invitations reach verified addresses only.
      const bob = await browser.newContext();
      const bobTab = await openTab(bob, url, errors);
      await signUp(bobTab, "bob@example.com");
      await bobTab.getByText("Verify your email").waitFor(WAIT);
      assert.equal(await bobTab.getByRole("button", { name: "Accept" }).count(), 0);
      await bobTab.goto(await printedLink(server, "Verification", "bob@example.com"));
      await bobTab.goto(`${url}/react`);
      assert.equal(new URL(bobTab.url()).pathname, "/react/", "/react redirects to /react/");
      const mine = bobTab.getByRole("region", { name: "Invitations for you" });
      await mine.getByText("Acme invites you as member").waitFor(WAIT);
      assert.equal(await bobTab.getByText("Verify your email").count(), 0);
      await mine.getByRole("button", { name: "Accept" }).click();
      await mine.waitFor({ state: "detached", ...WAIT });
      // Accepting makes the organization the active one when there is none.
      await active(bobTab, "Acme");
      await waitItems(bobTab, "Members", [OTHER_OWNER, "bob@example.com (you) · member"]);
      // A member may not invite, nor list the invitations: neither is shown.
      assert.equal(await bobTab.getByRole("form", { name: "Invite" }).count(), 0);
      assert.equal(await bobTab.getByRole("list", { name: "Pending invitations" }).count(), 0);

      // Alice's second tab reads /me once and sees Bob among the members.
      const second = await openTab(alice, url, errors);
      await active(second, "Acme");
      await waitItems(second, "Members", ["alice@example.com (you) · owner", OTHER_MEMBER]);
      await waitItems(second, "Pending invitations", []);

      // A second organization, created in the first tab, reaches the second; then the switches.
      await createOrganization(first, "Globex");
      await second.getByRole("button", { name: "Switch to Globex" }).waitFor(WAIT);
      await first.getByRole("button", { name: "Switch to Globex" }).click();
      await active(first, "Globex");
      await active(second, "Globex");
      await waitItems(second, "Members", ["alice@example.com (you) · owner"]);
      await second.getByRole("button", { name: "Switch to Acme" }).click();
      await active(second, "Acme");
      await active(first, "Acme");
      await waitItems(first, "Members", ["alice@example.com (you) · owner", OTHER_MEMBER]);

      // A sign-out in the first tab signs the second out.
      await first.getByRole("button", { name: "Sign out" }).click();
      await first.getByRole("region", { name: "Sign in or create an account" }).waitFor(WAIT);
      await second.getByRole("region", { name: "Sign in or create an account" }).waitFor(WAIT);
      assert.equal(await second.getByText("Signed in as").count(), 0);
      assert.deepEqual(errors, []);
      await alice.close();
      await bob.close();
    },
  );
});
