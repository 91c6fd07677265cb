/**
 * The durable notifications of the organizations API: one event per change, recorded in the
 * transaction of the change (so an event exists exactly when its change committed) and delivered
 * to the application's handler afterwards, with retries.
 *
 * @module
 */

import type { AuthInvitation, AuthMember, AuthOrganization } from "./resources.ts";

/**
 * Every event, by name, with its payload. Payloads are JSON (ids, ISO timestamps).
 *
 * @example
 * ```ts
 * import type { OrganizationEventPayloads } from "@app/fragment-cli/auth";
 *
 * function audit({ member, previousRoles }: OrganizationEventPayloads["memberRolesChanged"]) {
 *   console.log(`${member.userId}: ${previousRoles.join(",")} -> ${member.roles.join(",")}`);
 * }
 * ```
 */
export interface OrganizationEventPayloads {
  /** An organization was created (by a user, or automatically at sign-up). */
  organizationCreated: { organization: AuthOrganization; member: AuthMember; actorUserId: string };
  /**
   * An organization's name, slug, logoUrl, metadata or requireTwoFactor was set: `changed` names
   * the fields the update gave, `previous` holds their values before it.
   */
  organizationUpdated: {
    organization: AuthOrganization;
    changed: string[];
    previous: Partial<
      Pick<AuthOrganization, "name" | "slug" | "logoUrl" | "metadata" | "requireTwoFactor">
    >;
    actorUserId: string;
  };
  /** An organization was soft-deleted; its pending invitations were canceled. */
  organizationDeleted: {
    organization: AuthOrganization;
    canceledInvitationIds: string[];
    actorUserId: string;
  };
  /**
   * A user became a member (added directly, or by accepting an invitation); `actorUserId` is
   * `null` for a member added by the server (`module.api.addMember()`).
   */
  memberAdded: { member: AuthMember; via: "added" | "invitation"; actorUserId: string | null };
  /** A member was removed or left. */
  memberRemoved: { member: AuthMember; actorUserId: string };
  /** A member's roles were replaced. */
  memberRolesChanged: { member: AuthMember; previousRoles: string[]; actorUserId: string };
  /**
   * A member of an organization that requires a second factor (`requireTwoFactor`) removed their
   * last one (TOTP disabled, last passkey removed): they keep their membership, but its routes
   * answer them 403 `TWO_FACTOR_REQUIRED` until they have one again.
   */
  memberSecondFactorLost: { member: AuthMember; actorUserId: string };
  /**
   * An owner handed ownership over: `member` (who had `previousRoles`) gained `owner`, and the
   * previous owner (`previousOwner`, the actor) now has `organizations.previousOwnerRoles`.
   */
  ownershipTransferred: {
    member: AuthMember;
    previousRoles: string[];
    previousOwner: AuthMember;
    actorUserId: string;
  };
  /**
   * An invitation was created or re-sent (`rotated`: same invitation, new token and expiry). The
   * payload carries the token, to send the invitation email; the hook table keeps it sealed
   * (see `sealed_invitation_event.ts`).
   */
  invitationCreated: {
    invitation: AuthInvitation & { token: string };
    organization: AuthOrganization;
    rotated: boolean;
    actorUserId: string;
  };
  /** The invitee accepted. */
  invitationAccepted: { invitation: AuthInvitation; member: AuthMember; actorUserId: string };
  /** The invitee rejected. */
  invitationRejected: { invitation: AuthInvitation; actorUserId: string };
  /** The inviter or an owner/admin canceled it, or its organization was deleted. */
  invitationCanceled: { invitation: AuthInvitation; actorUserId: string };
  /** It expired while pending. */
  invitationExpired: { invitation: AuthInvitation };
}

/**
 * The name of an event.
 *
 * @example
 * ```ts
 * import type { OrganizationEventName } from "@app/fragment-cli/auth";
 *
 * const mailed: OrganizationEventName[] = ["invitationCreated", "memberAdded"];
 * ```
 */
export type OrganizationEventName = keyof OrganizationEventPayloads;

/**
 * The names of every event, in a stable order.
 *
 * @example Log every event
 * ```ts
 * import {
 *   ORGANIZATION_EVENT_NAMES,
 *   type OrganizationEventHandlers,
 * } from "@app/fragment-cli/auth";
 *
 * const hooks: OrganizationEventHandlers = Object.fromEntries(
 *   ORGANIZATION_EVENT_NAMES.map((name) => [name, (payload: unknown) => console.log(name, payload)]),
 * );
 * ```
 */
export const ORGANIZATION_EVENT_NAMES: readonly OrganizationEventName[] = Object.freeze([
  "organizationCreated",
  "organizationUpdated",
  "organizationDeleted",
  "memberAdded",
  "memberRemoved",
  "memberRolesChanged",
  "memberSecondFactorLost",
  "ownershipTransferred",
  "invitationCreated",
  "invitationAccepted",
  "invitationRejected",
  "invitationCanceled",
  "invitationExpired",
]);

/**
 * What a handler learns about the delivery besides the payload.
 *
 * @example Skip an event already handled
 * ```ts
 * import type { OrganizationEventContext } from "@app/fragment-cli/auth";
 *
 * const handled = new Set<string>();
 * function once(context: OrganizationEventContext, work: () => void): void {
 *   if (handled.has(context.id)) return;
 *   work();
 *   handled.add(context.id);
 * }
 * ```
 */
export interface OrganizationEventContext {
  /** The event's id, stable across delivery attempts: use it to make the handler idempotent. */
  id: string;
  /** This delivery attempt, 1 for the first. */
  attempt: number;
}

/**
 * Handlers of the events, by name. A handler runs after the change committed, outside any
 * transaction; throwing schedules a retry (at-least-once delivery).
 *
 * @example Send the invitation email
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   organizations: {
 *     hooks: {
 *       invitationCreated: async ({ invitation, organization }, { id }) => {
 *         await fetch("https://mail.example.com/send", {
 *           method: "POST",
 *           headers: { "idempotency-key": id },
 *           body: JSON.stringify({
 *             to: invitation.email,
 *             subject: `Join ${organization.name}`,
 *             text: `https://app.example.com/join/${invitation.id}?token=${invitation.token}`,
 *           }),
 *         });
 *       },
 *     },
 *   },
 * });
 * ```
 */
export type OrganizationEventHandlers = {
  [Name in OrganizationEventName]?: (
    payload: OrganizationEventPayloads[Name],
    context: OrganizationEventContext,
  ) => void | Promise<void>;
};
