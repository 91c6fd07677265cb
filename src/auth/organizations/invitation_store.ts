/**
 * SQL of invitations. Lookups are scoped by organization id or by the invitee's email; state
 * changes are conditional updates (`WHERE status = 'pending' AND expires_at > now()`), so of two
 * racing accepts exactly one wins.
 *
 * @module
 */

import { keysetList, type Page, type PageRequest } from "../../pagination/mod.ts";
import type { SqlQuerier } from "../../sql/mod.ts";
import { CREATED_AT_ID } from "./page_order.ts";
import type { AuthTableNames } from "../tables.ts";
import { hashToken } from "../sessions/tokens.ts";
import { isUuid } from "../account/user_store.ts";
import {
  type AuthInvitation,
  type AuthInvitationEntry,
  type AuthInvitationStatus,
  invitationColumns,
  type InvitationRow,
  organizationColumns,
  type OrganizationRow,
  toInvitation,
  toOrganization,
} from "./resources.ts";

/** An invitation row with its organization's columns. */
export type InvitationWithOrganizationRow = InvitationRow & OrganizationRow;

/**
 * Creates an invitation, or re-sends the pending one of the same email (new token, roles, inviter
 * and expiry; `rotated` is then true), atomically even when two invites race.
 */
export async function upsertInvitation(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: {
    organizationId: string;
    email: string;
    roles: readonly string[];
    token: string;
    inviterId: string;
    ttlSeconds: number;
  },
): Promise<{ row: InvitationRow; rotated: boolean }> {
  const [row] = await db.query<InvitationRow & { inserted: boolean }>(
    `INSERT INTO ${tables.invitations} AS i
       (organization_id, email, roles, token_hash, inviter_id, expires_at)
     VALUES ($1, $2, $3::text::jsonb, $4, $5, now() + $6::float8 * interval '1 second')
     ON CONFLICT (organization_id, email) WHERE status = 'pending' DO UPDATE SET
       roles = EXCLUDED.roles, token_hash = EXCLUDED.token_hash, inviter_id = EXCLUDED.inviter_id,
       expires_at = EXCLUDED.expires_at, updated_at = now()
     RETURNING ${invitationColumns("i")}, (i.xmax = 0) AS inserted`,
    [
      input.organizationId,
      input.email,
      JSON.stringify(input.roles),
      hashToken(input.token),
      input.inviterId,
      input.ttlSeconds,
    ],
  );
  const { inserted, ...invitation } = row;
  return { row: invitation, rotated: !inserted };
}

/** An invitation with its organization, if the organization is live; `lock` locks the invitation. */
export async function findInvitation(
  db: SqlQuerier,
  tables: AuthTableNames,
  invitationId: string,
  lock = false,
): Promise<InvitationWithOrganizationRow | null> {
  if (!isUuid(invitationId)) return null;
  const [row] = await db.query<InvitationWithOrganizationRow>(
    `SELECT ${invitationColumns("i")}, ${organizationColumns("o")}
     FROM ${tables.invitations} i
     JOIN ${tables.organizations} o ON o.id = i.organization_id AND o.deleted_at IS NULL
     WHERE i.id = $1 ${lock ? "FOR UPDATE OF i" : ""}`,
    [invitationId],
  );
  return row ?? null;
}

/**
 * Moves a pending, unexpired invitation to `status`; `null` when it is no longer pending or has
 * expired (the caller re-reads to tell which).
 */
export async function respondToInvitation(
  db: SqlQuerier,
  tables: AuthTableNames,
  invitationId: string,
  status: Exclude<AuthInvitationStatus, "pending" | "expired">,
): Promise<InvitationRow | null> {
  const [row] = await db.query<InvitationRow>(
    `UPDATE ${tables.invitations} AS i
     SET status = $2, responded_at = now(), updated_at = now()
     WHERE i.id = $1 AND i.status = 'pending' AND i.expires_at > now()
     RETURNING ${invitationColumns("i")}`,
    [invitationId, status],
  );
  return row ?? null;
}

/**
 * Gives a pending, unexpired invitation whose token hash is still `tokenHash` the token `token`
 * (its hash); `null` when it was answered, expired or re-sent meanwhile.
 */
export async function rotateInvitationToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { invitationId: string; tokenHash: string; token: string },
): Promise<InvitationRow | null> {
  const [row] = await db.query<InvitationRow>(
    `UPDATE ${tables.invitations} AS i SET token_hash = $3, updated_at = now()
     WHERE i.id = $1 AND i.token_hash = $2 AND i.status = 'pending' AND i.expires_at > now()
     RETURNING ${invitationColumns("i")}`,
    [input.invitationId, input.tokenHash, hashToken(input.token)],
  );
  return row ?? null;
}

/**
 * Marks pending invitations past their expiry as `expired` — one by id, or all of an
 * organization — and returns them (for the `invitationExpired` events).
 */
export async function expireInvitations(
  db: SqlQuerier,
  tables: AuthTableNames,
  where: { invitationId: string } | { organizationId: string },
): Promise<InvitationRow[]> {
  const [column, value] = "invitationId" in where
    ? ["id", where.invitationId]
    : ["organization_id", where.organizationId];
  return await db.query<InvitationRow>(
    `UPDATE ${tables.invitations} AS i SET status = 'expired', updated_at = now()
     WHERE i.${column} = $1 AND i.status = 'pending' AND i.expires_at <= now()
     RETURNING ${invitationColumns("i")}`,
    [value],
  );
}

/** Cancels every pending invitation of an organization (it is being deleted). */
export async function cancelPendingInvitations(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
): Promise<InvitationRow[]> {
  return await db.query<InvitationRow>(
    `UPDATE ${tables.invitations} AS i
     SET status = 'canceled', responded_at = now(), updated_at = now()
     WHERE i.organization_id = $1 AND i.status = 'pending'
     RETURNING ${invitationColumns("i")}`,
    [organizationId],
  );
}

/** One page of an organization's invitations (every status, no tokens), oldest first. */
export async function pageOrganizationInvitations(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  request: PageRequest,
  secret: string,
): Promise<Page<AuthInvitation>> {
  return await keysetList(db, {
    listId: `invitations:${organizationId}`,
    columns: CREATED_AT_ID,
    secret,
    table: "i",
    pageSize: request.pageSize,
    cursor: request.cursor,
    select: invitationColumns("i"),
    from: `${tables.invitations} i`,
    where: ["i.organization_id = $1"],
    params: [organizationId],
    map: toInvitation,
  });
}

/** The tables of the pending invitations with their live organization (`i`, `o`). */
const PENDING_FROM = (tables: AuthTableNames): string =>
  `${tables.invitations} i
   JOIN ${tables.organizations} o ON o.id = i.organization_id AND o.deleted_at IS NULL`;

/** The conditions of the pending, unexpired invitations of the email `$1`. */
const PENDING_WHERE = ["i.email = $1", "i.status = 'pending'", "i.expires_at > now()"];

/** The pending, unexpired invitations of the email `$1` (aliased `i`) with their live organization (`o`). */
export const PENDING_FOR_EMAIL = (tables: AuthTableNames): string =>
  `FROM ${PENDING_FROM(tables)}
   WHERE ${PENDING_WHERE.join(" AND ")}`;

/**
 * One page of the pending, unexpired invitations of an email, oldest first. `null` (the address of
 * an unverified caller) matches nothing, through the same pager (so a bad cursor or page size is
 * refused the same way).
 */
export async function pagePendingInvitations(
  db: SqlQuerier,
  tables: AuthTableNames,
  email: string | null,
  request: PageRequest,
  secret: string,
): Promise<Page<AuthInvitationEntry>> {
  return await keysetList(db, {
    listId: `pending-invitations:${email}`,
    columns: CREATED_AT_ID,
    secret,
    table: "i",
    pageSize: request.pageSize,
    cursor: request.cursor,
    select: `${invitationColumns("i")}, ${organizationColumns("o")}`,
    from: PENDING_FROM(tables),
    where: PENDING_WHERE,
    params: [email],
    map: (row: InvitationWithOrganizationRow) => ({
      invitation: toInvitation(row),
      organization: toOrganization(row),
    }),
  });
}
