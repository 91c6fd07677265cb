// The example single-page app: every screen comes from the typed auth client (client.js is
// src/client/ bundled for browsers by `deno task spa:client`). On load it asks one thing, GET /me:
// the user, their organizations, the active one and their invitations; the active organization's
// members, pending invitations and audit log follow from it, each shown only when the member's
// permissions (the entry's `permissions`) allow it; an organization that requires a second factor
// the user lacks is listed with a note instead. Text from the server is only ever set as
// textContent, never parsed as HTML.
import { createAuthClient } from "./client.js";
import { API_BASE_URL } from "./config.js";
import { setupAccount } from "./account.js";
import { setupTelegram } from "./telegram.js";
import { setupEmailLink } from "./email_link.js";
import { setupProviders } from "./providers.js";
import { setupSignIn } from "./sign_in.js";
import { setupTwoFactor } from "./two_factor.js";
import { setupPasskeys } from "./passkeys.js";
import { setupOrganizationSettings } from "./organization_settings.js";
import { byId, detachHiddenScreens } from "./screens.js";

const client = createAuthClient({ baseUrl: API_BASE_URL });

/** The active organization's id, as the last GET /me said. */
let activeId = null;

/** An element of the page by id, on screen or not (screens.js). */
const $ = byId;
detachHiddenScreens();

/** Shows a client error (or clears the message). */
function say(error) {
  $("message").textContent = error ? error.message : "";
}

/** Loads GET /me again and renders it (after a change that it reflects). */
const refresh = () => act(Promise.resolve({ error: null }));

// The account lifecycle screens (account.js).
const account = setupAccount({ client, $, say, act, showSignedOut, start });
const { inform } = account;
// Signing in, and the second step of a sign-in (sign_in.js).
const signIn = setupSignIn({ client, $, say, inform, start, showSignedOut });
// The Telegram link (telegram.js).
const telegram = setupTelegram({ client, $, say, start });
// Passwordless sign-in by email link (email_link.js).
const emailLink = setupEmailLink({ client, $, say, inform, start, finish: signIn.finish });
// Second factors: the authenticator app and recovery codes, passkeys (two_factor.js, passkeys.js).
const twoFactor = setupTwoFactor({ client, $, say, inform, refresh });
const passkeys = setupPasskeys({ client, $, say, inform, refresh });
// The active organization's "Require two-factor authentication" (organization_settings.js).
const organizationSettings = setupOrganizationSettings({ client, $, act });
// Sign-in providers and connected accounts (providers.js).
const providers = setupProviders({ client, $, say, start });
providers.showOutcome();

/** Loads the signed-in state from one GET /me and renders it; signed out on 401. */
async function start() {
  // A page a mailed link opened (reset password, confirm email) shows alone, and so does the
  // second step a provider's sign-in came back for.
  if (account.openLinkPage() || emailLink.openLinkPage() || signIn.openFromAddress()) return;
  const { data, error } = await client.me();
  $("loading").hidden = true;
  if (error) {
    showSignedOut();
    if (error.status !== 401) say(error);
    return;
  }
  await showSignedIn(data);
}

function showSignedOut() {
  signIn.hide();
  twoFactor.reset();
  passkeys.reset();
  account.showSignIn();
  $("link-view").hidden = true;
  providers.renderSignIn();
  $("reset-view").hidden = true;
  $("confirm-view").hidden = true;
  $("signed-out").hidden = false;
  $("signed-in").hidden = true;
  $("who").hidden = true;
  $("sign-out").hidden = true;
}

/** Renders the /me payload, then the active organization's members and invitations. */
async function showSignedIn(me) {
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  $("who").hidden = false;
  $("sign-out").hidden = false;
  $("link-view").hidden = true;
  $("user-email").textContent = me.user.email;
  $("reset-view").hidden = true;
  $("confirm-view").hidden = true;
  telegram.render(me);
  await Promise.all([
    account.renderAccount(me),
    providers.renderAccount(),
    twoFactor.render(),
    passkeys.render(),
  ]);

  activeId = me.activeOrganization?.organization.id ?? null;
  const list = $("organizations");
  list.replaceChildren(...me.organizations.map(organizationItem));
  $("no-organizations").hidden = me.organizations.length > 0;

  $("active").hidden = activeId === null;
  if (activeId === null) return;
  $("active-name").textContent = me.activeOrganization.organization.name;
  // Kept out by the organization's second-factor rule: a note instead of its members.
  if (!organizationSettings.render(me.activeOrganization)) return;
  // The UI shows only what the member may do: the entry carries their effective permissions.
  const { member: self, permissions } = me.activeOrganization;
  const may = (permission) => permissions.includes(permission);
  const owner = self.roles.includes("owner");
  $("invite").hidden = !may("invitation:create");
  $("invitations-title").hidden = !may("invitation:list");
  $("invitations").hidden = !may("invitation:list");
  $("audit").hidden = !may("audit:read");
  const none = (name) => Promise.resolve({ data: { [name]: [] }, error: null });
  const [members, invitations, audit] = await Promise.all([
    client.members.list(activeId),
    may("invitation:list") ? client.invitations.list(activeId) : none("invitations"),
    may("audit:read") ? client.organizations.auditLog(activeId, { pageSize: 20 }) : none("entries"),
  ]);
  if (members.error) return say(members.error);
  if (invitations.error) return say(invitations.error);
  if (audit.error) return say(audit.error);
  const nameOf = (userId) => userId === me.user.id ? `${me.user.email} (you)` : userId;
  $("members").replaceChildren(
    ...members.data.members.map((member) => {
      const li = item(nameOf(member.userId), member.roles.join(", "));
      // Owners hand the organization over to another member (who must have verified their email).
      if (owner && member.id !== self.id && !member.roles.includes("owner")) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Transfer ownership";
        button.setAttribute("aria-label", `Transfer ownership to ${member.userId}`);
        button.addEventListener(
          "click",
          () => act(client.organizations.transferOwnership(activeId, member.id)),
        );
        li.append(button);
      }
      return li;
    }),
  );
  $("invitations").replaceChildren(
    ...invitations.data.invitations
      .filter((invitation) => invitation.status === "pending")
      .map((invitation) => item(invitation.email, invitation.roles.join(", "))),
  );
  $("audit-log").replaceChildren(
    ...audit.data.entries.map((entry) =>
      item(
        `${entry.action} by ${entry.actorUserId ? nameOf(entry.actorUserId) : "the server"}`,
        `${entry.target.type} · ${new Date(entry.createdAt).toLocaleString()}`,
      )
    ),
  );
}

/**
 * One organization: its name and slug, a badge when active, a note when it requires a second
 * factor the user lacks, else a button to switch to it.
 */
function organizationItem({ organization, access }) {
  const li = item(organization.name, organization.slug);
  if (organization.id === activeId) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "active";
    li.append(badge);
  }
  if (access === "twoFactorRequired") {
    const note = document.createElement("span");
    note.className = "note";
    note.textContent = "requires two-factor authentication";
    li.append(note);
  } else if (organization.id !== activeId) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Switch";
    button.setAttribute("aria-label", `Switch to ${organization.name}`);
    button.addEventListener("click", () => act(client.organizations.setActive(organization.id)));
    li.append(button);
  }
  return li;
}

/** A list item: the main text, then a muted detail. */
function item(text, detail) {
  const li = document.createElement("li");
  li.textContent = text;
  if (detail) {
    const span = document.createElement("span");
    span.className = "muted";
    span.textContent = ` · ${detail}`;
    li.append(span);
  }
  return li;
}

/** Waits for a client call; on success reloads the state from GET /me, else shows the error. */
async function act(pending) {
  const { error } = await pending;
  say(error);
  if (error) return false;
  const me = await client.me();
  if (me.error) {
    showSignedOut();
    return false;
  }
  await showSignedIn(me.data);
  return true;
}

$("create-organization").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.currentTarget);
  const fields = new FormData(form);
  const slug = String(fields.get("slug") ?? "").trim();
  const input = { name: String(fields.get("name")), ...(slug ? { slug } : {}) };
  const created = await client.organizations.create(input);
  if (created.error) return say(created.error);
  // The first organization becomes the active one, so its members show at once.
  const pending = activeId === null
    ? client.organizations.setActive(created.data.organization.id)
    : Promise.resolve({ error: null });
  if (await act(pending)) form.reset();
});

$("invite").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.currentTarget);
  if (activeId === null) return;
  const email = String(new FormData(form).get("email"));
  if (await act(client.invitations.create(activeId, { email }))) form.reset();
});

$("sign-out").addEventListener("click", async () => {
  const { error } = await client.signOut();
  if (error) return say(error);
  say(null);
  activeId = null;
  showSignedOut();
});

start();
