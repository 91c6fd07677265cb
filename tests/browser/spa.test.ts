/**
 * The example SPA (examples/spa/) in headless Chromium against `fragment-cli serve` started with
 * the arguments of `deno task start` (examples/app.ts --static examples/spa): sign up, sign out, sign in, create
 * organizations, list them and the members, invite, switch the active organization, reload (the
 * page starts from one GET /me) and sign out. Once from the API's own origin, once from a second
 * origin (another port serving the same files, configured with the API's absolute address) that
 * the API trusts, through CORS with the cookie. With `UPDATE_SCREENSHOTS=1` the signed-in page's screenshot
 * is saved to docs/images/spa.png (the README shows it).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page, Request as PlaywrightRequest } from "playwright-core";
import { staticFiles } from "../../src/core/static_files.ts";
import { type ServeProcess, startServe, tempDir } from "../helpers/cli_process.ts";
import { docsScreenshot, launchChromium, NO_BROWSER } from "../helpers/browser.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { startTaskArgs } from "../helpers/spa_pages.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const spa = join(root, "examples/spa");
const screenshot = docsScreenshot("spa.png");
const slow = { timeout: 240_000, skip: NO_BROWSER };
const PASSWORD = "correct horse battery";
const WAIT = { timeout: 30_000 };

/**
 * What `deno task start` runs after `serve` (deno.json), the repository's paths made absolute:
 * the test serves exactly what a newcomer starts.
 */
function startArgs(): string[] {
  const args = startTaskArgs();
  assert.ok(args.includes("--static"), `deno task start serves no static folder: ${args}`);
  return args;
}

/** Polls `read` until it answers `expected` (as JSON), or fails after WAIT with the last value. */
async function waitFor<T>(page: Page, what: string, read: () => Promise<T>, expected: T) {
  const deadline = Date.now() + WAIT.timeout;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline) {
      const message = await page.locator("#message").textContent();
      assert.deepEqual(last, expected, `${what} (the page's message: "${message}")`);
    }
    await page.waitForTimeout(100);
    last = await read();
  }
}

/** Waits until the element of `selector` shows exactly `text`. */
function waitText(page: Page, selector: string, text: string): Promise<void> {
  return waitFor(page, selector, () => page.locator(selector).textContent(), text);
}

/** Waits until the list of `selector` shows exactly the items `texts`. */
function waitItems(page: Page, selector: string, texts: string[]): Promise<void> {
  return waitFor(page, selector, () => page.locator(`${selector} > li`).allTextContents(), texts);
}

/** An API call a page made: `GET /api/auth/me`, and the response's headers once it came. */
interface ApiCall {
  call: string;
  headers?: Record<string, string>;
}

/** The calls a page makes to `apiOrigin`, from now on, in the order it sends them. */
function recordApiCalls(page: Page, apiOrigin: string): ApiCall[] {
  const calls: ApiCall[] = [];
  const byRequest = new Map<PlaywrightRequest, ApiCall>();
  page.on("request", (request) => {
    if (!request.url().startsWith(`${apiOrigin}/api/`)) return;
    const call = { call: `${request.method()} ${new URL(request.url()).pathname}` };
    byRequest.set(request, call);
    calls.push(call);
  });
  page.on("response", (response) => {
    const call = byRequest.get(response.request());
    if (call) call.headers = response.headers();
  });
  return calls;
}

async function submitCredentials(page: Page, email: string, action: "Sign up" | "Sign in") {
  await page.locator("#signed-out").waitFor({ state: "visible", ...WAIT });
  const form = page.locator("#credentials");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: action, exact: true }).click();
  await waitText(page, "#user-email", email);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.locator("#signed-out").waitFor({ state: "visible", ...WAIT });
}

/**
 * The whole flow on the SPA at `pageOrigin`, whose API is at `apiOrigin`; `email` is a new user's.
 * Answers the API calls the page made.
 */
async function spaFlow(
  browser: Browser,
  options: {
    pageOrigin: string;
    apiOrigin: string;
    email: string;
    /** Appended to the organizations' slugs, unique across one server. */
    slugSuffix: string;
    screenshot?: string;
  },
): Promise<ApiCall[]> {
  const { pageOrigin, apiOrigin, email } = options;
  const engines = `engines${options.slugSuffix}`;
  const difference = `difference${options.slugSuffix}`;
  const context = await browser.newContext({ viewport: { width: 900, height: 760 } });
  const page = await context.newPage();
  const api = recordApiCalls(page, apiOrigin);
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));

  await page.goto(`${pageOrigin}/`);
  await submitCredentials(page, email, "Sign up");
  await signOut(page);
  await submitCredentials(page, email, "Sign in");

  // The first organization becomes the active one; its members are the owner alone.
  await page.getByLabel("Name").fill("Analytical Engines");
  await page.getByLabel("Slug").fill(engines);
  await page.getByRole("button", { name: "Create organization" }).click();
  await waitItems(page, "#organizations", [`Analytical Engines · ${engines}active`]);
  await waitText(page, "#active-name", "Analytical Engines");
  await waitItems(page, "#members", [`${email} (you) · owner`]);

  await page.getByLabel("Name").fill("Difference Engines");
  await page.getByLabel("Slug").fill(difference);
  await page.getByRole("button", { name: "Create organization" }).click();
  await waitItems(page, "#organizations", [
    `Analytical Engines · ${engines}active`,
    `Difference Engines · ${difference}Switch`,
  ]);

  await page.locator("#invite").getByLabel("Email").fill("grace@example.com");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await waitItems(page, "#invitations", ["grace@example.com · member"]);
  if (options.screenshot) {
    await page.screenshot({ path: options.screenshot });
  }

  await page.getByRole("button", { name: "Switch to Difference Engines" }).click();
  await waitText(page, "#active-name", "Difference Engines");
  await waitItems(page, "#organizations", [
    `Analytical Engines · ${engines}Switch`,
    `Difference Engines · ${difference}active`,
  ]);
  await waitItems(page, "#invitations", []);
  await waitItems(page, "#members", [`${email} (you) · owner`]);

  // A reload starts from one GET /me: the user, the organizations and the active one come back.
  const before = api.length;
  await page.reload();
  await waitText(page, "#user-email", email);
  await waitText(page, "#active-name", "Difference Engines");
  await waitItems(page, "#members", [`${email} (you) · owner`]);
  const afterReload = api.slice(before).map((c) => c.call);
  assert.equal(afterReload[0], "GET /api/auth/me", JSON.stringify(afterReload));
  assert.equal(afterReload.filter((r) => r === "GET /api/auth/me").length, 1, `${afterReload}`);

  await signOut(page);
  await page.reload();
  await page.locator("#signed-out").waitFor({ state: "visible", ...WAIT });
  assert.deepEqual((await context.cookies(apiOrigin)).filter((c) => c.name === "service_auth"), []);
  assert.equal(await page.locator("#message").textContent(), "");
  await context.close();
  return api;
}

describe("the example SPA in a real browser", () => {
  const dir = tempDir();
  let api: ServeProcess | undefined;
  let elsewhere: LocalServer | undefined;
  let browser: Browser | undefined;
  // Started inside the tests, not a hook: Bun's hooks ignore the timeout option.
  let started: Promise<void> | undefined;
  const setup = (): Promise<void> =>
    started ??= (async () => {
      // The second origin serves the same files, with config.js pointing at the API's address.
      const files = staticFiles(spa);
      let config = "";
      elsewhere = await listenLocal(async (request) => {
        if (new URL(request.url).pathname === "/config.js") {
          return new Response(config, { headers: { "content-type": "text/javascript" } });
        }
        return await files(request) ?? new Response("not found", { status: 404 });
      });
      api = await startServe(
        [...startArgs(), "--port", "0", "--host", "127.0.0.1"],
        { cwd: dir.path, env: { TRUSTED_ORIGINS: elsewhere.url } },
      );
      config = `export const API_BASE_URL = ${JSON.stringify(`${api.url}/api/auth`)};\n`;
      browser = await launchChromium();
    })();
  after(async () => {
    await browser?.close();
    await elsewhere?.close();
    await api?.stop();
    dir.remove();
  });

  it("runs the whole flow from the API's own origin", slow, async () => {
    await setup();
    await spaFlow(browser!, {
      pageOrigin: api!.url,
      apiOrigin: api!.url,
      email: "ada@example.com",
      slugSuffix: "",
      screenshot,
    });
  });

  it(
    "runs the whole flow from a second, trusted origin through CORS with cookies",
    slow,
    async () => {
      await setup();
      const calls = await spaFlow(browser!, {
        pageOrigin: elsewhere!.url,
        apiOrigin: api!.url,
        email: "charles@example.com",
        slugSuffix: "-2",
      });
      // Cross-origin indeed: the API answered the page's origin, credentials allowed.
      const headers = calls.find((c) => c.call === "GET /api/auth/me")?.headers ?? {};
      assert.equal(headers["access-control-allow-origin"], elsewhere!.url);
      assert.equal(headers["access-control-allow-credentials"], "true");
    },
  );
});
