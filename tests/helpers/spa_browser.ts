/**
 * Helpers of the example SPA's browser journeys (account_journeys.test.ts,
 * spa_permissions.test.ts): `fragment-cli serve` with the arguments of `deno task start`, the
 * links the server prints instead of mailing them, pages and the sign-in form.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ServeProcess } from "./cli_process.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** How long a journey waits for the page to show something. */
export const WAIT = { timeout: 30_000 };

/** What `deno task start` runs after `serve`, the repository's paths made absolute. */
export function startTaskArgs(): string[] {
  const task: string = JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).tasks.start;
  const words = task.split(/\s+/);
  const args = words.slice(words.indexOf("serve") + 1);
  return args.map((arg) => (existsSync(join(root, arg)) ? join(root, arg) : arg));
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

/** A page in a fresh context (its own cookies), printing the page's errors. */
export async function newPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 1400 } });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return { context, page };
}

/**
 * Signs up or in on the sign-in screen, by role and name: waits for the `#credentials` form to be
 * on screen (the SPA attaches a screen only once it is shown), then for "Signed in as".
 */
export async function credentials(page: Page, email: string, password: string, action: string) {
  const form = page.locator("#credentials");
  await form.waitFor({ state: "visible", ...WAIT });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: action, exact: true }).click();
  await page.getByText(`Signed in as ${email}`).waitFor(WAIT);
}
