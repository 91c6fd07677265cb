/**
 * Invitation routes: an organization's invitations (list, create or re-send), the caller's
 * pending invitations, and accept / reject / cancel with the invitation token. Each parses its
 * input (by the schemas below, in `authedRoute`) and calls the invitation service.
 *
 * @module
 */

import type { Route } from "../../core/mod.ts";
import { authedRoute, type AuthRouteDeps, created } from "../route_guards.ts";
import {
  createdInvitationResponse,
  invitationActionResponse,
  invitationPageResponse,
  pendingInvitationPageResponse,
} from "../responses.ts";
import { invitationBodies, respondToInvitationBody } from "./bodies.ts";
import { invitationParams, organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { InvitationService } from "./invitation_service.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";

/** The invitation routes of one module instance. */
export function invitationRoutes(
  routeDeps: AuthRouteDeps,
  options: ResolvedOrganizationsOptions,
  service: InvitationService,
): Route[] {
  const bodies = invitationBodies(options.roles);
  return [
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/invitations",
      summary: "The pending invitations to the caller's verified address",
      query: pageQuery,
      responses: { 200: pendingInvitationPageResponse },
      errors: PAGE_ERRORS,
      handler: ({ query, auth }) => service.listMine(auth, query),
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/invitations/:invitationId",
      summary: "Accept, reject (the invitee) or cancel (the inviter, owners, admins) an invitation",
      params: invitationParams,
      responses: { 200: invitationActionResponse },
      errors: {
        403: [
          "FORBIDDEN",
          "EMAIL_NOT_VERIFIED",
          "INVALID_INVITATION_TOKEN",
          "MEMBERSHIP_LIMIT_REACHED",
        ],
        404: ["NOT_FOUND"],
        409: ["INVITATION_NOT_PENDING", "INVITATION_REVOKED"],
        410: ["INVITATION_EXPIRED"],
      },
      body: respondToInvitationBody,
      handler: ({ params, body, auth }) => service.respond(auth, { ...body, ...params }),
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/:organizationId/invitations",
      summary: "The organization's invitations, a page at a time (owner, admin)",
      params: organizationParams,
      query: pageQuery,
      responses: { 200: invitationPageResponse },
      errors: { ...PAGE_ERRORS, 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] },
      handler: ({ params, query, auth }) => service.list(auth, { ...query, ...params }),
    }),
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations/:organizationId/invitations",
      summary: "Invite an email address, or re-send a pending invitation (200) (owner, admin)",
      params: organizationParams,
      responses: { 200: createdInvitationResponse, 201: createdInvitationResponse },
      errors: {
        403: ["FORBIDDEN", "INVITATION_LIMIT_REACHED"],
        404: ["NOT_FOUND"],
        409: ["ALREADY_MEMBER"],
      },
      body: bodies.create,
      handler: async ({ params, body, auth }) => {
        const { invitation, rotated } = await service.create(auth, { ...body, ...params });
        return created({ invitation }, rotated ? 200 : 201);
      },
    }),
  ];
}
