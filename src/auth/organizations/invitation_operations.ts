/**
 * The invitation operations: an organization's invitations (list, create or re-send), the
 * caller's pending invitations, and accept / reject / cancel with the invitation token.
 * Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { PageOf, PageRequest } from "../../pagination/mod.ts";
import type { AuthActor } from "../actor.ts";
import type {
  AuthApiPage,
  AuthCreatedInvitation,
  AuthInvitationAnswer,
  AuthOrganizationRef,
} from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  createdInvitationResponse,
  invitationActionResponse,
  invitationPageResponse,
  pendingInvitationPageResponse,
} from "./responses.ts";
import { invitationBodies, respondToInvitationBody } from "./bodies.ts";
import type { AuthCreateInvitationBody, AuthRespondToInvitationBody } from "./bodies.ts";
import { invitationParams, organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { AuthInvitation, AuthInvitationEntry } from "./resources.ts";

/** `GET /organizations/invitations`: the pending invitations to the actor's verified address. */
export const listMyInvitations: AuthOperation<{
  method: "GET";
  path: "/organizations/invitations";
  query: PageRequest;
  response: PageOf<"invitations", AuthInvitationEntry>;
  errors: "INVALID_PAGE_SIZE" | "INVALID_CURSOR";
  api: (
    actor: AuthActor,
    page?: AuthApiPage,
  ) => Promise<PageOf<"invitations", AuthInvitationEntry>>;
}> = {
  method: "GET",
  path: "/organizations/invitations",
  summary: "The pending invitations to the caller's verified address",
  guard: "signedIn",
  feature: "organizations",
  query: pageQuery,
  responses: { 200: pendingInvitationPageResponse },
  errors: PAGE_ERRORS,
  call: (services, page, actor) => services.organizations.invitations.listMine(actor, page),
};

/**
 * `PATCH /organizations/invitations/:invitationId`: accept or reject (the invitee, with the
 * token), or cancel (the inviter, owners, admins).
 */
export const respondToInvitation: AuthOperation<{
  method: "PATCH";
  path: "/organizations/invitations/:invitationId";
  params: { invitationId: string };
  body: AuthRespondToInvitationBody;
  response: AuthInvitationAnswer;
  errors:
    | "FORBIDDEN"
    | "EMAIL_NOT_VERIFIED"
    | "INVALID_INVITATION_TOKEN"
    | "MEMBERSHIP_LIMIT_REACHED"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND"
    | "INVITATION_NOT_PENDING"
    | "INVITATION_REVOKED"
    | "INVITATION_EXPIRED";
  api: (
    actor: AuthActor,
    input: { invitationId: string } & AuthRespondToInvitationBody,
  ) => Promise<AuthInvitationAnswer>;
}> = {
  method: "PATCH",
  path: "/organizations/invitations/:invitationId",
  summary: "Accept, reject (the invitee) or cancel (the inviter, owners, admins) an invitation",
  guard: "signedIn",
  feature: "organizations",
  params: invitationParams,
  body: respondToInvitationBody,
  responses: { 200: invitationActionResponse },
  errors: {
    403: [
      "FORBIDDEN",
      "EMAIL_NOT_VERIFIED",
      "INVALID_INVITATION_TOKEN",
      "MEMBERSHIP_LIMIT_REACHED",
      "TWO_FACTOR_REQUIRED",
    ],
    404: ["NOT_FOUND"],
    409: ["INVITATION_NOT_PENDING", "INVITATION_REVOKED"],
    410: ["INVITATION_EXPIRED"],
  },
  call: (services, input, actor) => services.organizations.invitations.respond(actor, input),
};

/** `GET /organizations/:organizationId/invitations` (`invitation:list`). */
export const listInvitations: AuthOperation<{
  method: "GET";
  path: "/organizations/:organizationId/invitations";
  params: AuthOrganizationRef;
  query: PageRequest;
  response: PageOf<"invitations", AuthInvitation>;
  errors:
    | "INVALID_PAGE_SIZE"
    | "INVALID_CURSOR"
    | "FORBIDDEN"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND";
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthApiPage,
  ) => Promise<PageOf<"invitations", AuthInvitation>>;
}> = {
  method: "GET",
  path: "/organizations/:organizationId/invitations",
  summary: "The organization's invitations, a page at a time (invitation:list)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  query: pageQuery,
  responses: { 200: invitationPageResponse },
  errors: { ...PAGE_ERRORS, 403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.invitations.list(actor, input),
};

/**
 * `POST /organizations/:organizationId/invitations` (`invitation:create`): the invitation with its
 * token, and `rotated: true` when it re-sent a pending one (HTTP answers 200 instead of 201).
 */
export const createInvitation: AuthOperation<{
  method: "POST";
  path: "/organizations/:organizationId/invitations";
  params: AuthOrganizationRef;
  body: AuthCreateInvitationBody;
  response: { invitation: AuthCreatedInvitation };
  result: { invitation: AuthCreatedInvitation; rotated: boolean };
  errors:
    | "FORBIDDEN"
    | "INVITATION_LIMIT_REACHED"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND"
    | "ALREADY_MEMBER";
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthCreateInvitationBody,
  ) => Promise<{ invitation: AuthCreatedInvitation; rotated: boolean }>;
}> = {
  method: "POST",
  path: "/organizations/:organizationId/invitations",
  summary: "Invite an email address, or re-send a pending invitation (200) (invitation:create)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  body: (options) => invitationBodies(options.roles).create,
  responses: { 200: createdInvitationResponse, 201: createdInvitationResponse },
  errors: {
    403: ["FORBIDDEN", "INVITATION_LIMIT_REACHED", "TWO_FACTOR_REQUIRED"],
    404: ["NOT_FOUND"],
    409: ["ALREADY_MEMBER"],
  },
  call: (services, input, actor) => services.organizations.invitations.create(actor, input),
  reply: ({ invitation, rotated }) =>
    Response.json({ invitation }, { status: rotated ? 200 : 201 }),
};
