/**
 * The invitation operations of the auth service: an organization's invitations (list, create or
 * re-send), the actor's pending invitations, and accept / reject / cancel with the invitation
 * token.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { Actor } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import { setActiveOrganizationIfNone } from "../sessions/session_store.ts";
import { hashToken, newToken, secretsEqual } from "../sessions/tokens.ts";
import {
  mayStillGrant,
  requireEntry,
  requireGrant,
  requirePermission,
  requireSecondFactor,
} from "./access.ts";
import type { AuthCreateInvitationBody, AuthRespondToInvitationBody } from "./bodies.ts";
import { inLockedOrganization, inTransaction, type OrganizationsContext } from "./context.ts";
import {
  findInvitation,
  type InvitationWithOrganizationRow,
  pageOrganizationInvitations,
  pagePendingInvitations,
  respondToInvitation,
  upsertInvitation,
} from "./invitation_store.ts";
import { admitMember, lockOrganization, requireInvitationRoom } from "./quotas.ts";
import { findEntry } from "./organization_store.ts";
import { hasSecondFactor } from "./second_factor.ts";
import { insertMember, isMemberByEmail } from "./member_store.ts";
import { namedPage, type PageOf, type PageRequest } from "../../pagination/mod.ts";
import {
  type AuthInvitation,
  type AuthInvitationEntry,
  type AuthMember,
  type AuthOrganization,
  toInvitation,
  toMember,
  toOrganization,
} from "./resources.ts";

type Action = AuthRespondToInvitationBody["action"];

const STATUS_OF: Record<Action, "accepted" | "rejected" | "canceled"> = {
  accept: "accepted",
  reject: "rejected",
  cancel: "canceled",
};

/** An invitation as its creator sees it: with the token to pass on to the invitee. */
export type InvitationWithToken = AuthInvitation & { token: string };

/** What answering an invitation gives: the membership too when it was accepted. */
export type InvitationAnswer =
  | { invitation: AuthInvitation; organization: AuthOrganization; member: AuthMember }
  | { invitation: AuthInvitation };

/** The invitation operations of one module instance. */
export interface InvitationService {
  /** The organization's invitations, oldest first (`invitation:list`). */
  list(
    actor: Actor,
    input: { organizationId: string } & PageRequest,
  ): Promise<PageOf<"invitations", AuthInvitation>>;
  /**
   * Invites an email address, or re-sends its pending invitation (`rotated: true`: same
   * invitation, new token and expiry) (`invitation:create`, holding every permission of the
   * roles granted; an owner to invite as owner).
   */
  create(
    actor: Actor,
    input: { organizationId: string } & AuthCreateInvitationBody,
  ): Promise<{ invitation: InvitationWithToken; rotated: boolean }>;
  /** The pending invitations to the actor's address, once verified. */
  listMine(
    actor: Actor,
    page: PageRequest,
  ): Promise<PageOf<"invitations", AuthInvitationEntry>>;
  /** Accepts or rejects (the invitee), or cancels (the inviter, owners, admins) an invitation. */
  respond(
    actor: Actor,
    input: { invitationId: string } & AuthRespondToInvitationBody,
  ): Promise<InvitationAnswer>;
}

/** Builds the invitation operations. */
export function invitationService(context: OrganizationsContext): InvitationService {
  const { db, tables, options, notifications } = context;

  /** 404, 403 or nothing: may this actor act on this invitation at all? */
  async function checkActor(
    invitation: InvitationWithOrganizationRow,
    action: Action,
    { user }: Actor,
  ): Promise<void> {
    const invitee = invitation.i_email === user.email;
    const entry = await findEntry(db, tables, invitation.i_organization_id, user.id);
    if (action === "cancel") {
      // Canceling acts inside the organization: its second-factor requirement applies.
      if (entry) requireSecondFactor(entry);
      const allowed = entry !== null &&
        (options.permissions.has(entry.m_roles, "invitation:cancel") ||
          invitation.i_inviter_id === user.id);
      if (allowed) return;
      if (entry || invitee) {
        throw authError(
          "FORBIDDEN",
          'Only the inviter and members with "invitation:cancel" may cancel an invitation',
        );
      }
      throw notFound("Invitation");
    }
    if (invitee && !user.emailVerified) {
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
  async function notPending(q: SqlQuerier, invitationId: string): Promise<Error> {
    const current = await findInvitation(q, tables, invitationId);
    if (!current) return notFound("Invitation");
    if (current.i_status === "expired") {
      return authError("INVITATION_EXPIRED", "The invitation has expired");
    }
    return authError("INVITATION_NOT_PENDING", `The invitation is already ${current.i_status}`);
  }

  return {
    async list({ user }, { organizationId, pageSize, cursor }) {
      const entry = await requireEntry(db, tables, organizationId, user.id);
      requirePermission(options.permissions, entry.m_roles, "invitation:list");
      const page = await pageOrganizationInvitations(
        db,
        tables,
        entry.o_id,
        { pageSize, cursor },
        context.secret,
      );
      return namedPage("invitations", page);
    },
    create({ user }, { organizationId, email, roles }) {
      return inLockedOrganization(context, organizationId, user.id, async (tx, entry) => {
        requirePermission(options.permissions, entry.m_roles, "invitation:create");
        const invitedRoles = roles ?? [...options.defaultMemberRoles];
        requireGrant(options.permissions, entry.m_roles, invitedRoles);
        if (await isMemberByEmail(tx, tables, entry.o_id, email)) {
          throw authError("ALREADY_MEMBER", "This email already belongs to a member");
        }
        await requireInvitationRoom(tx, tables, entry.o_id, email, options.invitationLimit);
        const token = newToken();
        const { row, rotated } = await upsertInvitation(tx, tables, {
          organizationId: entry.o_id,
          email,
          roles: invitedRoles,
          token,
          inviterId: user.id,
          ttlSeconds: options.invitationTtlSeconds,
        });
        await notifications.scheduleExpiry(tx, row.i_id, row.i_expires_at);
        const invitation = toInvitation(row, token) as InvitationWithToken;
        await notifications.emit(tx, "invitationCreated", {
          invitation,
          organization: toOrganization(entry),
          rotated,
          actorUserId: user.id,
        });
        return { invitation, rotated };
      });
    },
    async listMine({ user }, page) {
      // An unverified address is anyone's claim: it is shown no invitation.
      const email = user.emailVerified ? user.email : null;
      const found = await pagePendingInvitations(db, tables, email, page, context.secret);
      return namedPage("invitations", found);
    },
    async respond(actor, { invitationId, action, token }) {
      const { user, session } = actor;
      const found = await findInvitation(db, tables, invitationId);
      if (!found) throw notFound("Invitation");
      await checkActor(found, action, actor);
      // Without a token, only the verified invitee gets here (checkActor): their address is proof.
      if (token !== undefined && !secretsEqual(hashToken(token), found.i_token_hash)) {
        throw authError("INVALID_INVITATION_TOKEN", "The invitation token does not match");
      }
      if (found.i_status === "expired") {
        // Record the expiry (and its event) for good, then refuse with 410.
        await inTransaction(context, (tx) => notifications.expire(tx, found.i_id));
        throw authError("INVITATION_EXPIRED", "The invitation has expired");
      }
      if (found.i_status !== "pending") {
        throw authError("INVITATION_NOT_PENDING", `The invitation is already ${found.i_status}`);
      }
      const outcome = await inTransaction(
        context,
        async (tx): Promise<{ error: Error } | { answer: InvitationAnswer }> => {
          if (action === "accept") {
            // Deleting the organization waits for this transaction (and cancels nothing it
            // took); under a membershipLimit so do other joins, and a full organization refuses.
            const refused = await admitMember(tx, context, found.i_organization_id, user.id);
            if (refused) return { error: refused === "gone" ? notFound("Invitation") : refused };
          } else if (!(await lockOrganization(tx, tables, found.i_organization_id, "KEY SHARE"))) {
            return { error: notFound("Invitation") };
          }
          // Every answer locks the organization before the invitation: a rejection that locked the
          // invitation first and the organization second (its audit entry's foreign key) deadlocked
          // with an acceptance holding the organization FOR UPDATE (a 500 for both under a
          // membershipLimit; tests/reliability/processes/authorization_concurrency.test.ts).
          const row = await respondToInvitation(tx, tables, found.i_id, STATUS_OF[action]);
          if (!row) return { error: await notPending(tx, found.i_id) };
          if (action === "accept") {
            // The invitation speaks for its inviter only while they may still grant its roles.
            const inviter = await findEntry(tx, tables, row.i_organization_id, row.i_inviter_id);
            if (!mayStillGrant(options.permissions, inviter?.m_roles ?? null, row.i_roles)) {
              // Thrown, so the transaction rolls back: the invitation stays pending.
              throw authError(
                "INVITATION_REVOKED",
                "The inviter may no longer grant this invitation; ask the organization for a new one",
              );
            }
          }
          const invitation = toInvitation(row);
          const actorUserId = user.id;
          if (action !== "accept") {
            const event = action === "reject" ? "invitationRejected" : "invitationCanceled";
            await notifications.emit(tx, event, { invitation, actorUserId });
            return { answer: { invitation } };
          }
          const inserted = await insertMember(tx, tables, {
            organizationId: row.i_organization_id,
            userId: user.id,
            roles: row.i_roles,
          });
          let member: AuthMember;
          if (inserted) {
            member = toMember(inserted);
            await notifications.emit(tx, "memberAdded", { member, via: "invitation", actorUserId });
          } else {
            // Already a member (added directly meanwhile): accepting keeps the existing roles.
            const entry = await findEntry(tx, tables, row.i_organization_id, user.id);
            if (!entry) throw new Error("Membership vanished inside the accepting transaction");
            member = toMember(entry);
          }
          // Not an organization whose second-factor requirement keeps the new member out: it
          // could not be made active by hand either (POST /organizations/active).
          const keptOut = found.o_require_two_factor &&
            !(await hasSecondFactor(tx, tables, user.id));
          if (session && !keptOut) {
            await setActiveOrganizationIfNone(tx, tables, session.id, row.i_organization_id);
          }
          await notifications.emit(tx, "invitationAccepted", { invitation, member, actorUserId });
          return { answer: { invitation, organization: toOrganization(found), member } };
        },
      );
      if ("error" in outcome) {
        if ((outcome.error as { code?: string }).code === "INVITATION_EXPIRED") {
          await inTransaction(context, (tx) => notifications.expire(tx, found.i_id));
        }
        throw outcome.error;
      }
      return outcome.answer;
    },
  };
}
