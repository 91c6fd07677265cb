/**
 * The pending invitations of `GET /me`, kept per email and reused while the rows they come from
 * are unchanged (see `validated_reads.ts` for how a change is seen).
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import {
  type InvitationWithOrganizationRow,
  PENDING_FOR_EMAIL,
} from "../organizations/invitation_store.ts";
import {
  invitationColumns,
  organizationColumns,
  toInvitation,
  toOrganization,
} from "../organizations/resources.ts";
import { type Built, type ValidatedReads, validatedReads } from "./validated_reads.ts";

/**
 * The most pending invitations `/me` carries (the oldest first); `invitationsHasMore` says there
 * are more, which `GET /organizations/invitations` pages in the same order.
 */
export const ME_INVITATION_LIMIT = 100;

/** An email's pending invitations as `/me` writes them. */
export interface MeInvitations {
  /** The JSON text of an array of the first {@link ME_INVITATION_LIMIT} invitations. */
  json: string;
  /** Whether the email has more pending invitations than are listed. */
  hasMore: boolean;
}

/** How many characters of invitations are kept, across emails (about 2 MB of strings). */
export const ME_INVITATIONS_KEPT_CHARS = 1024 * 1024;

type Row = { validator: string } & Partial<InvitationWithOrganizationRow>;

/**
 * Reads the first {@link ME_INVITATION_LIMIT} pending, unexpired invitations of an email, oldest
 * first, without tokens, as the JSON text of an array of `{ invitation, organization }`, and
 * whether there are more.
 */
export function meInvitationsReader(
  db: SqlQuerier,
  tables: AuthTableNames,
  maxChars: number = ME_INVITATIONS_KEPT_CHARS,
): ValidatedReads<MeInvitations> {
  return validatedReads<Row, MeInvitations>(db, { sql: invitationsSql(tables), build, maxChars });
}

/**
 * The validator is the `xmin` of each listed invitation with its organization's, and of the one
 * past the limit (read only to tell whether there are more). Both subqueries
 * see the same `now()`, so an invitation that expires drops out of both, and changes the
 * validator. The `LIMIT` keeps the second subquery from being flattened into the join, so its
 * condition on the validator is evaluated once, before anything is read.
 */
function invitationsSql(tables: AuthTableNames): string {
  const pending = PENDING_FOR_EMAIL(tables);
  const first = `ORDER BY i.created_at, i.id LIMIT ${ME_INVITATION_LIMIT + 1}`;
  return `SELECT v.validator, x.*
    FROM (
      SELECT coalesce(string_agg(p.ix::text || '/' || p.ox::text, ','), '') AS validator
      FROM (SELECT i.xmin AS ix, o.xmin AS ox ${pending} ${first}) p
    ) v
    LEFT JOIN LATERAL (
      SELECT ${invitationColumns("i")}, ${organizationColumns("o")}
      ${pending} AND v.validator IS DISTINCT FROM $2
      ${first}
    ) x ON true
    ORDER BY x.i_created_at, x.i_id`;
}

function build(rows: Row[]): Built<MeInvitations> {
  // An email without invitations: the one row has none.
  const found = rows.filter((row) => row.i_id != null);
  const entries = found.slice(0, ME_INVITATION_LIMIT).map((row) => ({
    invitation: toInvitation(row as InvitationWithOrganizationRow),
    organization: toOrganization(row as InvitationWithOrganizationRow),
  }));
  const json = JSON.stringify(entries);
  return { value: { json, hasMore: found.length > ME_INVITATION_LIMIT }, chars: json.length };
}
