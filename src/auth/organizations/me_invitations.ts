/**
 * The pending invitations of `GET /me`, kept per email and reused while the rows they come from
 * are unchanged (see `validated_reads.ts` for how a change is seen).
 *
 * @module
 */

import type { SqlQuerier } from "../../db/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { type InvitationWithOrganizationRow, PENDING_FOR_EMAIL } from "./invitation_store.ts";
import {
  invitationColumns,
  organizationColumns,
  toInvitation,
  toOrganization,
} from "./resources.ts";
import { type Built, type ValidatedReads, validatedReads } from "./validated_reads.ts";

/** The most pending invitations `/me` carries; `GET /organizations/invitations` pages them all. */
export const ME_INVITATION_LIMIT = 100;

/** How many characters of invitations are kept, across emails (about 2 MB of strings). */
export const ME_INVITATIONS_KEPT_CHARS = 1024 * 1024;

type Row = { validator: string } & Partial<InvitationWithOrganizationRow>;

/**
 * Reads the first {@link ME_INVITATION_LIMIT} pending, unexpired invitations of an email, oldest
 * first, without tokens, as the JSON text of an array of `{ invitation, organization }`.
 */
export function meInvitationsReader(
  db: SqlQuerier,
  tables: AuthTableNames,
  maxChars: number = ME_INVITATIONS_KEPT_CHARS,
): ValidatedReads<string> {
  return validatedReads<Row, string>(db, { sql: invitationsSql(tables), build, maxChars });
}

/**
 * The validator is the `xmin` of each listed invitation with its organization's. Both subqueries
 * see the same `now()`, so an invitation that expires drops out of both, and changes the
 * validator. The `LIMIT` keeps the second subquery from being flattened into the join, so its
 * condition on the validator is evaluated once, before anything is read.
 */
function invitationsSql(tables: AuthTableNames): string {
  const pending = PENDING_FOR_EMAIL(tables);
  const first = `ORDER BY i.created_at, i.id LIMIT ${ME_INVITATION_LIMIT}`;
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

function build(rows: Row[]): Built<string> {
  const entries = rows
    // An email without invitations: the one row has none.
    .filter((row) => row.i_id != null)
    .map((row) => ({
      invitation: toInvitation(row as InvitationWithOrganizationRow),
      organization: toOrganization(row as InvitationWithOrganizationRow),
    }));
  const json = JSON.stringify(entries);
  return { value: json, chars: json.length };
}
