/**
 * Organization routes: create, list, fetch, update, soft-delete, and the credential's active
 * organization. Each parses its input (by the schemas below, in `authedRoute`) and calls the
 * organization service.
 *
 * @module
 */

import type { Route } from "../../core/mod.ts";
import { authedRoute, type AuthRouteDeps, created } from "../route_guards.ts";
import {
  activeOrganizationResponse,
  createdOrganizationResponse,
  organizationEntryResponse,
  organizationPageResponse,
  updatedOrganizationResponse,
} from "../responses.ts";
import { organizationBodies, setActiveOrganizationBody } from "./bodies.ts";
import { organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";
import type { OrganizationService } from "./organization_service.ts";

/** The organization routes of one module instance. */
export function organizationRoutes(
  routeDeps: AuthRouteDeps,
  options: ResolvedOrganizationsOptions,
  service: OrganizationService,
): Route[] {
  const bodies = organizationBodies(options.maxMetadataBytes);
  return [
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations",
      summary: "Create an organization; the caller becomes its member with the creator roles",
      body: bodies.create,
      responses: { 201: createdOrganizationResponse },
      errors: { 403: ["ORGANIZATION_LIMIT_REACHED"], 409: ["SLUG_TAKEN"] },
      handler: async ({ body, auth }) => created(await service.create(auth, body)),
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations",
      summary: "The caller's organizations, a page at a time",
      query: pageQuery,
      responses: { 200: organizationPageResponse },
      errors: PAGE_ERRORS,
      handler: ({ query, auth }) => service.list(auth, query),
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/active",
      summary: "The credential's active organization, or null",
      responses: { 200: activeOrganizationResponse },
      handler: ({ auth }) => service.getActive(auth),
    }),
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations/active",
      summary: "Set (or clear with null) the credential's active organization",
      responses: { 200: activeOrganizationResponse },
      errors: { 404: ["NOT_FOUND"] },
      body: setActiveOrganizationBody,
      handler: ({ body, auth }) => service.setActive(auth, body),
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/:organizationId",
      summary: "One organization with the caller's membership",
      params: organizationParams,
      responses: { 200: organizationEntryResponse },
      errors: { 404: ["NOT_FOUND"] },
      handler: ({ params, auth }) => service.get(auth, params),
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/:organizationId",
      summary: "Change the name, slug, logo or metadata (owner, admin)",
      params: organizationParams,
      responses: { 200: updatedOrganizationResponse },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["SLUG_TAKEN"] },
      body: bodies.update,
      handler: ({ params, body, auth }) => service.update(auth, { ...body, ...params }),
    }),
    authedRoute(routeDeps, {
      method: "DELETE",
      path: "/organizations/:organizationId",
      summary: "Soft-delete the organization and cancel its pending invitations (owner)",
      params: organizationParams,
      responses: { 204: null },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] },
      handler: ({ params, auth }) => service.delete(auth, params),
    }),
  ];
}
