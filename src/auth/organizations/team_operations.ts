/**
 * The operations of organizations run by teams: the audit log and ownership transfers.
 * Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { PageOf, PageRequest } from "../../pagination/mod.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthApiPage, AuthOrganizationRef } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import type { AuthAuditEntry } from "./audit_log.ts";
import { type AuthTransferOwnershipBody, transferOwnershipBody } from "./bodies.ts";
import { organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import { auditLogPageResponse, ownershipTransferResponse } from "./responses.ts";
import type { AuthOwnershipTransfer } from "./team_service.ts";

/** `GET /organizations/:organizationId/audit-log` (`audit:read`): newest first. */
export const listAuditLog: AuthOperation<{
  params: AuthOrganizationRef;
  query: PageRequest;
  response: PageOf<"entries", AuthAuditEntry>;
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthApiPage,
  ) => Promise<PageOf<"entries", AuthAuditEntry>>;
}> = {
  method: "GET",
  path: "/organizations/:organizationId/audit-log",
  summary: "The organization's audit log, newest first, a page at a time (audit:read)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  query: pageQuery,
  responses: { 200: auditLogPageResponse },
  errors: { ...PAGE_ERRORS, 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.team.auditLog(actor, input),
};

/**
 * `POST /organizations/:organizationId/transfer-ownership` (owners): the member gains `owner`,
 * the caller's roles become `organizations.previousOwnerRoles`, in one transaction.
 */
export const transferOwnership: AuthOperation<{
  params: AuthOrganizationRef;
  body: AuthTransferOwnershipBody;
  response: AuthOwnershipTransfer;
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthTransferOwnershipBody,
  ) => Promise<AuthOwnershipTransfer>;
}> = {
  method: "POST",
  path: "/organizations/:organizationId/transfer-ownership",
  summary: "Hand ownership over to a verified member (owners)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  body: transferOwnershipBody,
  responses: { 200: ownershipTransferResponse },
  errors: {
    403: ["FORBIDDEN"],
    404: ["NOT_FOUND"],
    409: ["ALREADY_OWNER", "MEMBER_NOT_VERIFIED"],
  },
  call: (services, input, actor) => services.organizations.team.transferOwnership(actor, input),
};
