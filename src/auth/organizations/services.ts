/**
 * The service layer of the organizations feature, one object per area, shared by the HTTP
 * routes and `authModule.api`: routes → service → store.
 *
 * @module
 */

import type { OrganizationsContext } from "./context.ts";
import { type InvitationService, invitationService } from "./invitation_service.ts";
import { type MemberService, memberService } from "./member_service.ts";
import { type OrganizationService, organizationService } from "./organization_service.ts";
import { type AuditLogService, auditLogService } from "./audit_log_service.ts";
import { type OwnershipService, ownershipService } from "./ownership_service.ts";

/** The organizations feature's operations. */
export interface OrganizationsServices {
  organizations: OrganizationService;
  members: MemberService;
  invitations: InvitationService;
  auditLog: AuditLogService;
  ownership: OwnershipService;
}

/** Builds the operations of one module instance. */
export function organizationsServices(context: OrganizationsContext): OrganizationsServices {
  return {
    organizations: organizationService(context),
    members: memberService(context),
    invitations: invitationService(context),
    auditLog: auditLogService(context),
    ownership: ownershipService(context),
  };
}
