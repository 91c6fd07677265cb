/**
 * The `invitationCreated` event as the hook table stores it: the invitation without its token,
 * plus the token sealed (AES-256-GCM, key from the deployment's `secret`, bound to the invitation
 * id) and its SHA-256. The handler receives the documented payload, token included, opened just
 * before the call; a database dump, `api.hooks.list()` or a log of the hook table shows no token.
 *
 * @module
 */

import type { JsonValue } from "../../schema/mod.ts";
import type { Sealer } from "./sealing.ts";
import { hashToken } from "../sessions/tokens.ts";
import type { OrganizationEventPayloads } from "./event_types.ts";
import type { AuthInvitation } from "./resources.ts";

type Created = OrganizationEventPayloads["invitationCreated"];

/** The stored shape of an `invitationCreated` payload. */
export interface StoredInvitationCreated extends Omit<Created, "invitation"> {
  invitation: AuthInvitation;
  /** The token sealed for the invitation id (see `sealing.ts`). */
  sealedToken: string;
  /** The SHA-256 of the token: tells whether the invitation still has this token. */
  tokenHash: string;
}

/** The payload to store for an `invitationCreated` event. */
export function sealInvitationCreated(payload: Created, sealer: Sealer): JsonValue {
  const { token, ...invitation } = payload.invitation;
  const stored: StoredInvitationCreated = {
    ...payload,
    invitation,
    sealedToken: sealer.seal(token, invitation.id),
    tokenHash: hashToken(token),
  };
  return stored as unknown as JsonValue;
}

/**
 * The handler's payload from a stored one, or `"unsealable"` when the token cannot be opened (it
 * was sealed with another secret, or by another process without a secret). A payload stored
 * before tokens were sealed (with `invitation.token`) is passed through.
 */
export function openInvitationCreated(
  stored: StoredInvitationCreated | Created,
  sealer: Sealer,
): Created | "unsealable" {
  if (!("sealedToken" in stored)) return stored;
  const { sealedToken, tokenHash: _hash, ...rest } = stored;
  const token = sealer.open(sealedToken, rest.invitation.id);
  if (token === null) return "unsealable";
  return { ...rest, invitation: { ...rest.invitation, token } };
}
