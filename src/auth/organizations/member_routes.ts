/**
 * Member routes: list, add, replace roles, remove (or leave). Only owners grant or revoke
 * `owner` or touch an owner; at least one owner always remains, also under concurrent requests:
 * every role change and removal locks the organization row first, then counts the other owners.
 * Adding a member directly needs the `canAddMember` policy's consent (`add_member.ts`).
 *
 * @module
 */

import { z } from "zod";
import type { Route } from "../../core/mod.ts";
import { authedRoute } from "../auth_route.ts";
import { authError, notFound } from "../errors.ts";
import { clearActiveOrganization } from "../sessions.ts";
import { hasOwner, requireEntry, requireManager, requireOwner } from "./access.ts";
import { addMember } from "./add_member.ts";
import { created, inTransaction, type OrganizationsContext } from "./context.ts";
import { memberBodies } from "./bodies.ts";
import { PAGE_ERRORS, pageQuery } from "./input.ts";
import {
  countOtherOwners,
  deleteMember,
  findMember,
  pageMembers,
  updateMemberRoles,
} from "./member_store.ts";
import { toMember } from "./resources.ts";
import { memberEntryResponse, memberPageResponse } from "../responses.ts";

const organizationParams = z.object({ organizationId: z.string() });
const memberParams = z.object({ organizationId: z.string(), memberId: z.string() });

function lastOwner(): Error {
  return authError("LAST_OWNER", "An organization must keep at least one owner");
}

/** The member routes of one module instance. */
export function memberRoutes(context: OrganizationsContext): Route[] {
  const { tables, options, notifications, routeDeps } = context;
  const bodies = memberBodies(options.roles);

  return [
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/:organizationId/members",
      summary: "The organization's members, a page at a time",
      params: organizationParams,
      query: pageQuery,
      responses: { 200: memberPageResponse },
      errors: { ...PAGE_ERRORS, 404: ["NOT_FOUND"] },
      handler: async ({ params, query, auth }) => {
        const entry = await requireEntry(context.db, tables, params.organizationId, auth.user.id);
        const page = await pageMembers(context.db, tables, entry.o_id, query, context.secret);
        return { members: page.items, cursor: page.cursor, hasNextPage: page.hasNextPage };
      },
    }),
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations/:organizationId/members",
      summary: "Add a user directly (owner, admin; needs the canAddMember policy's consent)",
      params: organizationParams,
      responses: { 201: memberEntryResponse },
      errors: {
        403: ["FORBIDDEN", "DIRECT_ADD_NOT_ALLOWED", "MEMBERSHIP_LIMIT_REACHED"],
        404: ["NOT_FOUND", "USER_NOT_FOUND"],
        409: ["ALREADY_MEMBER"],
      },
      body: bodies.add,
      handler: async ({ params, body, auth }) => {
        const member = await addMember(context, {
          organizationId: params.organizationId,
          userId: body.userId,
          roles: body.roles ?? [...options.defaultMemberRoles],
          actor: auth.user,
        });
        return created({ member });
      },
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/:organizationId/members/:memberId",
      summary: "Replace a member's roles (owner, admin)",
      params: memberParams,
      responses: { 200: memberEntryResponse },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
      body: bodies.updateRoles,
      handler: async ({ params, body, auth }) =>
        await inTransaction(context, async (tx) => {
          const entry = await requireEntry(
            tx,
            tables,
            params.organizationId,
            auth.user.id,
            "update",
          );
          requireManager(entry, "change roles");
          const target = await findMember(tx, tables, entry.o_id, params.memberId);
          if (!target) throw notFound("Member");
          if (hasOwner(target.m_roles) || hasOwner(body.roles)) {
            requireOwner(entry, "grant, revoke or change the roles of an owner");
          }
          if (hasOwner(target.m_roles) && !hasOwner(body.roles)) {
            if (await countOtherOwners(tx, tables, entry.o_id, target.m_id) === 0) {
              throw lastOwner();
            }
          }
          const member = toMember(
            await updateMemberRoles(tx, tables, entry.o_id, target.m_id, body.roles),
          );
          await notifications.emit(tx, "memberRolesChanged", {
            member,
            previousRoles: [...target.m_roles],
            actorUserId: auth.user.id,
          });
          return { member };
        }),
    }),
    authedRoute(routeDeps, {
      method: "DELETE",
      path: "/organizations/:organizationId/members/:memberId",
      summary: "Remove a member, or leave the organization",
      params: memberParams,
      responses: { 204: null },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
      handler: async ({ params, auth }) => {
        await inTransaction(context, async (tx) => {
          const entry = await requireEntry(
            tx,
            tables,
            params.organizationId,
            auth.user.id,
            "update",
          );
          const target = await findMember(tx, tables, entry.o_id, params.memberId);
          if (!target) throw notFound("Member");
          const leaving = target.m_user_id === auth.user.id;
          if (!leaving) requireManager(entry, "remove members");
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
            actorUserId: auth.user.id,
          });
        });
        return undefined;
      },
    }),
  ];
}
