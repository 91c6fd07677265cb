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
import { autoCreateHook } from "./auto_create.ts";
import type { OrganizationsContext } from "./context.ts";
import { invitationRoutes } from "./invitation_routes.ts";
import { meAnswer } from "./me.ts";
import { memberRoutes } from "./member_routes.ts";
import { createNotifications, type Notifications } from "./notifications.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";
import { organizationRoutes } from "./organization_routes.ts";

export {
  type AuthOrganizationsOptions,
  type AutoCreateOrganizationOptions,
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
  };
}
