/**
 * Sign-in with providers in the example SPA, in headless Chromium (issue 40), against
 * `fragment-cli serve` started like `deno task start` with `OIDC_*` pointing at a real OpenID
 * Provider (`oidc-provider` on 127.0.0.1) and `GITHUB_*` at a local stand-in for GitHub: the
 * "Continue with Acme SSO" button → the provider's login and consent pages → back in the app,
 * signed up (`/me`); sign out and back in to the same account; "Connect GitHub"; "Disconnect";
 * the last way in refused; signing in with GitHub reaches the same account. With a passkey added
 * (Chromium's virtual authenticator), the provider's sign-in comes back with `twoFactorChallenge=`
 * and `twoFactorMethods=passkey`: the app removes them from the address bar, asks for the second
 * step with the passkey alone, and "Use a passkey" signs in.
 * The app is reached at `localhost` and the providers at `127.0.0.1`: other sites, as in
 * production.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { launchChromium, NO_BROWSER } from "../helpers/browser.ts";
import { closedPort } from "../helpers/local_server.ts";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc_provider.ts";
import { type GitHubStandIn, startGitHubStandIn } from "../helpers/github_stand_in.ts";
import { newPage, startTaskArgs, WAIT } from "../helpers/spa_pages.ts";
import { sessionCookies, virtualAuthenticator } from "../helpers/spa_two_factor.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };

/** `GET /api/auth/me` from the page (its cookie). */
function me(
  page: Page,
): Promise<
  { status: number; body: { user?: { id: string; email: string; emailVerified: boolean } } }
> {
  return page.evaluate(async () => {
    const response = await fetch("/api/auth/me");
    return { status: response.status, body: await response.json() };
  });
}

describe("the example SPA's sign-in providers in a real browser", () => {
  const dir = tempDir();
  let server: ServeProcess | undefined;
  let browser: Browser | undefined;
  let op: TestOidcProvider | undefined;
  let github: GitHubStandIn | undefined;
  after(async () => {
    await browser?.close();
    await server?.stop();
    await op?.close();
    await github?.close();
    dir.remove();
  });

  it(
    "Continue with a provider through login and consent to /me; again after signing out; Connect and Disconnect",
    slow,
    async () => {
      const port = await closedPort();
      const app = `http://localhost:${port}`;
      op = await startOidcProvider({ redirectUris: [`${app}/api/auth/oauth/oidc/callback`] });
      github = await startGitHubStandIn();
      github.account = {
        id: 9001,
        emails: [{ email: "octo-spa@example.com", primary: true, verified: true }],
        userStatus: 200,
      };
      server = await startServe(
        [...startTaskArgs(), "--port", String(port), "--host", "127.0.0.1"],
        {
          cwd: dir.path,
          env: {
            PUBLIC_ORIGIN: app,
            OIDC_ISSUER: op.issuer,
            OIDC_CLIENT_ID: op.clientId,
            OIDC_CLIENT_SECRET: op.clientSecret,
            OIDC_NAME: "Acme SSO",
            GITHUB_CLIENT_ID: github.client.clientId,
            GITHUB_CLIENT_SECRET: github.client.clientSecret,
            GITHUB_WEB_ORIGIN: github.url,
            GITHUB_API_ORIGIN: `${github.url}/api/v3`,
          },
        },
      );
      browser = await launchChromium();
      const { context, page } = await newPage(browser);
      const email = "spa-oidc@example.com";
      await page.goto(app);

      // Sign up through the provider's own pages.
      await page.getByRole("button", { name: "Continue with Acme SSO" }).click();
      await page.locator('input[name="login"]').fill(email);
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.locator("#user-email", { hasText: email }).waitFor(WAIT);
      assert.equal(new URL(page.url()).origin, app);
      const first = await me(page);
      assert.equal(first.status, 200);
      assert.equal(first.body.user!.email, email);
      assert.equal(first.body.user!.emailVerified, true);
      await page.getByText(`Acme SSO · ${email}`).waitFor(WAIT);

      // Sign out, then back in: the same account.
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByRole("button", { name: "Continue with Acme SSO" }).click();
      await page.locator("#user-email", { hasText: email }).waitFor(WAIT);
      assert.equal((await me(page)).body.user!.id, first.body.user!.id);

      // Connect GitHub, then disconnect the first provider; the last one stays.
      await page.getByRole("button", { name: "Connect GitHub" }).click();
      await page.getByText("GitHub · octo-spa@example.com").waitFor(WAIT);
      await page.getByRole("listitem").filter({ hasText: "Acme SSO ·" })
        .getByRole("button", { name: "Disconnect" }).click();
      await page.getByText(`Acme SSO · ${email}`).waitFor({ state: "detached", ...WAIT });
      await page.getByRole("button", { name: "Connect Acme SSO" }).waitFor(WAIT);
      await page.getByRole("listitem").filter({ hasText: "GitHub ·" })
        .getByRole("button", { name: "Disconnect" }).click();
      await page.getByText(/last way in/).waitFor(WAIT);
      await page.getByText("GitHub · octo-spa@example.com").waitFor(WAIT);

      // Signed out, "Continue with GitHub" reaches the same account.
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      await page.locator("#user-email", { hasText: email }).waitFor(WAIT);
      assert.equal((await me(page)).body.user!.id, first.body.user!.id);

      // With a passkey, the provider's sign-in asks for the second step.
      await virtualAuthenticator(page);
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByText("The passkey Passkey 1 was added").waitFor(WAIT);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      const step = page.locator("#second-step-view");
      await step.getByRole("button", { name: "Use a passkey" }).waitFor(WAIT);
      assert.equal(new URL(page.url()).search, "", "the challenge left the address bar");
      // Only the ways the callback listed (a passkey, no TOTP): no code form, no recovery code.
      assert.equal(await page.locator("#second-step-code").isHidden(), true);
      assert.equal(await page.locator("#use-recovery-code").isHidden(), true);
      assert.deepEqual(await sessionCookies(context), [], "no credential before the passkey");
      await step.getByRole("button", { name: "Use a passkey" }).click();
      await page.locator("#user-email", { hasText: email }).waitFor(WAIT);
      assert.equal((await me(page)).body.user!.id, first.body.user!.id);
      await context.close();
    },
  );
});
