/**
 * Headless Chromium for the browser tests, driven by `playwright-core` (no browser download: it
 * drives the Debian package `chromium`, which `.ci/run` installs). Without it the tests skip and
 * say why.
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
import { existsSync } from "node:fs";
import process from "node:process";
import { type Browser, chromium } from "playwright-core";

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM: string = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Why the browser tests skip (a `skip` option value), or `false` when Chromium is there. */
export const NO_BROWSER: string | false = existsSync(CHROMIUM)
  ? false
  : `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) ` +
    "or set CHROMIUM_PATH to run the browser tests";

if (NO_BROWSER) console.log(`Skipping the browser tests: ${NO_BROWSER}`);

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
