/**
 * The organizations feature of the auth module: organizations, members with roles, invitations,
 * the per-credential active organization and the organization fields of `GET /me`.
 *
 * @module
 */

import type { Route } from "../../core/mod.ts";
import type { SqlAdapter } from "../../db/mod.ts";
import type { UserCreatedHook } from "../accounts.ts";
import type { AuthContext } from "../authenticator.ts";
import type { AuthRouteDeps } from "../auth_route.ts";
import type { AuthTableNames } from "../tables.ts";
import { addMember } from "./add_member.ts";
import { autoCreateHook } from "./auto_create.ts";
import type { OrganizationsContext } from "./context.ts";
import { invitationRoutes } from "./invitation_routes.ts";
import { meAnswer } from "./me.ts";
import { memberRoutes } from "./member_routes.ts";
import { createNotifications, type Notifications } from "./notifications.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";
import { organizationRoutes } from "./organization_routes.ts";
import type { Member } from "./resources.ts";

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
} from "./events.ts";
export { ORGANIZATION_EVENT_NAMES } from "./events.ts";
export type {
  Invitation,
  InvitationEntry,
  InvitationStatus,
  Member,
  Organization,
  OrganizationEntry,
} from "./resources.ts";
export { RESERVED_SLUGS } from "./slug.ts";

/** The organizations feature of one module instance. */
export interface OrganizationsFeature {
  /** Its routes, static paths before `/:organizationId` ones. */
  routes: Route[];
  /** The `/me` answer with the organization fields, as JSON text. */
  me(auth: AuthContext): Promise<string>;
  /** Creates the first organization of new users (`autoCreateOrganization`), if configured. */
  onUserCreated?: UserCreatedHook;
  /** The event notifications (durable hooks). */
  notifications: Notifications;
  /** Adds a member on the server's say (`module.api.addMember()`). */
  addMember(input: ServerAddMemberInput): Promise<Member>;
}

/**
 * Input of `module.api.addMember()`.
 *
 * @example
 * ```ts
 * import type { ServerAddMemberInput } from "./mod.ts";
 *
 * const input: ServerAddMemberInput = {
 *   organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11",
 *   userId: "5f0f3a9e-1b7c-4d5e-8f6a-7b8c9d0e1f2a",
 *   roles: ["member"],
 * };
 * ```
 */
export interface ServerAddMemberInput {
  organizationId: string;
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
  routeDeps: AuthRouteDeps;
  /** The key list cursors are signed with. */
  secret: string;
}): OrganizationsFeature {
  const notifications = createNotifications({
    db: deps.db,
    namespace: deps.namespace,
    tables: deps.tables,
    handlers: deps.options.hooks,
    secret: deps.secret,
  });
  const context: OrganizationsContext = {
    db: deps.db,
    tables: deps.tables,
    options: deps.options,
    notifications,
    routeDeps: deps.routeDeps,
    secret: deps.secret,
  };
  // Invitation routes first: `/organizations/invitations` must win over `/organizations/:id`.
  const routes = [
    ...invitationRoutes(context),
    ...organizationRoutes(context),
    ...memberRoutes(context),
  ];
  return {
    routes,
    me: meAnswer(deps.db, deps.tables),
    onUserCreated: autoCreateHook(context),
    notifications,
    addMember(input) {
      const roles = input.roles ?? deps.options.defaultMemberRoles;
      const unknown = roles.find((role) => !deps.options.roles.includes(role));
      if (roles.length === 0 || unknown !== undefined) {
        return Promise.reject(
          new TypeError(`addMember(): roles must be among ${deps.options.roles.join(", ")}`),
        );
      }
      return addMember(context, { ...input, roles: [...new Set(roles)], actor: null });
    },
  };
}
