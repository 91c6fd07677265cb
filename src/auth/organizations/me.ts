/**
 * The `GET /me` answer with organizations: a fixed number of queries whatever the number of
 * organizations (one for the entries, one for the invitations, and one for an active
 * organization beyond the listed ones), each part bounded, written as JSON text from parts
 * kept while their rows are unchanged (see `me_entries.ts` and `me_invitations.ts`).
 *
 * @module
 */

import type { SqlQuerier } from "../../db/mod.ts";
import type { AuthContext } from "../authenticator.ts";
import type { AuthTableNames } from "../tables.ts";
import { meEntriesReader } from "./me_entries.ts";
import { type MeInvitations, meInvitationsReader } from "./me_invitations.ts";
import { findEntry, toEntry } from "./organization_store.ts";

const NO_INVITATIONS: MeInvitations = Object.freeze({ json: "[]", hasMore: false });

/**
 * The `/me` answer of a caller as JSON text: `user`, `organizations` (the oldest 100 entries,
 * `ME_ORGANIZATION_LIMIT`), `organizationsHasMore`, `activeOrganization` (the entry of the
 * credential's active organization, listed or not, or `null`), `invitations` (the oldest 100
 * pending ones addressed to the caller's email once it is verified, `ME_INVITATION_LIMIT`) and
 * `invitationsHasMore`. One per module instance: it keeps the parts it read.
 */
export function meAnswer(
  db: SqlQuerier,
  tables: AuthTableNames,
): (auth: AuthContext) => Promise<string> {
  const entriesReader = meEntriesReader(db, tables);
  const invitationsReader = meInvitationsReader(db, tables);
  return async (auth) => {
    const [entries, invitations] = await Promise.all([
      entriesReader.read(auth.user.id),
      // Invitations go to proven addresses only (anyone can sign up with any address).
      auth.user.emailVerified ? invitationsReader.read(auth.user.email) : NO_INVITATIONS,
    ]);
    const active = auth.session.activeOrganizationId;
    let activeEntry = active === null ? undefined : entries.byOrganization.get(active);
    if (active !== null && activeEntry === undefined && entries.hasMore) {
      // Beyond the listed ones: one more query, only for users with that many organizations.
      const entry = await findEntry(db, tables, active, auth.user.id);
      if (entry) activeEntry = JSON.stringify(toEntry(entry));
    }
    return `{"user":${JSON.stringify(auth.user)},` +
      `"organizations":[${entries.listJson}],` +
      `"organizationsHasMore":${entries.hasMore},` +
      `"activeOrganization":${activeEntry ?? "null"},` +
      `"invitations":${invitations.json},` +
      `"invitationsHasMore":${invitations.hasMore}}`;
  };
}
