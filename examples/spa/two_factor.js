// The account area's "Two-factor authentication" section: the account's second factors
// (GET /two-factor), setting up an authenticator app (the password, then a QR code of the
// `otpauth://` URL and the key as text, then a first code to enable it), the recovery codes shown
// once after enabling (or after "New recovery codes"), and "Disable". The QR code is drawn in the
// browser (qr.js, generated from the npm package uqr): the key goes to no other service. Text from
// the server is only ever set as textContent; the QR code is an image of squares.
import { renderSVG } from "./qr.js";

/**
 * Wires the section; `render()` shows the account's state.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   inform: (text: string | null) => void,
 *   refresh: () => Promise<boolean>,
 * }} app
 */
export function setupTwoFactor({ client, $, say, inform, refresh }) {
  /** Whether a setup waits for its first code (the QR code is on screen). */
  let enrolling = false;
  /** Recovery codes to show until the user says they saved them, or `null`. */
  let codes = null;

  /** What the status means for the user's sign-ins. */
  function describe({ totp, recoveryCodesLeft, passkeys }) {
    if (totp) {
      return `On: signing in with a password asks for a code from your authenticator app${
        passkeys > 0 ? " or a passkey" : ""
      }. ${recoveryCodesLeft} recovery code(s) left.`;
    }
    if (passkeys > 0) {
      return "On: signing in with a password asks for one of your passkeys. You can set up an " +
        "authenticator app too.";
    }
    return "Off: your password alone signs you in. Set up an authenticator app, or add a passkey, " +
      "to be asked for a second factor.";
  }

  async function render() {
    const { data, error } = await client.twoFactor.status();
    if (error) return say(error);
    if (data.totp) enrolling = false;
    $("two-factor-status").textContent = describe(data);
    $("totp-setup-form").hidden = data.totp || enrolling;
    $("totp-enrol").hidden = !enrolling;
    $("totp-manage-form").hidden = !data.totp;
    showCodes();
  }

  function showCodes() {
    $("recovery-codes-view").hidden = codes === null;
    $("recovery-codes").replaceChildren(
      ...(codes ?? []).map((code) => {
        const li = document.createElement("li");
        li.textContent = code;
        return li;
      }),
    );
  }

  /** Forgets what only this signed-in user may see (on sign-out). */
  function reset() {
    enrolling = false;
    codes = null;
    $("totp-qr").removeAttribute("src");
    $("totp-secret").textContent = "";
    showCodes();
  }

  /** The QR code of `url` as an SVG image (a quiet zone of 4 modules, as scanners expect). */
  function qrImage(url) {
    const svg = renderSVG(url, { ecc: "M", border: 4, pixelSize: 8 });
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  }

  $("totp-setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const password = String(new FormData(form).get("password"));
    inform(null);
    const { data, error } = await client.twoFactor.setupTotp({ password });
    say(error);
    if (error) return;
    form.reset();
    enrolling = true;
    /** @type {HTMLImageElement} */ ($("totp-qr")).src = qrImage(data.otpauthUrl);
    // In groups of four, as authenticator apps show keys (they ignore the spaces).
    $("totp-secret").textContent = data.secret.match(/.{1,4}/g).join(" ");
    $("totp-setup-form").hidden = true;
    $("totp-enrol").hidden = false;
    $("totp-enable-form").querySelector("input")?.focus();
  });

  $("totp-enable-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const code = String(new FormData(form).get("code"));
    const { data, error } = await client.twoFactor.enableTotp({ code });
    say(error);
    if (error) return;
    form.reset();
    enrolling = false;
    codes = data.recoveryCodes;
    $("totp-qr").removeAttribute("src");
    $("totp-secret").textContent = "";
    inform("Two-factor authentication is on.");
    // GET /me again: an organization that requires a second factor admits the user now.
    await refresh();
  });

  $("totp-manage-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const password = String(new FormData(form).get("password"));
    inform(null);
    if (event.submitter?.getAttribute("value") === "disable") {
      const { error } = await client.twoFactor.disable({ password });
      say(error);
      if (error) return;
      form.reset();
      codes = null;
      inform("The authenticator app and the recovery codes were removed.");
      return void await refresh();
    }
    const { data, error } = await client.twoFactor.regenerateRecoveryCodes({ password });
    say(error);
    if (error) return;
    form.reset();
    codes = data.recoveryCodes;
    inform("New recovery codes: the previous ones no longer work.");
    await render();
  });

  $("recovery-codes-saved").addEventListener("click", () => {
    codes = null;
    inform(null);
    showCodes();
  });

  return { render, reset };
}
