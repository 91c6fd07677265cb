/**
 * The `GET /me` payload with organizations: a fixed number of queries whatever the number of
 * organizations (one for the entries, one for the invitations).
 *
 * @module
 */

import type { AuthContext } from "../authenticator.ts";
import type { MePayload } from "../auth_routes.ts";
import type { OrganizationsContext } from "./context.ts";
import { listPendingInvitations } from "./invitation_store.ts";
import { listAllEntries } from "./organization_store.ts";

/** The most pending invitations `/me` carries; `GET /organizations/invitations` pages them all. */
export const ME_INVITATION_LIMIT = 100;

/** Builds the `/me` payload of the caller. */
export async function mePayload(
  context: OrganizationsContext,
  auth: AuthContext,
): Promise<MePayload> {
  const { db, tables } = context;
  const [organizations, invitations] = await Promise.all([
    listAllEntries(db, tables, auth.user.id),
    listPendingInvitations(db, tables, auth.user.email, ME_INVITATION_LIMIT),
  ]);
  const active = auth.session.activeOrganizationId;
  return {
    user: auth.user,
    organizations,
    activeOrganization: organizations.find((entry) => entry.organization.id === active) ?? null,
    invitations,
  };
}
