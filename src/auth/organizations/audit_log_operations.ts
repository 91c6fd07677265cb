/**
 * The operation that reads an organization's audit log. Declarations only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { PageOf, PageRequest } from "../../pagination/mod.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthApiPage, AuthOrganizationRef } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import type { AuthAuditEntry } from "./audit_log.ts";
import { organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import { auditLogPageResponse } from "./responses.ts";

/** `GET /organizations/:organizationId/audit-log` (`audit:read`): newest first. */
export const listAuditLog: AuthOperation<{
  method: "GET";
  path: "/organizations/:organizationId/audit-log";
  params: AuthOrganizationRef;
  query: PageRequest;
  response: PageOf<"entries", AuthAuditEntry>;
  errors:
    | "INVALID_PAGE_SIZE"
    | "INVALID_CURSOR"
    | "FORBIDDEN"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND";
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
  errors: { ...PAGE_ERRORS, 403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.auditLog.list(actor, input),
};
