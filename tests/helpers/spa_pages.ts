/**
 * What the browser tests of the example SPA share: the arguments of `deno task start`, a page of
 * its own context, and the sign-in screen driven by role and name.
 *
 * @example
 * ```ts ignore
 * const spa = servedSpa(); // in a describe
 * const { server, browser } = await spa(); // in a test
 * const { page } = await newPage(browser);
 * await page.goto(`${server.url}/`);
 * await credentials(page, "ada@example.com", "correct horse battery", "Create account");
 * ```
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after } from "node:test";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./browser.ts";
import { type ServeProcess, startServe, tempDir } from "./cli_process.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** How long a browser step may wait. */
export const WAIT = { timeout: 30_000 };

/**
 * What `deno task start` runs after `serve`, the repository's paths made absolute (the folder of
 * `--static /react=examples/react` too).
 */
export function startTaskArgs(): string[] {
  const task: string = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).tasks.start;
  const words = task.split(/\s+/);
  const args = words.slice(words.indexOf("serve") + 1);
  return args.map((arg) => {
    const [, mount = "", path] = /^(\/[^=]*=)?(.*)$/.exec(arg)!;
    return existsSync(join(root, path)) ? mount + join(root, path) : arg;
  });
}

/** The server and browser {@link servedSpa} starts. */
export interface ServedSpa {
  /** `deno task start`'s server: PGlite in a temporary directory, a free port on 127.0.0.1. */
  server: ServeProcess;
  /** Chromium, for pages of their own contexts ({@link newPage}). */
  browser: Browser;
}

/**
 * The example app as `deno task start` serves it and a Chromium, for the tests of one `describe`
 * (call it there): the returned function starts both on its first call and answers the same pair
 * after; both stop, and the directory goes, after the suite. Call the function inside a test, not
 * in a hook: Bun's hooks ignore the timeout option, and starting takes seconds.
 */
export function servedSpa(): (options?: { env?: Record<string, string> }) => Promise<ServedSpa> {
  const dir = tempDir();
  let server: ServeProcess | undefined;
  let browser: Browser | undefined;
  let started: Promise<ServedSpa> | undefined;
  after(async () => {
    await browser?.close();
    await server?.stop();
    dir.remove();
  });
  return (options = {}) =>
    started ??= (async () => {
      server = await startServe([...startTaskArgs(), "--port", "0", "--host", "127.0.0.1"], {
        cwd: dir.path,
        env: options.env,
      });
      browser = await launchChromium();
      return { server, browser };
    })();
}

/** Waits for the server to print a link of `kind` for `email`; returns it. */
export async function printedLink(
  server: ServeProcess,
  kind: string,
  email: string,
): Promise<string> {
  const pattern = new RegExp(`\\[auth\\] ${kind} link for ${email.replaceAll(".", "\\.")}: (\\S+)`);
  const deadline = Date.now() + WAIT.timeout;
  for (;;) {
    const matches = [...server.stdout().matchAll(new RegExp(pattern, "g"))];
    if (matches.length > 0) return matches.at(-1)![1];
    if (Date.now() > deadline) assert.fail(`no ${kind} link for ${email} in:\n${server.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 1400 } });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return { context, page };
}

/** Signs up or in on the sign-in screen, by role and name. */
export async function credentials(page: Page, email: string, password: string, action: string) {
  const form = page.locator("#credentials");
  await form.waitFor({ state: "visible", ...WAIT });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: action, exact: true }).click();
  await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
}
