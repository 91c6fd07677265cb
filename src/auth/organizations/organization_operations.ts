/**
 * The organization operations: create, list, fetch, update, soft-delete, and the credential's
 * active organization. Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { PageOf, PageRequest } from "../../pagination/mod.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthApiPage, AuthOrganizationRef } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  activeOrganizationResponse,
  createdOrganizationResponse,
  organizationEntryResponse,
  organizationPageResponse,
  updatedOrganizationResponse,
} from "./responses.ts";
import { organizationBodies, setActiveOrganizationBody } from "./bodies.ts";
import type {
  AuthCreateOrganizationBody,
  AuthSetActiveOrganizationBody,
  AuthUpdateOrganizationBody,
} from "./bodies.ts";
import { organizationParams, PAGE_ERRORS, pageQuery } from "./input.ts";
import type { AuthOrganization, AuthOrganizationEntry } from "./resources.ts";

/** `POST /organizations`: the actor becomes its member with the creator roles. */
export const createOrganization: AuthOperation<{
  method: "POST";
  path: "/organizations";
  body: AuthCreateOrganizationBody;
  response: AuthOrganizationEntry;
  errors: "ORGANIZATION_LIMIT_REACHED" | "SLUG_TAKEN";
  api: (actor: AuthActor, input: AuthCreateOrganizationBody) => Promise<AuthOrganizationEntry>;
}> = {
  method: "POST",
  path: "/organizations",
  summary: "Create an organization; the caller becomes its member with the creator roles",
  guard: "signedIn",
  feature: "organizations",
  body: (options) => organizationBodies(options.maxMetadataBytes).create,
  responses: { 201: createdOrganizationResponse },
  errors: { 403: ["ORGANIZATION_LIMIT_REACHED"], 409: ["SLUG_TAKEN"] },
  call: (services, input, actor) => services.organizations.organizations.create(actor, input),
  reply: (entry) => Response.json(entry, { status: 201 }),
};

/** `GET /organizations`: the actor's organizations, a page at a time. */
export const listOrganizations: AuthOperation<{
  method: "GET";
  path: "/organizations";
  query: PageRequest;
  response: PageOf<"organizations", AuthOrganizationEntry>;
  errors: "INVALID_PAGE_SIZE" | "INVALID_CURSOR";
  api: (
    actor: AuthActor,
    page?: AuthApiPage,
  ) => Promise<PageOf<"organizations", AuthOrganizationEntry>>;
}> = {
  method: "GET",
  path: "/organizations",
  summary: "The caller's organizations, a page at a time",
  guard: "signedIn",
  feature: "organizations",
  query: pageQuery,
  responses: { 200: organizationPageResponse },
  errors: PAGE_ERRORS,
  call: (services, page, actor) => services.organizations.organizations.list(actor, page),
};

/** `GET /organizations/active`: the credential's active organization (needs a credential). */
export const getActiveOrganization: AuthOperation<{
  method: "GET";
  path: "/organizations/active";
  response: AuthOrganizationEntry | null;
  api: (actor: AuthActor) => Promise<AuthOrganizationEntry | null>;
}> = {
  method: "GET",
  path: "/organizations/active",
  summary: "The credential's active organization, or null",
  guard: "signedIn",
  feature: "organizations",
  responses: { 200: activeOrganizationResponse },
  call: (services, _input, actor) => services.organizations.organizations.getActive(actor),
};

/** `POST /organizations/active` (needs a credential); `organizationId: null` clears it. */
export const setActiveOrganization: AuthOperation<{
  method: "POST";
  path: "/organizations/active";
  body: AuthSetActiveOrganizationBody;
  response: AuthOrganizationEntry | null;
  errors: "TWO_FACTOR_REQUIRED" | "NOT_FOUND";
  api: (
    actor: AuthActor,
    input: AuthSetActiveOrganizationBody,
  ) => Promise<AuthOrganizationEntry | null>;
}> = {
  method: "POST",
  path: "/organizations/active",
  summary: "Set (or clear with null) the credential's active organization",
  guard: "signedIn",
  feature: "organizations",
  body: setActiveOrganizationBody,
  responses: { 200: activeOrganizationResponse },
  errors: { 403: ["TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.organizations.setActive(actor, input),
};

/** `GET /organizations/:organizationId` (404 `NOT_FOUND` for a non-member). */
export const getOrganization: AuthOperation<{
  method: "GET";
  path: "/organizations/:organizationId";
  params: AuthOrganizationRef;
  response: AuthOrganizationEntry;
  errors: "TWO_FACTOR_REQUIRED" | "NOT_FOUND";
  api: (actor: AuthActor, input: AuthOrganizationRef) => Promise<AuthOrganizationEntry>;
}> = {
  method: "GET",
  path: "/organizations/:organizationId",
  summary: "One organization with the caller's membership",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  responses: { 200: organizationEntryResponse },
  errors: { 403: ["TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.organizations.get(actor, input),
};

/** `PATCH /organizations/:organizationId` (`organization:update`). */
export const updateOrganization: AuthOperation<{
  method: "PATCH";
  path: "/organizations/:organizationId";
  params: AuthOrganizationRef;
  body: AuthUpdateOrganizationBody;
  response: { organization: AuthOrganization };
  errors:
    | "FORBIDDEN"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND"
    | "SLUG_TAKEN"
    | "TWO_FACTOR_NOT_ENABLED";
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthUpdateOrganizationBody,
  ) => Promise<{ organization: AuthOrganization }>;
}> = {
  method: "PATCH",
  path: "/organizations/:organizationId",
  summary:
    "Change the name, slug, logo, metadata or second-factor requirement (organization:update)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  body: (options) => organizationBodies(options.maxMetadataBytes).update,
  responses: { 200: updatedOrganizationResponse },
  errors: {
    403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"],
    404: ["NOT_FOUND"],
    409: ["SLUG_TAKEN", "TWO_FACTOR_NOT_ENABLED"],
  },
  call: (services, input, actor) => services.organizations.organizations.update(actor, input),
};

/** `DELETE /organizations/:organizationId` (`organization:delete`). */
export const deleteOrganization: AuthOperation<{
  method: "DELETE";
  path: "/organizations/:organizationId";
  params: AuthOrganizationRef;
  response: null;
  result: void;
  errors: "FORBIDDEN" | "TWO_FACTOR_REQUIRED" | "NOT_FOUND";
  api: (actor: AuthActor, input: AuthOrganizationRef) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/organizations/:organizationId",
  summary: "Soft-delete the organization and cancel its pending invitations (organization:delete)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  responses: { 204: null },
  errors: { 403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"], 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.organizations.organizations.delete(actor, input),
};
