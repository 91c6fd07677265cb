/**
 * What the browser tests of the example SPA's second factors share: TOTP codes computed from the
 * key the page shows (with `otpauth`, the library the module checks them with), the setup of an
 * authenticator app from the account area, a password sign-in that stops at the second step, and
 * Chromium's virtual authenticator for passkeys.
 *
 * @example
 * ```ts ignore
 * const { codes, recoveryCodes } = await enableTotpInSpa(page, "correct horse battery");
 * await passwordStep(page, "ada@example.com", "correct horse battery");
 * await page.getByLabel("Verification code").fill(await codes.next());
 * ```
 */
import assert from "node:assert/strict";
import jsQR from "jsqr";
import { Secret, TOTP } from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { WAIT } from "./spa_pages.ts";

/**
 * jsQR's function: the package is CommonJS, whose `module.exports` (the function, with itself as
 * `default`) Deno types as the declaration file's namespace.
 */
const readQr = ((jsQR as { default?: unknown }).default ?? jsQR) as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

/** The length of a TOTP time step, in milliseconds. */
const STEP_MS = 30_000;

/** Time a code needs to get from the test to the server (a fill, a click, a request), at most. */
const MARGIN_MS = 10_000;

/**
 * Codes of `secret` the module accepts one after another without waiting: a used code voids its
 * step and every earlier one, so each code is of the step after the last one used, and never more
 * than one step ahead of the clock (the drift allowed); the first is of the step before now, or
 * of the current step when the current one is about to end.
 */
export interface TotpCodes {
  /** The next acceptable code (after a wait when the codes are ahead of the clock's drift). */
  next(): Promise<string>;
  /** A code of a step long past: always refused. */
  stale(): string;
}

/** The {@link TotpCodes} of a base32 key. */
export function totpCodes(secret: string): TotpCodes {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
  let last = -Infinity;
  return {
    async next() {
      const time = Date.now();
      const now = Math.floor(time / STEP_MS);
      // A code of the step before now is accepted only until the current step ends: near its end,
      // the click could reach the server a step too late, so the codes start at the current step.
      const earliest = time - now * STEP_MS > STEP_MS - MARGIN_MS ? now : now - 1;
      const step = Math.max(last + 1, earliest);
      // More codes than the drift allows in one time step: the last one waits for the next step.
      const wait = (step - 1) * STEP_MS - time;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = step;
      return totp.generate({ timestamp: step * STEP_MS });
    },
    stale: () => totp.generate({ timestamp: Date.now() - 10 * STEP_MS }),
  };
}

/** The text a QR image on the page encodes, read by `jsQR` from its pixels. */
export async function decodeQrImage(page: Page, selector: string): Promise<string | undefined> {
  // deno-lint-ignore no-explicit-any
  const image = await page.locator(selector).evaluate(async (img: any) => {
    await img.decode();
    // Drawn at twice its size on white: the reader wants a few pixels per module.
    const size = img.naturalWidth * 2;
    // deno-lint-ignore no-explicit-any
    const canvas = (globalThis as any).document.createElement("canvas");
    canvas.width = canvas.height = size;
    const context = canvas.getContext("2d")!;
    context.fillStyle = "white";
    context.fillRect(0, 0, size, size);
    context.drawImage(img, 0, 0, size, size);
    return { size, data: Array.from(context.getImageData(0, 0, size, size).data) };
  });
  return readQr(Uint8ClampedArray.from(image.data), image.size, image.size)?.data;
}

/**
 * Sets up and enables TOTP from the account area of a signed-in page, as a user would: the
 * password, "Set up", the key the page shows (which the QR image must encode), a code, "Enable".
 * Answers the codes of that key and the recovery codes the page showed.
 */
export async function enableTotpInSpa(
  page: Page,
  password: string,
): Promise<{ codes: TotpCodes; recoveryCodes: string[]; otpauthUrl: string }> {
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  const start = section.getByRole("button", { name: "Set up" });
  await start.waitFor(WAIT);
  await section.getByLabel("Password").fill(password);
  await start.click();
  const key = section.locator("#totp-secret");
  await section.getByRole("img", { name: "QR code" }).waitFor(WAIT);
  const secret = (await key.textContent())!.replace(/\s/g, "");
  assert.match(secret, /^[A-Z2-7]{32}$/, "a 160-bit base32 key");
  const otpauthUrl = await decodeQrImage(page, "#totp-qr");
  assert.ok(otpauthUrl, "the QR image decodes");
  const url = new URL(otpauthUrl);
  assert.equal(url.protocol, "otpauth:");
  assert.equal(url.searchParams.get("secret"), secret, "the QR code carries the key shown");

  const codes = totpCodes(secret);
  await section.getByLabel("Verification code").fill(await codes.next());
  await section.getByRole("button", { name: "Enable" }).click();
  const list = section.locator("#recovery-codes > li");
  await list.first().waitFor(WAIT);
  const recoveryCodes = await list.allTextContents();
  assert.equal(recoveryCodes.length, 10, "10 recovery codes");
  await section.getByText("Keep them somewhere safe").waitFor(WAIT);
  await section.getByText("10 recovery code(s) left").waitFor(WAIT);
  return { codes, recoveryCodes, otpauthUrl };
}

/** Types the email and password and presses "Sign in"; waits for the second step. */
export async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  const form = page.locator("#credentials");
  await form.waitFor({ state: "visible", ...WAIT });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.locator("#second-step-view").waitFor({ state: "visible", ...WAIT });
}

/** Presses "Sign out" and waits for the sign-in screen. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.locator("#credentials").waitFor({ state: "visible", ...WAIT });
}

/** The `service_auth` cookies of a context: none while a sign-in waits for its second step. */
export async function sessionCookies(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).filter((c) => c.name === "service_auth").map((c) => c.value);
}

/**
 * A virtual platform authenticator on the page (CDP's WebAuthn domain): resident keys, user
 * verification, presence simulated. Answers its id.
 */
export async function virtualAuthenticator(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}
