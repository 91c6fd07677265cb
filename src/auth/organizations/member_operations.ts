/**
 * The member operations: list, add, replace roles, remove (or leave). Declarations only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { PageOf, PageRequest } from "../../pagination/mod.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthApiPage, AuthMemberRef, AuthOrganizationRef } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import { memberEntryResponse, memberPageResponse } from "./responses.ts";
import { memberBodies } from "./bodies.ts";
import type { AuthAddMemberBody, AuthUpdateMemberRolesBody } from "./bodies.ts";
import { memberParams, organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { AuthMember } from "./resources.ts";

/** `GET /organizations/:organizationId/members`. */
export const listMembers: AuthOperation<{
  method: "GET";
  path: "/organizations/:organizationId/members";
  params: AuthOrganizationRef;
  query: PageRequest;
  response: PageOf<"members", AuthMember>;
  errors: "INVALID_PAGE_SIZE" | "INVALID_CURSOR" | "TWO_FACTOR_REQUIRED" | "NOT_FOUND";
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthApiPage,
  ) => Promise<PageOf<"members", AuthMember>>;
}> = {
  method: "GET",
  path: "/organizations/:organizationId/members",
  summary: "The organization's members, a page at a time",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  query: pageQuery,
  responses: { 200: memberPageResponse },
  errors: { ...PAGE_ERRORS, 403: ["TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.members.list(actor, input),
};

/**
 * `POST /organizations/:organizationId/members` as `actor`: a member with `member:create`, with the
 * `canAddMember` policy's consent (403 `DIRECT_ADD_NOT_ALLOWED` otherwise), exactly as over HTTP.
 */
export const addMember: AuthOperation<{
  method: "POST";
  path: "/organizations/:organizationId/members";
  params: AuthOrganizationRef;
  body: AuthAddMemberBody;
  response: { member: AuthMember };
  result: AuthMember;
  errors:
    | "FORBIDDEN"
    | "DIRECT_ADD_NOT_ALLOWED"
    | "MEMBERSHIP_LIMIT_REACHED"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND"
    | "USER_NOT_FOUND"
    | "ALREADY_MEMBER";
  api: (actor: AuthActor, input: AuthOrganizationRef & AuthAddMemberBody) => Promise<AuthMember>;
}> = {
  method: "POST",
  path: "/organizations/:organizationId/members",
  summary: "Add a user directly (member:create; needs the canAddMember policy's consent)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  body: (options) => memberBodies(options.roles).add,
  responses: { 201: memberEntryResponse },
  errors: {
    403: [
      "FORBIDDEN",
      "DIRECT_ADD_NOT_ALLOWED",
      "MEMBERSHIP_LIMIT_REACHED",
      "TWO_FACTOR_REQUIRED",
    ],
    404: ["NOT_FOUND", "USER_NOT_FOUND"],
    409: ["ALREADY_MEMBER"],
  },
  call: (services, input, actor) => services.organizations.members.add(actor, input),
  reply: (member) => Response.json({ member }, { status: 201 }),
};

/** `PATCH /organizations/:organizationId/members/:memberId` (`member:update`). */
export const updateMemberRoles: AuthOperation<{
  method: "PATCH";
  path: "/organizations/:organizationId/members/:memberId";
  params: AuthMemberRef;
  body: AuthUpdateMemberRolesBody;
  response: { member: AuthMember };
  errors: "FORBIDDEN" | "TWO_FACTOR_REQUIRED" | "NOT_FOUND" | "LAST_OWNER";
  api: (
    actor: AuthActor,
    input: AuthMemberRef & AuthUpdateMemberRolesBody,
  ) => Promise<{ member: AuthMember }>;
}> = {
  method: "PATCH",
  path: "/organizations/:organizationId/members/:memberId",
  summary: "Replace a member's roles (member:update; no role whose permissions the caller lacks)",
  guard: "signedIn",
  feature: "organizations",
  params: memberParams,
  body: (options) => memberBodies(options.roles).updateRoles,
  responses: { 200: memberEntryResponse },
  errors: { 403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
  call: (services, input, actor) => services.organizations.members.updateRoles(actor, input),
};

/** `DELETE /organizations/:organizationId/members/:memberId`: remove, or leave. */
export const removeMember: AuthOperation<{
  method: "DELETE";
  path: "/organizations/:organizationId/members/:memberId";
  params: AuthMemberRef;
  response: null;
  result: void;
  errors: "FORBIDDEN" | "TWO_FACTOR_REQUIRED" | "NOT_FOUND" | "LAST_OWNER";
  api: (actor: AuthActor, input: AuthMemberRef) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/organizations/:organizationId/members/:memberId",
  summary: "Remove a member, or leave the organization",
  guard: "signedIn",
  feature: "organizations",
  params: memberParams,
  responses: { 204: null },
  errors: { 403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"], 409: ["LAST_OWNER"] },
  call: (services, input, actor) => services.organizations.members.remove(actor, input),
};
