// The active organization's second-factor rule in the example SPA: the "Require two-factor
// authentication" setting (PATCH /organizations/:organizationId {requireTwoFactor}), shown to the
// members whose permissions include `organization:update`, and to an owner kept out by the rule
// (an owner may always turn it off); and, when GET /me's entry for the organization says
// `access: "twoFactorRequired"`, a note in place of its members, invitations and audit log.
// Turning the rule on without a second factor of one's own is refused (409 TWO_FACTOR_NOT_ENABLED):
// the server's message is shown as text.

/**
 * Wires the setting; `render(entry)` shows the active organization's `/me` entry.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   act: (pending: Promise<{ error: unknown }>) => Promise<boolean>,
 * }} app
 */
export function setupOrganizationSettings({ client, $, act }) {
  /** The active organization's id, as last rendered. */
  let organizationId = null;

  /** `true` when the member may act in the organization (its details are worth loading). */
  function render({ organization, member, permissions, access }) {
    organizationId = organization.id;
    const keptOut = access === "twoFactorRequired";
    const owner = member.roles.includes("owner");
    $("organization-settings").hidden = !(permissions.includes("organization:update") ||
      (owner && organization.requireTwoFactor));
    /** @type {HTMLInputElement} */ ($("require-two-factor")).checked =
      organization.requireTwoFactor;
    $("active-kept-out").hidden = !keptOut;
    $("active-details").hidden = keptOut;
    return !keptOut;
  }

  $("require-two-factor").addEventListener("change", async (event) => {
    const box = /** @type {HTMLInputElement} */ (event.currentTarget);
    const wanted = box.checked;
    box.disabled = true;
    const changed = await act(
      client.organizations.update(organizationId, { requireTwoFactor: wanted }),
    );
    box.disabled = false;
    if (!changed) box.checked = !wanted;
  });

  return { render };
}
