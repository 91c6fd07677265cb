/**
 * Passwordless sign-in in the example SPA, in headless Chromium against `fragment-cli serve`
 * started with the arguments of `deno task start` (whose development mailer prints the links):
 * "Email me a sign-in link" with the Email field → the link the server printed (its token in the
 * fragment; a scanner's fetch of it consumes nothing) → "Sign in with this link" → the app, signed
 * in, the address verified, the token gone from the address bar; the link works once; an unknown
 * address gets the same answer and no link.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { NO_BROWSER } from "../helpers/browser.ts";
import { credentials, newPage, printedLink, servedSpa, WAIT } from "../helpers/spa_pages.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };

describe("the example SPA's email link sign-in in a real browser", () => {
  const spa = servedSpa();

  it(
    "Email me a sign-in link → the printed link → signed in, verified; the link works once; unknown addresses get the same answer and no link",
    slow,
    async () => {
      const { server, browser } = await spa();
      const email = "erin@example.com";
      const laptop = await newPage(browser);
      await laptop.page.goto(`${server.url}/`);
      await credentials(laptop.page, email, "correct horse battery", "Sign up");
      await laptop.page.getByText("Verify your email").waitFor(WAIT);

      const phone = await newPage(browser);
      await phone.page.goto(`${server.url}/`);
      const form = phone.page.locator("#credentials");
      await form.getByLabel("Email").fill(email);
      await phone.page.getByRole("button", { name: "Email me a sign-in link" }).click();
      const sent = phone.page.getByText("a sign-in link is on its way");
      await sent.waitFor(WAIT);
      const answer = await phone.page.locator("#info").textContent();

      const link = await printedLink(server, "Sign-in", email);
      assert.ok(link.startsWith(`${server.url}/#sign-in-link?token=`), link);
      // A mail scanner fetching the link gets the app's page and spends nothing.
      const scanned = await fetch(link);
      assert.equal(scanned.status, 200);
      await scanned.body?.cancel();

      await phone.page.goto(link);
      await phone.page.getByRole("heading", { name: "Finish signing in" }).waitFor(WAIT);
      await phone.page.getByRole("button", { name: "Sign in with this link" }).click();
      await phone.page.getByText(`Signed in as ${email}`).waitFor(WAIT);
      assert.equal(new URL(phone.page.url()).hash, "", "the token left the address bar");
      assert.equal(await phone.page.getByText("Verify your email").count(), 0, "verified");
      assert.equal(await phone.page.locator("#message").textContent(), "");

      // The same link again, in another browser: refused, and the sign-in screen shows.
      const thief = await newPage(browser);
      await thief.page.goto(link);
      await thief.page.getByRole("button", { name: "Sign in with this link" }).click();
      await thief.page.getByText("The sign-in link is invalid").waitFor(WAIT);
      await thief.page.locator("#credentials").waitFor({ state: "visible", ...WAIT });

      // An unknown address: the same answer, and no link printed.
      const stranger = await newPage(browser);
      await stranger.page.goto(`${server.url}/`);
      await stranger.page.locator("#credentials").getByLabel("Email").fill("nobody@example.com");
      await stranger.page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await stranger.page.getByText("a sign-in link is on its way").waitFor(WAIT);
      assert.equal(await stranger.page.locator("#info").textContent(), answer);
      // Any link for it would be printed before the next one for Erin.
      await phone.page.getByRole("button", { name: "Sign out", exact: true }).click();
      await form.getByLabel("Email").fill(email);
      await phone.page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await sent.waitFor(WAIT);
      const deadline = Date.now() + WAIT.timeout;
      while ((server.stdout().match(/Sign-in link for erin@/g) ?? []).length < 2) {
        assert.ok(Date.now() < deadline, "a second link for erin");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.doesNotMatch(server.stdout(), /Sign-in link for nobody@example\.com/);
      for (const { context } of [laptop, phone, thief, stranger]) await context.close();
    },
  );
});
