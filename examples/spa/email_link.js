// Passwordless sign-in (email links): "Email me a sign-in link" on the sign-in screen mails a link
// to the address in its Email field (POST /sign-in/email-link: the same answer for every address),
// and the page the link opens (#sign-in-link?token=…, the token in the fragment, which no server
// receives) signs in with one click (POST /sign-in/email-link/verify). Opening the link consumes
// nothing, so a mail scanner that fetches it, or runs its script, leaves it working. For an account
// with a second factor the link's answer is a challenge: sign_in.js's `finish` asks for the second
// step. Text from the server is only ever set as textContent.

/**
 * Wires the button and the link's page; `app` gives what they share with app.js.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   inform: (text: string | null) => void,
 *   start: () => Promise<void>,
 *   finish: (result: { data: any, error: { message: string } | null }) => Promise<boolean>,
 * }} app
 */
export function setupEmailLink({ client, $, say, inform, start, finish }) {
  /** The token of the link's fragment (`#sign-in-link?token=…`). */
  function linkToken() {
    return new URLSearchParams(location.hash.split("?")[1] ?? "").get("token") ?? "";
  }

  /** Shows the link's page when the address is one; `true` when it did. */
  function openLinkPage() {
    if (!location.hash.startsWith("#sign-in-link")) return false;
    for (const view of ["loading", "signed-out", "signed-in", "reset-view", "confirm-view"]) {
      $(view).hidden = true;
    }
    $("link-view").hidden = false;
    return true;
  }

  $("email-link").addEventListener("click", async () => {
    const field = /** @type {HTMLInputElement} */ (
      $("credentials").querySelector('input[name="email"]')
    );
    if (!field.reportValidity()) return;
    inform(null);
    // Back to this page after signing in (the server checks it is one of the app's).
    const { data, error } = await client.emailLink.send({
      email: field.value,
      redirectTo: location.pathname,
    });
    say(error);
    if (!error) inform(`${data.message}. Open it within 15 minutes.`);
  });

  $("email-link-sign-in").addEventListener("click", async () => {
    const result = await client.emailLink.verify({ token: linkToken() });
    // The token leaves the address bar (and the history) either way.
    history.replaceState(null, "", location.pathname);
    $("link-view").hidden = true;
    inform(null);
    // Signed in (to the page the link was asked from), or asked for the second step.
    if (await finish(result)) return;
    await start();
  });

  return { openLinkPage };
}
