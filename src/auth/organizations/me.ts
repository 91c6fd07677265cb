/**
 * The `GET /me` answer with organizations: a fixed number of queries whatever the number of
 * organizations (one for the entries, one for the invitations), written as JSON text from parts
 * kept while their rows are unchanged (see `me_entries.ts` and `me_invitations.ts`).
 *
 * @module
 */

import type { SqlQuerier } from "../../db/mod.ts";
import type { AuthContext } from "../authenticator.ts";
import type { AuthTableNames } from "../tables.ts";
import { meEntriesReader } from "./me_entries.ts";
import { meInvitationsReader } from "./me_invitations.ts";

/**
 * The `/me` answer of a caller as JSON text: `user`, `organizations` (every entry),
 * `activeOrganization` (the entry of the credential's active organization, or `null`) and
 * `invitations` (pending ones addressed to the caller's email, once it is verified). One per module instance: it keeps
 * the parts it read.
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
      auth.user.emailVerified ? invitationsReader.read(auth.user.email) : "[]",
    ]);
    const active = auth.session.activeOrganizationId;
    const activeEntry = active === null ? undefined : entries.byOrganization.get(active);
    return `{"user":${JSON.stringify(auth.user)},` +
      `"organizations":[${entries.listJson}],` +
      `"activeOrganization":${activeEntry ?? "null"},` +
      `"invitations":${invitations}}`;
  };
}
