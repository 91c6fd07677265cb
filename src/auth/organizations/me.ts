/**
 * The `GET /me` answer with organizations: a fixed number of queries whatever the number of
 * organizations (one for the entries, one for the invitations), written as JSON text with the
 * entries spliced in as read (see `entry_json.ts`).
 *
 * @module
 */

import type { AuthContext } from "../authenticator.ts";
import type { OrganizationsContext } from "./context.ts";
import { listPendingInvitations } from "./invitation_store.ts";
import { listAllEntriesJson } from "./organization_store.ts";

/** The most pending invitations `/me` carries; `GET /organizations/invitations` pages them all. */
export const ME_INVITATION_LIMIT = 100;

/**
 * The `/me` answer of the caller as JSON text: `user`, `organizations` (every entry),
 * `activeOrganization` (the entry of the credential's active organization, or `null`) and
 * `invitations` (pending ones addressed to the caller's email).
 */
export async function meJson(context: OrganizationsContext, auth: AuthContext): Promise<string> {
  const { db, tables } = context;
  const [entries, invitations] = await Promise.all([
    listAllEntriesJson(db, tables, auth.user.id),
    listPendingInvitations(db, tables, auth.user.email, ME_INVITATION_LIMIT),
  ]);
  const active = auth.session.activeOrganizationId;
  const activeEntry = entries.find((entry) => entry.organizationId === active);
  return `{"user":${JSON.stringify(auth.user)},` +
    `"organizations":[${entries.map((entry) => entry.json).join(",")}],` +
    `"activeOrganization":${activeEntry?.json ?? "null"},` +
    `"invitations":${JSON.stringify(invitations)}}`;
}
