/**
 * The organization operations of the auth service: create, list, fetch, update, soft-delete, and
 * the credential's active organization. Each runs its transaction → lookup → check → write →
 * event sequence here, once, for the HTTP routes and `authModule.api` alike; inputs arrive
 * already parsed by the bodies' schemas (`bodies.ts`).
 *
 * @module
 */

import { HttpError } from "../../core/mod.ts";
import { namedPage, type PageOf, type PageRequest } from "../../pagination/mod.ts";
import type { Actor } from "../actor.ts";
import { requireSession } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import {
  clearActiveOrganization,
  setActiveOrganization,
  setActiveOrganizationIfNone,
} from "../sessions/session_store.ts";
import { hasOwner, requireEntry, requirePermission, requireSecondFactor } from "./access.ts";
import type { AuthCreateOrganizationBody, AuthUpdateOrganizationBody } from "./bodies.ts";
import { inLockedOrganization, inTransaction, type OrganizationsContext } from "./context.ts";
import { cancelPendingInvitations } from "./invitation_store.ts";
import { insertMember } from "./member_store.ts";
import { requireOrganizationRoom } from "./quotas.ts";
import { hasSecondFactor } from "./second_factor.ts";
import {
  type EntryRow,
  findEntry,
  insertOrganization,
  pageEntries,
  softDeleteOrganization,
  toEntry,
  updateOrganization,
} from "./organization_store.ts";
import type { OrganizationEventPayloads } from "./event_types.ts";
import {
  type AuthOrganization,
  type AuthOrganizationEntry,
  toInvitation,
  toMember,
  toOrganization,
} from "./resources.ts";
import { normalizeSlug, slugProblem } from "./slug.ts";

/** The organization operations of one module instance. */
export interface OrganizationService {
  /** Creates an organization; the actor becomes its member with the creator roles. */
  create(actor: Actor, input: AuthCreateOrganizationBody): Promise<AuthOrganizationEntry>;
  /** The actor's live organizations, oldest first. */
  list(
    actor: Actor,
    page: PageRequest,
  ): Promise<PageOf<"organizations", AuthOrganizationEntry>>;
  /** One organization with the actor's membership; 404 for a non-member. */
  get(actor: Actor, input: { organizationId: string }): Promise<AuthOrganizationEntry>;
  /**
   * Changes the given fields (`organization:update`). `requireTwoFactor: true` needs a caller
   * with a second factor (409 `TWO_FACTOR_NOT_ENABLED`); an owner without one may still send
   * `requireTwoFactor: false` alone.
   */
  update(
    actor: Actor,
    input: { organizationId: string } & AuthUpdateOrganizationBody,
  ): Promise<{ organization: AuthOrganization }>;
  /** Soft-deletes it and cancels its pending invitations (`organization:delete`). */
  delete(actor: Actor, input: { organizationId: string }): Promise<void>;
  /** The credential's active organization, `null` when none (or no longer a member). */
  getActive(actor: Actor): Promise<AuthOrganizationEntry | null>;
  /**
   * Sets (or clears with `null`) the credential's active organization; 403 `TWO_FACTOR_REQUIRED`
   * for one that requires a second factor the caller lacks.
   */
  setActive(
    actor: Actor,
    input: { organizationId: string | null },
  ): Promise<AuthOrganizationEntry | null>;
}

/** The slug of a new organization: the given one, else derived from the name (400 if unusable). */
function creationSlug(input: AuthCreateOrganizationBody): string {
  if (input.slug !== undefined) return input.slug;
  const slug = normalizeSlug(input.name);
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
  return slug;
}

/**
 * Whether an update may go through for a caller the organization's second-factor requirement
 * keeps out: an owner turning the requirement off, and nothing else in the same request. So the
 * owners are never locked out of their organization's setting, even after losing their factor.
 */
function turnsRequirementOffAsOwner(
  entry: EntryRow,
  changes: AuthUpdateOrganizationBody,
): boolean {
  const given = Object.entries(changes).filter(([, value]) => value !== undefined);
  return hasOwner(entry.m_roles) && given.length === 1 && changes.requireTwoFactor === false;
}

/** The values before an update of the fields it gives, for `organizationUpdated`. */
function previousValues(
  entry: EntryRow,
  changes: AuthUpdateOrganizationBody,
): OrganizationEventPayloads["organizationUpdated"]["previous"] {
  const before = toOrganization(entry);
  const previous: OrganizationEventPayloads["organizationUpdated"]["previous"] = {};
  if (changes.name !== undefined) previous.name = before.name;
  if (changes.slug !== undefined) previous.slug = before.slug;
  if (changes.logoUrl !== undefined) previous.logoUrl = before.logoUrl;
  if (changes.metadata !== undefined) previous.metadata = before.metadata;
  if (changes.requireTwoFactor !== undefined) previous.requireTwoFactor = before.requireTwoFactor;
  return previous;
}

/** Builds the organization operations. */
export function organizationService(context: OrganizationsContext): OrganizationService {
  const { db, tables, options, notifications } = context;
  const permissions = options.permissions;
  return {
    async create({ user, session }, input) {
      const slug = creationSlug(input);
      return await inTransaction(context, async (tx) => {
        await requireOrganizationRoom(tx, tables, user.id, options.organizationLimit);
        const organization = await insertOrganization(tx, tables, {
          name: input.name,
          slug,
          logoUrl: input.logoUrl ?? null,
          metadata: input.metadata ?? null,
          createdBy: user.id,
        });
        const member = await insertMember(tx, tables, {
          organizationId: organization.o_id,
          userId: user.id,
          roles: options.creatorRoles,
        });
        if (!member) throw new Error("A new organization cannot already have its creator");
        if (session) await setActiveOrganizationIfNone(tx, tables, session.id, organization.o_id);
        const result = { organization: toOrganization(organization), member: toMember(member) };
        await notifications.emit(tx, "organizationCreated", { ...result, actorUserId: user.id });
        // A new organization requires no second factor: its creator may act in it.
        return { ...result, permissions: options.permissions.of(member.m_roles), access: "member" };
      });
    },
    async list({ user }, page) {
      const found = await pageEntries(db, tables, user.id, page, context.secret, permissions);
      return namedPage("organizations", found);
    },
    async get({ user }, { organizationId }) {
      return toEntry(await requireEntry(db, tables, organizationId, user.id), permissions);
    },
    update({ user }, { organizationId, ...changes }) {
      return inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        if (!turnsRequirementOffAsOwner(entry, changes)) requireSecondFactor(entry);
        requirePermission(options.permissions, entry.m_roles, "organization:update");
        // Read without a lock: a factor removed meanwhile waits for this row's lock in
        // recordSecondFactorLoss, then sees the requirement and records the loss.
        if (changes.requireTwoFactor === true && !(await hasSecondFactor(tx, tables, user.id))) {
          throw authError(
            "TWO_FACTOR_NOT_ENABLED",
            "Enable a second factor (TOTP or a passkey) on your own account before requiring one " +
              "of the organization's members",
          );
        }
        const updated = await updateOrganization(tx, tables, entry.o_id, changes);
        if (!updated) throw notFound("Organization");
        const organization = toOrganization(updated);
        await notifications.emit(tx, "organizationUpdated", {
          organization,
          changed: Object.keys(changes).filter((key) =>
            changes[key as keyof typeof changes] !== undefined
          ),
          previous: previousValues(entry, changes),
          actorUserId: user.id,
        });
        return { organization };
      }, "deferred");
    },
    async delete({ user }, { organizationId }) {
      await inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        requirePermission(options.permissions, entry.m_roles, "organization:delete");
        const deleted = await softDeleteOrganization(tx, tables, entry.o_id);
        if (!deleted) throw notFound("Organization");
        const canceled = await cancelPendingInvitations(tx, tables, entry.o_id);
        await clearActiveOrganization(tx, tables, entry.o_id);
        await notifications.emit(tx, "organizationDeleted", {
          organization: toOrganization(deleted),
          canceledInvitationIds: canceled.map((row) => row.i_id),
          actorUserId: user.id,
        });
        for (const row of canceled) {
          await notifications.emit(tx, "invitationCanceled", {
            invitation: toInvitation(row),
            actorUserId: user.id,
          });
        }
      });
    },
    async getActive(actor) {
      const active = requireSession(actor, "getActiveOrganization").activeOrganizationId;
      if (active === null) return null;
      const entry = await findEntry(db, tables, active, actor.user.id);
      return entry ? toEntry(entry, permissions) : null;
    },
    async setActive(actor, { organizationId }) {
      const session = requireSession(actor, "setActiveOrganization");
      if (organizationId === null) {
        await setActiveOrganization(db, tables, session.id, null);
        return null;
      }
      return await inTransaction(context, async (tx) => {
        // FOR SHARE: a concurrent deletion waits, so the pointer never lands on a deleted one.
        // An organization whose second-factor requirement keeps the caller out is refused (403),
        // as its routes would be.
        const entry = await requireEntry(tx, tables, organizationId, actor.user.id, "share");
        await setActiveOrganization(tx, tables, session.id, entry.o_id);
        return toEntry(entry, permissions);
      });
    },
  };
}
