/**
 * Handing an organization's ownership over (owners). A transfer runs in one transaction under the
 * organization's row lock: the target gains `owner`, the caller's roles become
 * `organizations.previousOwnerRoles`, and the `ownershipTransferred` event and its audit entry are
 * written with them.
 *
 * @module
 */

import type { Actor } from "../actor.ts";
import { findUserById } from "../account/user_store.ts";
import { authError, notFound } from "../errors.ts";
import { hasOwner, requireOwner } from "./access.ts";
import { inLockedOrganization, type OrganizationsContext } from "./context.ts";
import { findMember, updateMemberRoles } from "./member_store.ts";
import { OWNER_ROLE } from "./options.ts";
import { type AuthMember, toMember } from "./resources.ts";

/**
 * The answer of a transfer: the new owner and the previous one, with their roles after it.
 *
 * @example
 * ```ts
 * import type { AuthOwnershipTransfer } from "@app/fragment-cli/auth";
 *
 * function announce({ member, previousOwner }: AuthOwnershipTransfer): string {
 *   return `${member.userId} now owns it; ${previousOwner.userId} is ${previousOwner.roles.join(", ")}`;
 * }
 * ```
 */
export interface AuthOwnershipTransfer {
  /** The member who gained `owner`. */
  member: AuthMember;
  /** The caller's membership, now with `organizations.previousOwnerRoles`. */
  previousOwner: AuthMember;
}

/** Ownership transfers of one module instance. */
export interface OwnershipService {
  /** Hands ownership over to a verified member (owners). */
  transfer(
    actor: Actor,
    input: { organizationId: string; memberId: string },
  ): Promise<AuthOwnershipTransfer>;
}

/** Builds the ownership transfers. */
export function ownershipService(context: OrganizationsContext): OwnershipService {
  const { tables, options, notifications } = context;
  return {
    transfer({ user }, { organizationId, memberId }) {
      return inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        requireOwner(entry, "hand ownership over");
        const target = await findMember(tx, tables, entry.o_id, memberId);
        if (!target) throw notFound("Member");
        if (hasOwner(target.m_roles)) {
          throw authError("ALREADY_OWNER", "This member already is an owner");
        }
        const targetUser = await findUserById(tx, tables, target.m_user_id);
        if (!targetUser?.emailVerified) {
          throw authError(
            "MEMBER_NOT_VERIFIED",
            "Ownership goes only to a member whose email address is verified",
          );
        }
        const member = toMember(
          await updateMemberRoles(tx, tables, entry.o_id, target.m_id, [
            OWNER_ROLE,
            ...target.m_roles,
          ]),
        );
        const previousOwner = toMember(
          await updateMemberRoles(tx, tables, entry.o_id, entry.m_id, options.previousOwnerRoles),
        );
        await notifications.emit(tx, "ownershipTransferred", {
          member,
          previousRoles: [...target.m_roles],
          previousOwner,
          actorUserId: user.id,
        });
        return { member, previousOwner };
      });
    },
  };
}
