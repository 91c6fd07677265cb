// The account lifecycle screens of the example SPA, apart from app.js: the forgotten
// password form, the pages the mailed links open (#reset-password, #confirm-email), the outcome
// of a verification link (?emailVerified / ?emailVerification), the "Verify your email" notice,
// the invitations addressed to the user (Accept, Reject), and the account area (change password,
// sessions, change email, delete account). Text from the server is set as textContent only.

/**
 * Wires the account screens; `app` gives what they share with app.js.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   act: (pending: Promise<{ error: unknown }>) => Promise<boolean>,
 *   showSignedOut: () => void,
 *   start: () => Promise<void>,
 * }} app
 */
export function setupAccount(app) {
  const { client, $, say, act } = app;

  /** A success message (or none). */
  function inform(text) {
    $("info").textContent = text ?? "";
  }

  /** The token of a link page's hash (`#reset-password?token=…`). */
  function hashToken() {
    const query = location.hash.split("?")[1] ?? "";
    return new URLSearchParams(query).get("token") ?? "";
  }

  /** Drops the link's token and outcome from the address bar (and from the history). */
  function cleanAddress() {
    history.replaceState(null, "", location.pathname);
  }

  function showOnly(id) {
    for (const view of ["signed-out", "signed-in", "reset-view", "confirm-view"]) {
      $(view).hidden = view !== id;
    }
    $("loading").hidden = true;
  }

  function showSignIn() {
    $("sign-in-view").hidden = false;
    $("forgot-view").hidden = true;
  }

  /**
   * Opens the page a mailed link asks for; `true` when one was opened (then app.js does not
   * load the signed-in state). Opening a link consumes nothing: the token is posted only when
   * the user submits.
   */
  function openLinkPage() {
    const query = new URLSearchParams(location.search);
    if (query.get("emailVerified") === "true") {
      inform("Your email address is verified.");
      cleanAddress();
    } else if (query.has("emailVerification")) {
      const outcome = query.get("emailVerification");
      say({
        message: outcome === "expired"
          ? "The verification link has expired: sign in and send another."
          : outcome === "rate-limited"
          ? "Too many attempts: try the link again later."
          : "The verification link is invalid or was already used.",
      });
      cleanAddress();
    }
    if (location.hash.startsWith("#reset-password")) {
      showOnly("reset-view");
      return true;
    }
    if (location.hash.startsWith("#confirm-email")) {
      showOnly("confirm-view");
      return true;
    }
    return false;
  }

  /** Renders the parts of the signed-in page that are about the account. */
  async function renderAccount(me) {
    $("verify-notice").hidden = me.user.emailVerified;
    $("verify-address").textContent = me.user.email;
    $("my-invitations").hidden = me.invitations.length === 0;
    $("my-invitations-list").replaceChildren(...me.invitations.map(invitationItem));
    await renderSessions();
  }

  function invitationItem(entry) {
    const li = document.createElement("li");
    li.textContent = `${entry.organization.name} invites you as ${
      entry.invitation.roles.join(", ")
    }`;
    for (const [label, action] of [["Accept", "accept"], ["Reject", "reject"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener(
        "click",
        () => act(client.invitations[action](entry.invitation.id, {})),
      );
      li.append(button);
    }
    return li;
  }

  async function renderSessions() {
    const { data, error } = await client.sessions.list();
    if (error) return say(error);
    $("sessions-list").replaceChildren(...data.sessions.map(sessionItem));
  }

  function sessionItem(session) {
    const li = document.createElement("li");
    const used = session.lastUsedAt ?? session.createdAt;
    li.textContent = `${session.userAgent ?? "Unknown device"} · last used ${
      new Date(used).toLocaleString()
    }${session.current ? " · this device" : ""}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Revoke";
    button.addEventListener("click", async () => {
      const { error } = await client.sessions.revoke(session.id);
      if (error) return say(error);
      if (session.current) return app.showSignedOut();
      await renderSessions();
    });
    li.append(button);
    return li;
  }

  // A link opened in a tab already showing the app changes only the fragment.
  addEventListener("hashchange", () => void (openLinkPage() || app.start()));

  $("show-forgot").addEventListener("click", () => {
    $("sign-in-view").hidden = true;
    $("forgot-view").hidden = false;
    say(null);
  });
  $("back-to-sign-in").addEventListener("click", showSignIn);

  $("forgot-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const email = String(new FormData(form).get("email"));
    const { data, error } = await client.password.forgot({ email });
    say(error);
    if (error) return;
    inform(data.message);
    form.reset();
    showSignIn();
  });

  $("reset-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const password = String(new FormData(form).get("password"));
    const { error } = await client.password.reset({ token: hashToken(), password });
    say(error);
    if (error) return;
    form.reset();
    cleanAddress();
    inform("Your password was changed and every session signed out: sign in with the new one.");
    showSignIn();
    app.showSignedOut();
  });

  $("confirm-email").addEventListener("click", async () => {
    const { data, error } = await client.email.confirm({ token: hashToken() });
    say(error);
    if (error) return;
    cleanAddress();
    inform(`Your email address is now ${data.user.email}.`);
    await app.start();
  });

  $("resend-verification").addEventListener("click", async () => {
    const { error } = await client.resendVerificationEmail();
    say(error);
    if (!error) inform("A new verification link is on its way.");
  });

  $("change-password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const fields = new FormData(form);
    const { data, error } = await client.password.change({
      currentPassword: String(fields.get("currentPassword")),
      newPassword: String(fields.get("newPassword")),
    });
    say(error);
    if (error) return;
    form.reset();
    inform(`Password changed; ${data.revokedSessions} other session(s) signed out.`);
    await renderSessions();
  });

  $("revoke-others").addEventListener("click", async () => {
    const { data, error } = await client.sessions.revokeOthers();
    say(error);
    if (error) return;
    inform(`${data.revokedSessions} other session(s) signed out.`);
    await renderSessions();
  });

  $("change-email-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const fields = new FormData(form);
    const { data, error } = await client.email.change({
      newEmail: String(fields.get("newEmail")),
      password: String(fields.get("password")),
    });
    say(error);
    if (error) return;
    form.reset();
    inform(data.message);
  });

  $("delete-account-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const password = String(new FormData(form).get("password"));
    const { error } = await client.account.delete({ password });
    say(error);
    if (error) return;
    form.reset();
    inform("Your account was deleted.");
    app.showSignedOut();
  });

  return { openLinkPage, renderAccount, showSignIn, inform };
}
