/**
 * Where the browser tests find Chromium, and why they skip when it is not there. Apart from
 * `browser.ts` so that the test runner (scripts/test.ts) can print the reason without loading
 * playwright-core: the runners' dot reporters do not show what a test file prints.
 *
 * @example
 * ```ts ignore
 * import { NO_BROWSER } from "./chromium_path.ts";
 *
 * if (NO_BROWSER) console.log(`browser tests skipped: ${NO_BROWSER}`);
 * ```
 *
 * @module
 */
import { existsSync } from "node:fs";
import process from "node:process";

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM: string = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Why the browser tests skip (a `skip` option value), or `false` when Chromium is there. */
export const NO_BROWSER: string | false = existsSync(CHROMIUM)
  ? false
  : `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set ` +
    "CHROMIUM_PATH to run the browser tests";
