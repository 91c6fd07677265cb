/**
 * The organizations feature of the auth module: organizations, members with roles, invitations,
 * the per-credential active organization and the organization fields of `GET /me`.
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import type { HookHandler } from "../../hooks/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import type { UserCreatedHook } from "../account/account_service.ts";
import type { AuthTableNames } from "../tables.ts";
import { autoCreateHook } from "./auto_create.ts";
import type { OrganizationsContext } from "./context.ts";
import { createNotifications, type Notifications } from "./event_delivery.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";
import { type OrganizationsServices, organizationsServices } from "./services.ts";

export {
  type AuthOrganizationsOptions,
  type AutoCreateOrganizationOptions,
  type CanAddMember,
  type CanAddMemberContext,
  type ResolvedOrganizationsOptions,
  resolveOrganizationsOptions,
} from "./options.ts";
export type {
  OrganizationEventContext,
  OrganizationEventHandlers,
  OrganizationEventName,
  OrganizationEventPayloads,
} from "./event_types.ts";
export { ORGANIZATION_EVENT_NAMES } from "./event_types.ts";
export type {
  AuthInvitation,
  AuthInvitationEntry,
  AuthInvitationStatus,
  AuthMember,
  AuthOrganization,
  AuthOrganizationAccess,
  AuthOrganizationEntry,
} from "./resources.ts";
export { AUTH_RESERVED_SLUGS } from "./slug.ts";
export type { AuthAuditEntry } from "./audit_log.ts";
export type { AuthOwnershipTransfer } from "./ownership_service.ts";
export { BUILT_IN_PERMISSIONS } from "./permissions.ts";

/** The organizations feature of one module instance. */
export interface OrganizationsFeature {
  /** Its operations, shared by the routes and `authModule.api`. */
  services: OrganizationsServices;
  /** Creates the first organization of new users (`autoCreateOrganization`), if configured. */
  onUserCreated?: UserCreatedHook;
  /** The event notifications (durable hooks). */
  notifications: Notifications;
  /** The options after defaults (the api validates roles against them). */
  options: ResolvedOrganizationsOptions;
}

/**
 * Input of `module.api.addMember()`.
 *
 * @example
 * ```ts
 * import type { AuthAddMemberInput } from "@app/fragment-cli/auth";
 *
 * const input: AuthAddMemberInput = {
 *   organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11",
 *   userId: "5f0f3a9e-1b7c-4d5e-8f6a-7b8c9d0e1f2a",
 *   roles: ["member"],
 * };
 * ```
 */
export interface AuthAddMemberInput {
  /** The organization to add the user to. */
  organizationId: string;
  /** The user to add. */
  userId: string;
  /** Roles among `organizations.roles`. @default organizations.defaultMemberRoles */
  roles?: readonly string[];
}

/** Builds the organizations feature. */
export function organizationsFeature(deps: {
  db: SqlAdapter;
  namespace: string;
  tables: AuthTableNames;
  options: ResolvedOrganizationsOptions;
  /** The key list cursors are signed with. */
  secret: string;
  /** Further hooks for the same worker (the account events). */
  extraHooks?: Record<string, HookHandler<JsonValue>>;
}): OrganizationsFeature {
  const notifications = createNotifications({
    db: deps.db,
    namespace: deps.namespace,
    tables: deps.tables,
    handlers: deps.options.hooks,
    retention: deps.options.retention,
    secret: deps.secret,
    extraHooks: deps.extraHooks,
    auditLogRetentionDays: deps.options.auditLogRetentionDays,
  });
  const context: OrganizationsContext = {
    db: deps.db,
    tables: deps.tables,
    options: deps.options,
    notifications,
    secret: deps.secret,
  };
  const services = organizationsServices(context);
  return {
    services,
    onUserCreated: autoCreateHook(context),
    notifications,
    options: deps.options,
  };
}
