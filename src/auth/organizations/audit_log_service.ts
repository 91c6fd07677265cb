/**
 * Reading an organization's audit log (`audit:read`), newest first, a page at a time.
 *
 * @module
 */

import { namedPage, type PageOf, type PageRequest } from "../../pagination/mod.ts";
import type { Actor } from "../actor.ts";
import { requireEntry, requirePermission } from "./access.ts";
import { type AuthAuditEntry, pageAuditLog } from "./audit_log.ts";
import type { OrganizationsContext } from "./context.ts";

/** The audit log reads of one module instance. */
export interface AuditLogService {
  /** The organization's audit log, newest first (`audit:read`). */
  list(
    actor: Actor,
    input: { organizationId: string } & PageRequest,
  ): Promise<PageOf<"entries", AuthAuditEntry>>;
}

/** Builds the audit log reads. */
export function auditLogService(context: OrganizationsContext): AuditLogService {
  const { db, tables, options } = context;
  return {
    async list({ user }, { organizationId, pageSize, cursor }) {
      const entry = await requireEntry(db, tables, organizationId, user.id);
      requirePermission(options.permissions, entry.m_roles, "audit:read");
      const page = await pageAuditLog(db, tables, entry.o_id, { pageSize, cursor }, context.secret);
      return namedPage("entries", page);
    },
  };
}
