// The sign-in answers of the example SPA: the credentials form (Sign in, Sign up), "Sign in with a
// passkey", and the second step that a sign-in of an account with a second factor asks for. A
// first step that succeeds for such an account answers `{ twoFactorRequired, challenge, methods }`
// and sets no cookie; this screen answers the challenge with a code from the authenticator app, a
// recovery code or a passkey (only the ways `methods` lists). Email links answer the same way
// (email_link.js hands its answer to `finish`), and a provider's callback comes back with
// `?twoFactorChallenge=…&twoFactorMethods=…`, read here and removed from the address bar. Text
// from the server is only ever set as textContent.

/** Every way of answering: what a listed method must be among, and what a bare challenge offers. */
const ALL_METHODS = ["totp", "recoveryCode", "passkey"];

/** The views the second step replaces. */
const OTHER_VIEWS = [
  "loading",
  "signed-in",
  "reset-view",
  "confirm-view",
  "link-view",
  "sign-in-view",
  "forgot-view",
];

/**
 * Wires the sign-in screen's buttons and the second step; `app` gives what they share with app.js.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   inform: (text: string | null) => void,
 *   start: () => Promise<void>,
 *   showSignedOut: () => void,
 * }} app
 */
export function setupSignIn({ client, $, say, inform, start, showSignedOut }) {
  /** The challenge being answered and the ways it may be, or `null`. */
  let pending = null;

  /**
   * Handles a sign-in's answer: an error is shown (`false`), a challenge opens the second step,
   * a credential (the cookie is set) loads the signed-in page, or the page it was started from.
   */
  async function finish({ data, error }) {
    say(error);
    if (error) return false;
    if ("twoFactorRequired" in data) {
      ask(data);
      return true;
    }
    hide();
    if (data.redirectTo && data.redirectTo !== location.pathname) {
      location.assign(data.redirectTo);
      return true;
    }
    await start();
    return true;
  }

  /** Shows the second step for `challenge`, offering the ways `methods` lists. */
  function ask({ challenge, methods = ALL_METHODS }) {
    pending = { challenge, methods };
    for (const view of OTHER_VIEWS) $(view).hidden = true;
    $("signed-out").hidden = false;
    $("second-step-view").hidden = false;
    use(
      methods.includes("totp") ? "totp" : methods.includes("recoveryCode") ? "recoveryCode" : null,
    );
  }

  /** Shows the form of `method` (`null`: none, a passkey is the only way) and the others' buttons. */
  function use(method) {
    const { methods } = pending;
    $("second-step-code").hidden = method !== "totp";
    $("second-step-recovery").hidden = method !== "recoveryCode";
    $("use-code").hidden = method === "totp" || !methods.includes("totp");
    $("use-recovery-code").hidden = method === "recoveryCode" || !methods.includes("recoveryCode");
    $("use-passkey").hidden = !methods.includes("passkey");
    const form = method === "totp" ? "second-step-code" : "second-step-recovery";
    if (method) $(form).querySelector("input")?.focus();
  }

  /** Leaves the second step (the sign-in screen is app.js's to show). */
  function hide() {
    pending = null;
    $("second-step-code").reset();
    $("second-step-recovery").reset();
    $("second-step-view").hidden = true;
  }

  /**
   * Opens the second step when the address carries a provider's `twoFactorChallenge` (in the query,
   * or in the fragment's query), offering the ways its `twoFactorMethods` lists; removes both from
   * the address bar first. `true` when it did.
   */
  function openFromAddress() {
    const query = new URLSearchParams(location.search);
    const [fragment, fragmentQuery = ""] = location.hash.split("?");
    const inFragment = new URLSearchParams(fragmentQuery);
    const challenge = query.get("twoFactorChallenge") ?? inFragment.get("twoFactorChallenge");
    if (!challenge) return false;
    const listed = query.get("twoFactorMethods") ?? inFragment.get("twoFactorMethods");
    const methods = listed?.split(",").filter((method) => ALL_METHODS.includes(method));
    for (const name of ["twoFactorChallenge", "twoFactorMethods"]) {
      query.delete(name);
      inFragment.delete(name);
    }
    const search = query.size > 0 ? `?${query}` : "";
    const hash = inFragment.size > 0 ? `${fragment}?${inFragment}` : fragment;
    history.replaceState(null, "", location.pathname + search + hash);
    ask({ challenge, methods: methods?.length ? methods : ALL_METHODS });
    return true;
  }

  /** Sends one answer of the second step; a challenge that is gone sends back to the sign-in. */
  async function answer(pendingResult, form) {
    const result = await pendingResult;
    form?.reset();
    const code = result.error?.code;
    if (code === "INVALID_TWO_FACTOR_CHALLENGE" || code === "TWO_FACTOR_CHALLENGE_EXPIRED") {
      hide();
      showSignedOut();
      return say(result.error);
    }
    await finish(result);
  }

  $("credentials").addEventListener("submit", async (event) => {
    event.preventDefault();
    inform(null);
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const fields = new FormData(form);
    const credentials = {
      email: String(fields.get("email")),
      password: String(fields.get("password")),
    };
    const signUp = event.submitter?.getAttribute("value") === "sign-up";
    const result = await (signUp ? client.signUp(credentials) : client.signIn(credentials));
    if (await finish(result)) form.reset();
  });

  $("passkey-sign-in").addEventListener("click", async () => {
    inform(null);
    await finish(await client.signIn.withPasskey());
  });

  $("second-step-code").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const code = String(new FormData(form).get("code"));
    await answer(client.signIn.twoFactor({ challenge: pending.challenge, code }), form);
  });

  $("second-step-recovery").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const recoveryCode = String(new FormData(form).get("recoveryCode")).trim();
    await answer(client.signIn.twoFactor({ challenge: pending.challenge, recoveryCode }), form);
  });

  $("use-code").addEventListener("click", () => use("totp"));
  $("use-recovery-code").addEventListener("click", () => use("recoveryCode"));
  $("use-passkey").addEventListener("click", async () => {
    say(null);
    await answer(client.signIn.twoFactorWithPasskey({ challenge: pending.challenge }));
  });
  $("second-step-cancel").addEventListener("click", () => {
    hide();
    say(null);
    showSignedOut();
  });

  return { finish, hide, openFromAddress };
}
