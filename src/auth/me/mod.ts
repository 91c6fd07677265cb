/**
 * The `GET /me` answer (and `api.me()`), kept in one place: the user, their organizations, the
 * credential's active organization and their pending invitations. With organizations, a fixed
 * number of queries whatever the number of organizations (one for the entries, one for the
 * invitations, and one for an active organization beyond the listed ones), each part bounded,
 * written as JSON text from parts kept while their rows are unchanged (see
 * `organization_entries.ts`, `pending_invitations.ts` and `validated_reads.ts`).
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { Actor } from "../actor.ts";
import type { AuthInvitationEntry, AuthOrganizationEntry } from "../organizations/resources.ts";
import { findEntry, toEntry } from "../organizations/organization_store.ts";
import { hasSecondFactor } from "../organizations/second_factor.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthUser } from "../account/user.ts";
import type { PermissionModel } from "../organizations/permissions.ts";
import { meEntriesReader } from "./organization_entries.ts";
import { type MeInvitations, meInvitationsReader } from "./pending_invitations.ts";
import type { AuthTelegramAccount } from "../telegram/telegram_inputs.ts";
import { telegramOfUser } from "../telegram/telegram_store.ts";

/**
 * The shape of the `GET /me` answer and of `api.me()` (its schema is `meResponse` in
 * responses.ts).
 *
 * @example
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { type AuthMe, authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter();
 * await migrate(database, authSchema);
 * const authModule = auth({ database });
 * const { token } = await authModule.api.signUp({ email: "ada@example.com", password: "correct horse" });
 * const me: AuthMe = await authModule.api.me({ token });
 * console.log(me.user.email, me.activeOrganization?.organization.name ?? "no active organization");
 * ```
 */
export interface AuthMe {
  /**
   * The signed-in user, with the Telegram account linked to it (`null` when none, or without the
   * `telegram` option).
   */
  user: AuthMeUser;
  /**
   * At most 100 entries, the oldest first; `GET /organizations` pages them all. An organization
   * that requires a second factor the user lacks is listed with `access: "twoFactorRequired"`.
   */
  organizations: AuthOrganizationEntry[];
  /** Whether the user has more organizations than `organizations` lists. */
  organizationsHasMore: boolean;
  /**
   * The credential's active organization, listed or not; `null` when none. It may say
   * `access: "twoFactorRequired"`: made active before the organization required a second factor,
   * or before the user removed theirs.
   */
  activeOrganization: AuthOrganizationEntry | null;
  /** At most 100, the oldest first; `GET /organizations/invitations` pages them all. */
  invitations: AuthInvitationEntry[];
  /** Whether there are more pending invitations than `invitations` lists. */
  invitationsHasMore: boolean;
}

/**
 * The user of `GET /me`: the user, with the Telegram account linked to it and whether the account
 * has a second factor.
 *
 * @example
 * ```ts
 * import type { AuthMeUser } from "@app/fragment-cli/auth";
 *
 * function telegramLine(user: AuthMeUser): string {
 *   return user.telegram ? `Telegram: @${user.telegram.username ?? user.telegram.id}` : "Telegram: not linked";
 * }
 * const secondFactorLine = (user: AuthMeUser) => user.twoFactorEnabled ? "2FA: on" : "2FA: off";
 * ```
 */
export interface AuthMeUser extends AuthUser {
  /** The linked Telegram account, `null` when none (or without the `telegram` option). */
  telegram: AuthTelegramAccount | null;
  /**
   * Whether the account has a second factor (an enabled TOTP or a passkey): what an
   * organization's `requireTwoFactor` asks of its members.
   */
  twoFactorEnabled: boolean;
}

/** The `/me` answer of an actor as JSON text. */
export type MeReader = (actor: Actor) => Promise<string>;

const NO_INVITATIONS: MeInvitations = Object.freeze({ json: "[]", hasMore: false });

/**
 * The `/me` reader of one module instance. Without the organizations feature the lists are empty,
 * `activeOrganization` is `null`, and the user's second-factor flag takes a query of its own (with
 * it, the entries' statement reads it). With it: `organizations` (the oldest 100 entries,
 * `ME_ORGANIZATION_LIMIT`), `activeOrganization` (the entry of the credential's active
 * organization, listed or not), `invitations` (the oldest 100 pending ones addressed to the
 * caller's email once it is verified, `ME_INVITATION_LIMIT`). It keeps the parts it read.
 */
export function meReader(
  db: SqlQuerier,
  tables: AuthTableNames,
  permissions: PermissionModel | null,
  telegram = false,
): MeReader {
  /** The user's Telegram account: one more query, only with the `telegram` option. */
  const telegramOf = (userId: string): Promise<AuthTelegramAccount | null> =>
    telegram ? telegramOfUser(db, tables, userId) : Promise.resolve(null);
  if (!permissions) {
    return async (actor) => {
      const [telegramAccount, twoFactorEnabled] = await Promise.all([
        telegramOf(actor.user.id),
        hasSecondFactor(db, tables, actor.user.id),
      ]);
      return JSON.stringify(
        {
          user: { ...actor.user, telegram: telegramAccount, twoFactorEnabled },
          organizations: [],
          organizationsHasMore: false,
          activeOrganization: null,
          invitations: [],
          invitationsHasMore: false,
        } satisfies AuthMe,
      );
    };
  }
  const entriesReader = meEntriesReader(db, tables, permissions);
  const invitationsReader = meInvitationsReader(db, tables);
  return async ({ user, session }) => {
    const [entries, invitations, linked] = await Promise.all([
      entriesReader.read(user.id),
      // Invitations go to proven addresses only (anyone can sign up with any address).
      user.emailVerified ? invitationsReader.read(user.email) : NO_INVITATIONS,
      telegramOf(user.id),
    ]);
    const active = session?.activeOrganizationId ?? null;
    let activeEntry = active === null ? undefined : entries.byOrganization.get(active);
    if (active !== null && activeEntry === undefined && entries.hasMore) {
      // Beyond the listed ones: one more query, only for users with that many organizations.
      const entry = await findEntry(db, tables, active, user.id);
      if (entry) activeEntry = JSON.stringify(toEntry(entry, permissions));
    }
    const meUser: AuthMeUser = {
      ...user,
      telegram: linked,
      twoFactorEnabled: entries.twoFactorEnabled,
    };
    return `{"user":${JSON.stringify(meUser)},` +
      `"organizations":[${entries.listJson}],` +
      `"organizationsHasMore":${entries.hasMore},` +
      `"activeOrganization":${activeEntry ?? "null"},` +
      `"invitations":${invitations.json},` +
      `"invitationsHasMore":${invitations.hasMore}}`;
  };
}
