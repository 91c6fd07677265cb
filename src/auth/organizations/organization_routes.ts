/**
 * Organization routes: create, list, fetch, update, soft-delete, and the credential's active
 * organization.
 *
 * @module
 */

import { z } from "zod";
import { HttpError, type Route } from "../../core/mod.ts";
import { authedRoute } from "../auth_route.ts";
import { notFound } from "../errors.ts";
import {
  clearActiveOrganization,
  setActiveOrganization,
  setActiveOrganizationIfNone,
} from "../sessions.ts";
import { requireEntry, requireManager, requireOwner } from "./access.ts";
import { created, inTransaction, type OrganizationsContext } from "./context.ts";
import { organizationBodies, setActiveOrganizationBody } from "./bodies.ts";
import { PAGE_ERRORS, pageQuery } from "./input.ts";
import { cancelPendingInvitations } from "./invitation_store.ts";
import { requireOrganizationRoom } from "./limits.ts";
import {
  findEntry,
  insertMember,
  insertOrganization,
  pageEntries,
  softDeleteOrganization,
  toEntry,
  updateOrganization,
} from "./organization_store.ts";
import { toInvitation, toMember, toOrganization } from "./resources.ts";
import {
  activeOrganizationResponse,
  createdOrganizationResponse,
  organizationEntryResponse,
  organizationPageResponse,
  updatedOrganizationResponse,
} from "../responses.ts";
import { normalizeSlug, slugProblem } from "./slug.ts";

const organizationId = z.object({ organizationId: z.string() });

/** The organization routes of one module instance. */
export function organizationRoutes(context: OrganizationsContext): Route[] {
  const { tables, options, notifications, routeDeps } = context;
  const bodies = organizationBodies(options.maxMetadataBytes);

  return [
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations",
      summary: "Create an organization; the caller becomes its member with the creator roles",
      body: bodies.create,
      responses: { 201: createdOrganizationResponse },
      errors: { 403: ["ORGANIZATION_LIMIT_REACHED"], 409: ["SLUG_TAKEN"] },
      handler: async ({ body, auth }) => {
        const slug = body.slug ?? normalizeSlug(body.name);
        const problem = slugProblem(slug);
        if (problem) {
          throw new HttpError(400, "VALIDATION_ERROR", "Invalid request body", {
            extra: {
              issues: [{
                path: "body.slug",
                message: `${problem}: give a slug, the one derived from the name is not valid`,
              }],
            },
          });
        }
        const entry = await inTransaction(context, async (tx) => {
          await requireOrganizationRoom(tx, tables, auth.user.id, options.organizationLimit);
          const organization = await insertOrganization(tx, tables, {
            name: body.name,
            slug,
            logoUrl: body.logoUrl ?? null,
            metadata: body.metadata ?? null,
            createdBy: auth.user.id,
          });
          const member = await insertMember(tx, tables, {
            organizationId: organization.o_id,
            userId: auth.user.id,
            roles: options.creatorRoles,
          });
          if (!member) throw new Error("A new organization cannot already have its creator");
          await setActiveOrganizationIfNone(tx, tables, auth.session.id, organization.o_id);
          const result = { organization: toOrganization(organization), member: toMember(member) };
          await notifications.emit(tx, "organizationCreated", {
            ...result,
            actorUserId: auth.user.id,
          });
          return result;
        });
        return created(entry);
      },
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations",
      summary: "The caller's organizations, a page at a time",
      query: pageQuery,
      responses: { 200: organizationPageResponse },
      errors: PAGE_ERRORS,
      handler: async ({ query, auth }) => {
        const page = await pageEntries(context.db, tables, auth.user.id, query, context.secret);
        return { organizations: page.items, cursor: page.cursor, hasNextPage: page.hasNextPage };
      },
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/active",
      summary: "The credential's active organization, or null",
      responses: { 200: activeOrganizationResponse },
      handler: async ({ auth }) => {
        const active = auth.session.activeOrganizationId;
        if (active === null) return null;
        const entry = await findEntry(context.db, tables, active, auth.user.id);
        return entry ? toEntry(entry) : null;
      },
    }),
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations/active",
      summary: "Set (or clear with null) the credential's active organization",
      responses: { 200: activeOrganizationResponse },
      errors: { 404: ["NOT_FOUND"] },
      body: setActiveOrganizationBody,
      handler: async ({ body, auth }) => {
        if (body.organizationId === null) {
          await setActiveOrganization(context.db, tables, auth.session.id, null);
          return null;
        }
        const id = body.organizationId;
        return await inTransaction(context, async (tx) => {
          // FOR SHARE: a concurrent deletion waits, so the pointer never lands on a deleted one.
          const entry = await requireEntry(tx, tables, id, auth.user.id, "share");
          await setActiveOrganization(tx, tables, auth.session.id, entry.o_id);
          return toEntry(entry);
        });
      },
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/:organizationId",
      summary: "One organization with the caller's membership",
      params: organizationId,
      responses: { 200: organizationEntryResponse },
      errors: { 404: ["NOT_FOUND"] },
      handler: async ({ params, auth }) =>
        toEntry(await requireEntry(context.db, tables, params.organizationId, auth.user.id)),
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/:organizationId",
      summary: "Change the name, slug, logo or metadata (owner, admin)",
      params: organizationId,
      responses: { 200: updatedOrganizationResponse },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"], 409: ["SLUG_TAKEN"] },
      body: bodies.update,
      handler: async ({ params, body, auth }) =>
        await inTransaction(context, async (tx) => {
          const entry = await requireEntry(
            tx,
            tables,
            params.organizationId,
            auth.user.id,
            "update",
          );
          requireManager(entry, "update the organization");
          const updated = await updateOrganization(tx, tables, entry.o_id, body);
          if (!updated) throw notFound("Organization");
          const organization = toOrganization(updated);
          await notifications.emit(tx, "organizationUpdated", {
            organization,
            changed: Object.keys(body).filter((key) =>
              body[key as keyof typeof body] !== undefined
            ),
            actorUserId: auth.user.id,
          });
          return { organization };
        }),
    }),
    authedRoute(routeDeps, {
      method: "DELETE",
      path: "/organizations/:organizationId",
      summary: "Soft-delete the organization and cancel its pending invitations (owner)",
      params: organizationId,
      responses: { 204: null },
      errors: { 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] },
      handler: async ({ params, auth }) => {
        await inTransaction(context, async (tx) => {
          const entry = await requireEntry(
            tx,
            tables,
            params.organizationId,
            auth.user.id,
            "update",
          );
          requireOwner(entry, "delete the organization");
          const deleted = await softDeleteOrganization(tx, tables, entry.o_id);
          if (!deleted) throw notFound("Organization");
          const canceled = await cancelPendingInvitations(tx, tables, entry.o_id);
          await clearActiveOrganization(tx, tables, entry.o_id);
          await notifications.emit(tx, "organizationDeleted", {
            organization: toOrganization(deleted),
            canceledInvitationIds: canceled.map((row) => row.i_id),
            actorUserId: auth.user.id,
          });
          for (const row of canceled) {
            await notifications.emit(tx, "invitationCanceled", {
              invitation: toInvitation(row),
              actorUserId: auth.user.id,
            });
          }
        });
        return undefined;
      },
    }),
  ];
}
