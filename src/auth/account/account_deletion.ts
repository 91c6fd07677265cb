/**
 * Deleting an account, with the password: in one transaction, the organizations the user is the
 * only member of are soft-deleted, every membership and the pending invitations to the user's
 * address go, the sessions and tokens go, and the user row becomes a tombstone. Refused with 409
 * `SOLE_OWNER` while the user is the only owner of an organization that has other members.
 *
 * @module
 */

import type { Actor } from "../actor.ts";
import type { ClientInfo } from "./account_service.ts";
import { authError } from "../errors.ts";
import { OWNER_ROLE } from "../organizations/options.ts";
import { softDeleteOrganization } from "../organizations/organization_store.ts";
import { cancelPendingInvitations } from "../organizations/invitation_store.ts";
import { toInvitation, toMember, toOrganization } from "../organizations/resources.ts";
import { clearActiveOrganization } from "../sessions/session_store.ts";
import type { DeleteAccountBody, DeletedAccount } from "./account_inputs.ts";
import {
  cancelInvitationsTo,
  deleteMemberships,
  lockMemberships,
  tombstoneUser,
} from "./account_deletion_store.ts";
import { lockUser } from "./account_store.ts";
import { checkPassword, type LifecycleContext, nowIso } from "./lifecycle_context.ts";

/** Deletes the actor's account (see the module comment). */
export type DeleteAccount = (
  actor: Actor,
  input: DeleteAccountBody,
  client: ClientInfo,
) => Promise<DeletedAccount>;

/** Builds the account deletion of one module instance. */
export function accountDeletion(context: LifecycleContext): DeleteAccount {
  const { db, tables, events, organizationEvents } = context;
  return async (actor, { password }, client) => {
    await checkPassword(context, actor, password, client);
    const userId = actor.user.id;
    const result = await db.transaction(async (tx) => {
      const user = await lockUser(tx, tables, userId);
      if (!user) throw authError("UNAUTHENTICATED", "The account no longer exists");
      const memberships = await lockMemberships(tx, tables, userId);
      const blocking = memberships.find((m) =>
        m.member.m_roles.includes(OWNER_ROLE) && m.otherOwners === 0 && m.memberCount > 1
      );
      if (blocking) {
        throw authError(
          "SOLE_OWNER",
          `You are the only owner of "${blocking.organizationName}", which has other members: ` +
            "hand ownership over (POST /organizations/:organizationId/transfer-ownership) or delete the " +
            "organization first",
        );
      }
      const deletedOrganizationIds: string[] = [];
      for (const { member } of memberships.filter((m) => m.memberCount === 1)) {
        const deleted = await softDeleteOrganization(tx, tables, member.m_organization_id);
        if (!deleted) continue;
        const canceled = await cancelPendingInvitations(tx, tables, deleted.o_id);
        await clearActiveOrganization(tx, tables, deleted.o_id);
        deletedOrganizationIds.push(deleted.o_id);
        await organizationEvents?.emit(tx, "organizationDeleted", {
          organization: toOrganization(deleted),
          canceledInvitationIds: canceled.map((row) => row.i_id),
          actorUserId: userId,
        });
        for (const row of canceled) {
          await organizationEvents?.emit(tx, "invitationCanceled", {
            invitation: toInvitation(row),
            actorUserId: userId,
          });
        }
      }
      for (const row of await deleteMemberships(tx, tables, userId)) {
        if (deletedOrganizationIds.includes(row.m_organization_id)) continue;
        await organizationEvents?.emit(tx, "memberRemoved", {
          member: toMember(row),
          actorUserId: userId,
        });
      }
      for (const row of await cancelInvitationsTo(tx, tables, user.email)) {
        await organizationEvents?.emit(tx, "invitationCanceled", {
          invitation: toInvitation(row),
          actorUserId: userId,
        });
      }
      await tombstoneUser(tx, tables, userId);
      await events.emit(tx, "accountDeleted", {
        userId,
        email: user.email,
        deletedOrganizationIds,
        at: nowIso(),
      });
      return { userId, deletedOrganizationIds };
    });
    events.wake();
    organizationEvents?.wake();
    return result;
  };
}
