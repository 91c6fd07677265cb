/**
 * Headless Chromium for the browser tests, driven by `playwright-core` (no browser download: it
 * drives the Debian package `chromium`, which `.ci/run` installs). Without it the tests skip, and
 * `deno task test` prints why (chromium_path.ts).
 *
 * @example
 * ```ts ignore
 * import { it } from "node:test";
 * import { launchChromium, NO_BROWSER } from "./browser.ts";
 *
 * it("renders", { skip: NO_BROWSER }, async () => {
 *   const browser = await launchChromium();
 *   const page = await browser.newPage();
 *   await browser.close();
 * });
 * ```
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM, NO_BROWSER } from "./chromium_path.ts";

export { CHROMIUM, NO_BROWSER };

/**
 * Where a browser test saves the screenshot the docs show (`docs/images/<name>`), or `undefined`
 * unless `UPDATE_SCREENSHOTS=1`: a test run leaves the worktree as it found it (a new PNG differs
 * in bytes on every run even when the page does not).
 */
export function docsScreenshot(name: string): string | undefined {
  if (process.env.UPDATE_SCREENSHOTS !== "1") return undefined;
  const path = fileURLToPath(new URL(`../../docs/images/${name}`, import.meta.url));
  mkdirSync(fileURLToPath(new URL("../../docs/images/", import.meta.url)), { recursive: true });
  return path;
}

/**
 * Launches headless Chromium. The flags keep it off the network except for the pages a test
 * opens (no background updates, sync or QUIC probes: a closed network would stall them) and let
 * it run as root in a container (no sandbox).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
