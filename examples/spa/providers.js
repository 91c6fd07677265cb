// Sign-in providers in the example SPA: one "Continue with <name>" button per provider
// the server configures (GET /oauth/providers), the outcome a provider's callback sends the browser
// back with (?error=<code>), and the account area's "Connected accounts": each connected provider
// account with "Disconnect", and "Connect <name>" for the providers not connected yet. Text from
// the server is set as textContent only.

/** What each error code of a provider's callback means to the user. */
const OUTCOMES = {
  ACCOUNT_EXISTS:
    "An account already uses this address. Sign in another way, then connect the provider from your account.",
  IDENTITY_TAKEN: "That account at the provider is already connected to another user.",
  INVALID_OAUTH_STATE: "That sign-in expired or was started in another browser: try again.",
  LINK_SESSION_MISMATCH: "That connection was started in another session: try again.",
  OAUTH_DENIED: "The sign-in was canceled at the provider.",
  OAUTH_EMAIL_MISSING: "The provider gave no email address: allow it, or sign up another way.",
  OAUTH_FAILED: "The provider's answer could not be verified: try again.",
  OAUTH_UNAVAILABLE: "The provider cannot be reached right now: try again later.",
  RATE_LIMITED: "Too many attempts: try again later.",
};

/**
 * Wires the provider screens.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   start: () => Promise<void>,
 * }} app
 */
export function setupProviders({ client, $, say, start }) {
  /** The configured providers, loaded once (none when the server has no `oauth` option). */
  let providers = null;

  async function load() {
    if (providers !== null) return providers;
    const { data } = await client.oauth.providers();
    providers = data?.providers ?? [];
    return providers;
  }

  /** Where the provider sends the browser back: this page, without a query or fragment. */
  const here = () => location.pathname;

  function button(label, onClick) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    element.addEventListener("click", onClick);
    return element;
  }

  /** Shows the outcome a callback came back with, once, and drops it from the address. */
  function showOutcome() {
    const query = new URLSearchParams(location.search);
    const code = query.get("error");
    if (code === null) return;
    say({ message: OUTCOMES[code] ?? `The sign-in failed (${code}).` });
    history.replaceState(null, "", location.pathname + location.hash);
  }

  /** The sign-in screen's "Continue with <name>" buttons. */
  async function renderSignIn() {
    const list = await load();
    $("providers").replaceChildren(
      ...list.map((provider) =>
        button(`Continue with ${provider.name}`, () => {
          location.assign(client.oauth.authorizeUrl(provider.id, { redirectTo: here() }));
        })
      ),
    );
    $("providers").hidden = list.length === 0;
  }

  /** The account area's "Connected accounts". */
  async function renderAccount() {
    const list = await load();
    $("connected").hidden = list.length === 0;
    if (list.length === 0) return;
    const { data, error } = await client.identities.list();
    if (error) return say(error);
    const nameOf = (id) => list.find((provider) => provider.id === id)?.name ?? id;
    $("identities-list").replaceChildren(
      ...data.identities.map((identity) => {
        const li = document.createElement("li");
        li.textContent = `${nameOf(identity.provider)} · ${identity.email ?? "no address"}`;
        li.append(
          button("Disconnect", async () => {
            say(null);
            const { error } = await client.identities.unlink(identity.id);
            if (error) return say(error);
            await renderAccount();
          }),
        );
        return li;
      }),
    );
    const connected = new Set(data.identities.map((identity) => identity.provider));
    $("connect-buttons").replaceChildren(
      ...list.filter((provider) => !connected.has(provider.id)).map((provider) =>
        button(`Connect ${provider.name}`, async () => {
          say(null);
          const { data, error } = await client.oauth.link(provider.id, { redirectTo: here() });
          if (error) return say(error);
          location.assign(data.url);
        })
      ),
    );
  }

  return { showOutcome, renderSignIn, renderAccount, reload: start };
}
