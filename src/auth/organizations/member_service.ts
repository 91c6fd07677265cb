/**
 * The member operations of the auth service: list, add, replace roles, remove (or leave). Only
 * owners grant or revoke `owner` or touch an owner; at least one owner always remains, also under
 * concurrent calls: every role change and removal locks the organization row first, then counts
 * the other owners. Adding a member directly needs the `canAddMember` policy's consent, unless
 * the server adds them (`add_member.ts`).
 *
 * @module
 */

import type { Actor } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import { clearActiveOrganization } from "../sessions/session_store.ts";
import {
  hasOwner,
  requireEntry,
  requireGrant,
  requireOwner,
  requirePermission,
  requireSecondFactor,
} from "./access.ts";
import { addMember } from "./add_member.ts";
import type { AuthAddMemberBody, AuthUpdateMemberRolesBody } from "./bodies.ts";
import { inLockedOrganization, type OrganizationsContext } from "./context.ts";
import {
  countOtherOwners,
  deleteMember,
  findMember,
  pageMembers,
  updateMemberRoles,
} from "./member_store.ts";
import { namedPage, type PageOf, type PageRequest } from "../../pagination/mod.ts";
import { type AuthMember, toMember } from "./resources.ts";

/** A member of an organization, by id. */
export interface MemberRef {
  organizationId: string;
  memberId: string;
}

/** The member operations of one module instance. */
export interface MemberService {
  /** The organization's members, oldest first (any member may list them). */
  list(
    actor: Actor,
    input: { organizationId: string } & PageRequest,
  ): Promise<PageOf<"members", AuthMember>>;
  /**
   * Adds a user directly: as `actor` (owner, admin, with the `canAddMember` policy's consent),
   * or on the server's say with `actor: null` (no policy, no caller check).
   */
  add(
    actor: Actor | null,
    input: { organizationId: string } & AuthAddMemberBody,
  ): Promise<AuthMember>;
  /**
   * Replaces a member's roles (`member:update`, holding every permission of the roles gained;
   * owners alone for owners).
   */
  updateRoles(
    actor: Actor,
    input: MemberRef & AuthUpdateMemberRolesBody,
  ): Promise<{ member: AuthMember }>;
  /**
   * Removes a member (`member:delete`) or, for the actor's own membership, leaves (also without
   * the second factor the organization requires).
   */
  remove(actor: Actor, input: MemberRef): Promise<void>;
}

function lastOwner(): Error {
  return authError("LAST_OWNER", "An organization must keep at least one owner");
}

/** Builds the member operations. */
export function memberService(context: OrganizationsContext): MemberService {
  const { db, tables, options, notifications } = context;
  return {
    async list({ user }, { organizationId, pageSize, cursor }) {
      const entry = await requireEntry(db, tables, organizationId, user.id);
      const page = await pageMembers(db, tables, entry.o_id, { pageSize, cursor }, context.secret);
      return namedPage("members", page);
    },
    add(actor, input) {
      return addMember(context, {
        organizationId: input.organizationId,
        userId: input.userId,
        roles: input.roles ?? [...options.defaultMemberRoles],
        actor: actor?.user ?? null,
      });
    },
    updateRoles({ user }, { organizationId, memberId, roles }) {
      return inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        requirePermission(options.permissions, entry.m_roles, "member:update");
        const target = await findMember(tx, tables, entry.o_id, memberId);
        if (!target) throw notFound("Member");
        if (hasOwner(target.m_roles) || hasOwner(roles)) {
          requireOwner(entry, "grant, revoke or change the roles of an owner");
        }
        // No escalation: every role the member gains, the caller could hold the rights of.
        const gained = roles.filter((role) => !target.m_roles.includes(role));
        requireGrant(options.permissions, entry.m_roles, gained);
        if (hasOwner(target.m_roles) && !hasOwner(roles)) {
          if (await countOtherOwners(tx, tables, entry.o_id, target.m_id) === 0) {
            throw lastOwner();
          }
        }
        const member = toMember(
          await updateMemberRoles(tx, tables, entry.o_id, target.m_id, roles),
        );
        await notifications.emit(tx, "memberRolesChanged", {
          member,
          previousRoles: [...target.m_roles],
          actorUserId: user.id,
        });
        return { member };
      });
    },
    async remove({ user }, { organizationId, memberId }) {
      await inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        const target = await findMember(tx, tables, entry.o_id, memberId);
        if (!target) throw notFound("Member");
        const leaving = target.m_user_id === user.id;
        // Leaving needs no second factor: a member the organization's requirement keeps out may
        // always go.
        if (!leaving) {
          requireSecondFactor(entry);
          requirePermission(options.permissions, entry.m_roles, "member:delete");
        }
        if (hasOwner(target.m_roles)) {
          if (!leaving) requireOwner(entry, "remove an owner");
          if (await countOtherOwners(tx, tables, entry.o_id, target.m_id) === 0) {
            throw lastOwner();
          }
        }
        await deleteMember(tx, tables, entry.o_id, target.m_id);
        await clearActiveOrganization(tx, tables, entry.o_id, target.m_user_id);
        await notifications.emit(tx, "memberRemoved", {
          member: toMember(target),
          actorUserId: user.id,
        });
      }, "deferred");
    },
  };
}
