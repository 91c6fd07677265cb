/**
 * Invitation routes: an organization's invitations (list, create or re-send), the caller's
 * pending invitations, and accept / reject / cancel with the invitation token.
 *
 * @module
 */

import { z } from "zod";
import type { Route } from "../../core/mod.ts";
import type { SqlQuerier } from "../../db/mod.ts";
import type { AuthContext } from "../authenticator.ts";
import { authedRoute } from "../auth_route.ts";
import { authError, notFound } from "../errors.ts";
import { setActiveOrganizationIfNone } from "../sessions.ts";
import { hashToken, newToken, secretsEqual } from "../tokens.ts";
import {
  canManage,
  hasOwner,
  mayStillGrant,
  requireEntry,
  requireManager,
  requireOwner,
} from "./access.ts";
import { created, inTransaction, type OrganizationsContext } from "./context.ts";
import {
  invitationBodies,
  type RespondToInvitationBody,
  respondToInvitationBody,
} from "./bodies.ts";
import { PAGE_ERRORS, pageQuery } from "./input.ts";
import {
  findInvitation,
  type InvitationWithOrganizationRow,
  pageOrganizationInvitations,
  pagePendingInvitations,
  respondToInvitation,
  upsertInvitation,
} from "./invitation_store.ts";
import { admitMember, requireInvitationRoom } from "./limits.ts";
import { findEntry, insertMember, isMemberByEmail } from "./organization_store.ts";
import { type Member, toInvitation, toMember, toOrganization } from "./resources.ts";
import {
  createdInvitationResponse,
  invitationActionResponse,
  invitationPageResponse,
  pendingInvitationPageResponse,
} from "../responses.ts";

const organizationParams = z.object({ organizationId: z.string() });

type Action = RespondToInvitationBody["action"];

const STATUS_OF: Record<Action, "accepted" | "rejected" | "canceled"> = {
  accept: "accepted",
  reject: "rejected",
  cancel: "canceled",
};

/** The invitation routes of one module instance. */
export function invitationRoutes(context: OrganizationsContext): Route[] {
  const { tables, options, notifications, routeDeps } = context;
  const bodies = invitationBodies(options.roles);

  /** 404, 403 or nothing: may this caller act on this invitation at all? */
  async function checkActor(
    invitation: InvitationWithOrganizationRow,
    action: Action,
    auth: AuthContext,
  ): Promise<void> {
    const invitee = invitation.i_email === auth.user.email;
    const entry = await findEntry(context.db, tables, invitation.i_organization_id, auth.user.id);
    if (action === "cancel") {
      const allowed = entry !== null &&
        (canManage(entry.m_roles) || invitation.i_inviter_id === auth.user.id);
      if (allowed) return;
      if (entry || invitee) {
        throw authError(
          "FORBIDDEN",
          "Only the inviter, owners and admins may cancel an invitation",
        );
      }
      throw notFound("Invitation");
    }
    if (invitee && !auth.user.emailVerified) {
      // Anyone can sign up with any address: only a proven one speaks for the invitee.
      throw authError(
        "EMAIL_NOT_VERIFIED",
        "Verify your email address (POST /verify-email) before answering an invitation",
      );
    }
    if (invitee) return;
    if (entry) throw authError("FORBIDDEN", "Only the invited user may accept or reject it");
    throw notFound("Invitation");
  }

  /** Why a pending-looking invitation could not be moved: 410 (marking it expired) or 409. */
  async function notPending(db: SqlQuerier, invitationId: string): Promise<Error> {
    const current = await findInvitation(db, tables, invitationId);
    if (!current) return notFound("Invitation");
    if (current.i_status === "expired") {
      return authError("INVITATION_EXPIRED", "The invitation has expired");
    }
    return authError("INVITATION_NOT_PENDING", `The invitation is already ${current.i_status}`);
  }

  return [
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/invitations",
      summary: "The pending invitations to the caller's verified address",
      query: pageQuery,
      responses: { 200: pendingInvitationPageResponse },
      errors: PAGE_ERRORS,
      handler: async ({ query, auth }) => {
        // An unverified address is anyone's claim: it is shown no invitation.
        const email = auth.user.emailVerified ? auth.user.email : null;
        const page = await pagePendingInvitations(
          context.db,
          tables,
          email,
          query,
          context.secret,
        );
        return { invitations: page.items, cursor: page.cursor, hasNextPage: page.hasNextPage };
      },
    }),
    authedRoute(routeDeps, {
      method: "PATCH",
      path: "/organizations/invitations/:invitationId",
      summary: "Accept, reject (the invitee) or cancel (the inviter, owners, admins) an invitation",
      params: z.object({ invitationId: z.string() }),
      responses: { 200: invitationActionResponse },
      errors: {
        403: [
          "FORBIDDEN",
          "EMAIL_NOT_VERIFIED",
          "INVALID_INVITATION_TOKEN",
          "MEMBERSHIP_LIMIT_REACHED",
        ],
        404: ["NOT_FOUND"],
        409: ["INVITATION_NOT_PENDING", "INVITATION_REVOKED"],
        410: ["INVITATION_EXPIRED"],
      },
      body: respondToInvitationBody,
      handler: async ({ params, body, auth }) => {
        const found = await findInvitation(context.db, tables, params.invitationId);
        if (!found) throw notFound("Invitation");
        await checkActor(found, body.action, auth);
        if (!secretsEqual(hashToken(body.token), found.i_token_hash)) {
          throw authError("INVALID_INVITATION_TOKEN", "The invitation token does not match");
        }
        if (found.i_status === "expired") {
          // Record the expiry (and its event) for good, then answer 410.
          await inTransaction(context, (tx) => notifications.expire(tx, found.i_id));
          throw authError("INVITATION_EXPIRED", "The invitation has expired");
        }
        if (found.i_status !== "pending") {
          throw authError("INVITATION_NOT_PENDING", `The invitation is already ${found.i_status}`);
        }
        const outcome = await inTransaction(context, async (tx) => {
          if (body.action === "accept") {
            // Deleting the organization waits for this transaction (and cancels nothing it took);
            // under a membershipLimit so do other joins, and a full organization refuses.
            const refused = await admitMember(tx, context, found.i_organization_id, auth.user.id);
            if (refused) return { error: refused === "gone" ? notFound("Invitation") : refused };
          }
          const row = await respondToInvitation(tx, tables, found.i_id, STATUS_OF[body.action]);
          if (!row) return { error: await notPending(tx, found.i_id) };
          if (body.action === "accept") {
            // The invitation speaks for its inviter only while they may still grant its roles.
            const inviter = await findEntry(tx, tables, row.i_organization_id, row.i_inviter_id);
            if (!mayStillGrant(inviter?.m_roles ?? null, row.i_roles)) {
              // Thrown, so the transaction rolls back: the invitation stays pending.
              throw authError(
                "INVITATION_REVOKED",
                "The inviter may no longer grant this invitation; ask the organization for a new one",
              );
            }
          }
          const invitation = toInvitation(row);
          const actorUserId = auth.user.id;
          if (body.action !== "accept") {
            const event = body.action === "reject" ? "invitationRejected" : "invitationCanceled";
            await notifications.emit(tx, event, { invitation, actorUserId });
            return { body: { invitation } };
          }
          const inserted = await insertMember(tx, tables, {
            organizationId: row.i_organization_id,
            userId: auth.user.id,
            roles: row.i_roles,
          });
          let member: Member;
          if (inserted) {
            member = toMember(inserted);
            await notifications.emit(tx, "memberAdded", { member, via: "invitation", actorUserId });
          } else {
            // Already a member (added directly meanwhile): accepting keeps the existing roles.
            const entry = await findEntry(tx, tables, row.i_organization_id, auth.user.id);
            if (!entry) throw new Error("Membership vanished inside the accepting transaction");
            member = toMember(entry);
          }
          await setActiveOrganizationIfNone(tx, tables, auth.session.id, row.i_organization_id);
          await notifications.emit(tx, "invitationAccepted", { invitation, member, actorUserId });
          return { body: { invitation, organization: toOrganization(found), member } };
        });
        if ("error" in outcome) {
          if ((outcome.error as { code?: string }).code === "INVITATION_EXPIRED") {
            await inTransaction(context, (tx) => notifications.expire(tx, found.i_id));
          }
          throw outcome.error;
        }
        return outcome.body;
      },
    }),
    authedRoute(routeDeps, {
      method: "GET",
      path: "/organizations/:organizationId/invitations",
      summary: "The organization's invitations, a page at a time (owner, admin)",
      params: organizationParams,
      query: pageQuery,
      responses: { 200: invitationPageResponse },
      errors: { ...PAGE_ERRORS, 403: ["FORBIDDEN"], 404: ["NOT_FOUND"] },
      handler: async ({ params, query, auth }) => {
        const entry = await requireEntry(context.db, tables, params.organizationId, auth.user.id);
        requireManager(entry, "list invitations");
        const page = await pageOrganizationInvitations(
          context.db,
          tables,
          entry.o_id,
          query,
          context.secret,
        );
        return {
          invitations: page.items.map((row) => toInvitation(row)),
          cursor: page.cursor,
          hasNextPage: page.hasNextPage,
        };
      },
    }),
    authedRoute(routeDeps, {
      method: "POST",
      path: "/organizations/:organizationId/invitations",
      summary: "Invite an email address, or re-send a pending invitation (200) (owner, admin)",
      params: organizationParams,
      responses: { 200: createdInvitationResponse, 201: createdInvitationResponse },
      errors: {
        403: ["FORBIDDEN", "INVITATION_LIMIT_REACHED"],
        404: ["NOT_FOUND"],
        409: ["ALREADY_MEMBER"],
      },
      body: bodies.create,
      handler: async ({ params, body, auth }) => {
        const result = await inTransaction(context, async (tx) => {
          const entry = await requireEntry(
            tx,
            tables,
            params.organizationId,
            auth.user.id,
            "update",
          );
          requireManager(entry, "invite");
          const invitedRoles = body.roles ?? [...options.defaultMemberRoles];
          if (hasOwner(invitedRoles)) requireOwner(entry, "invite as owner");
          if (await isMemberByEmail(tx, tables, entry.o_id, body.email)) {
            throw authError("ALREADY_MEMBER", "This email already belongs to a member");
          }
          await requireInvitationRoom(tx, tables, entry.o_id, body.email, options.invitationLimit);
          const token = newToken();
          const { row, rotated } = await upsertInvitation(tx, tables, {
            organizationId: entry.o_id,
            email: body.email,
            roles: invitedRoles,
            token,
            inviterId: auth.user.id,
            ttlSeconds: options.invitationTtlSeconds,
          });
          await notifications.scheduleExpiry(tx, row.i_id, row.i_expires_at);
          const invitation = toInvitation(row, token) as ReturnType<typeof toInvitation> & {
            token: string;
          };
          await notifications.emit(tx, "invitationCreated", {
            invitation,
            organization: toOrganization(entry),
            rotated,
            actorUserId: auth.user.id,
          });
          return { invitation, rotated };
        });
        return created({ invitation: result.invitation }, result.rotated ? 200 : 201);
      },
    }),
  ];
}
