/**
 * Member routes: list, add, replace roles, remove (or leave). Each parses its input (by the
 * schemas below, in `authedRoute`) and calls the member service.
 *
 * @module
 */

import type { Route } from "../../core/mod.ts";
import { authedRoute, type AuthRouteDeps, created } from "../route_guards.ts";
import { memberEntryResponse, memberPageResponse } from "../responses.ts";
import { memberBodies } from "./bodies.ts";
import { memberParams, organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { MemberService } from "./member_service.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";

/** The member routes of one module instance. */
export function memberRoutes(
  routeDeps: AuthRouteDeps,
  options: ResolvedOrganizationsOptions,
  service: MemberService,
): Route[] {
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
      handler: ({ params, query, auth }) => service.list(auth, { ...query, ...params }),
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
      handler: async ({ params, body, auth }) =>
        created({ member: await service.add(auth, { ...body, ...params }) }),
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/:organizationId/members/:memberId",
      summary: "Replace a member's roles (owner, admin)",
      params: memberParams,
      responses: { 200: memberEntryResponse },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
      body: bodies.updateRoles,
      handler: ({ params, body, auth }) => service.updateRoles(auth, { ...body, ...params }),
    }),
    authedRoute(routeDeps, {
      method: "DELETE",
      path: "/organizations/:organizationId/members/:memberId",
      summary: "Remove a member, or leave the organization",
      params: memberParams,
      responses: { 204: null },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
      handler: ({ params, auth }) => service.remove(auth, params),
    }),
  ];
}
