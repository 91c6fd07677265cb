/**
 * The Telegram operations of one module instance: issue a link (`POST /telegram/link`), confirm it
 * from the bot (`/start <token>`), unlink, sign in with a Mini App's `initData` or the Login
 * Widget, and the bot's read of an account (`api.telegramAccount`).
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import { type ClientInfo, issueCredential, signInBody } from "../account/account_service.ts";
import type { AccountEvents } from "../account/account_events.ts";
import type { AuthUser } from "../account/user.ts";
import { publicUser } from "../account/user_store.ts";
import type { Actor } from "../actor.ts";
import { authError } from "../errors.ts";
import type { AuthOrganizationEntry } from "../organizations/resources.ts";
import { toEntry } from "../organizations/organization_store.ts";
import type { PermissionModel } from "../organizations/permissions.ts";
import { hashToken, looksLikeToken, newToken } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import { verifyInitData, verifyWidget } from "./telegram_data.ts";
import type {
  AuthTelegramAccount,
  AuthTelegramLink,
  AuthTelegramSignInBody,
} from "./telegram_inputs.ts";
import {
  findLinkedUser,
  findTelegramAccount,
  insertLinkToken,
  linkAccount,
  linkedUserId,
  lockLinkToken,
  telegramOfUser,
  unlinkAccount,
  useLinkToken,
} from "./telegram_store.ts";
import type { ResolvedTelegramOptions } from "./telegram_options.ts";
import { otherWaysIn } from "../oauth/identity_store.ts";
import type { AuthSignInResponse } from "../two_factor/two_factor_inputs.ts";

/** How long a link token works: 10 minutes. */
export const LINK_TOKEN_TTL_SECONDS = 600;

/**
 * What `api.confirmTelegramLink()` did: linked (again, for a redelivered `/start` of the same
 * Telegram user), or why not.
 *
 * @example The bot's answer to `/start <token>`
 * ```ts
 * import type { AuthTelegramLinkResult } from "@app/fragment-cli/auth";
 *
 * function reply(result: AuthTelegramLinkResult): string {
 *   if (result.ok) return `Linked to ${result.user.email}`;
 *   return result.reason === "LINK_TOKEN_EXPIRED" ? "This link expired: ask for a new one" :
 *     result.reason === "TELEGRAM_ACCOUNT_TAKEN" ? "This Telegram account is linked elsewhere" :
 *     "This link is not valid";
 * }
 * ```
 */
export type AuthTelegramLinkResult =
  | { ok: true; user: AuthUser; telegram: AuthTelegramAccount }
  | { ok: false; reason: "INVALID_LINK_TOKEN" | "LINK_TOKEN_EXPIRED" | "TELEGRAM_ACCOUNT_TAKEN" };

/**
 * The Telegram user who sent `/start <token>`: `message.from` of the update (its `id` and
 * `username`).
 *
 * @example
 * ```ts
 * import type { AuthTelegramUser } from "@app/fragment-cli/auth";
 *
 * const from: AuthTelegramUser = { id: 123456789, username: "ada" };
 * ```
 */
export interface AuthTelegramUser {
  /** The Telegram user id (a number, or its decimal digits). */
  id: number | string;
  /** The `@username` without `@`, if any. */
  username?: string | null;
}

/**
 * What `api.telegramAccount()` answers: the linked account and its active organization (that of
 * its most recently used session that has one, else its oldest membership; `null` without one).
 *
 * @example Answer with the user's organization
 * ```ts
 * import type { AuthTelegramAccountContext } from "@app/fragment-cli/auth";
 *
 * function greeting(account: AuthTelegramAccountContext | null): string {
 *   if (account === null) return "Link your account first: open the app and press Link Telegram";
 *   const org = account.activeOrganization?.organization.name ?? "no organization";
 *   return `${account.user.email} (${org})`;
 * }
 * ```
 */
export interface AuthTelegramAccountContext {
  /** The linked user, with their Telegram account. */
  user: AuthUser & { telegram: AuthTelegramAccount };
  /** Their active organization with their membership, or `null`. */
  activeOrganization: AuthOrganizationEntry | null;
}

/** The Telegram operations. */
export interface TelegramService {
  link(actor: Actor): Promise<AuthTelegramLink>;
  unlink(actor: Actor): Promise<void>;
  signIn(body: AuthTelegramSignInBody, client: ClientInfo): Promise<AuthSignInResponse>;
  confirmLink(token: string, from: AuthTelegramUser): Promise<AuthTelegramLinkResult>;
  account(telegramUserId: number | string | bigint): Promise<AuthTelegramAccountContext | null>;
  ofUser(userId: string): Promise<AuthTelegramAccount | null>;
}

/** What {@link telegramService} needs. */
export interface TelegramServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  options: ResolvedTelegramOptions;
  /** The credential lifetime, in seconds. */
  ttlSeconds: number;
  limits: CredentialRateLimits;
  events: AccountEvents;
  /** The organizations' permissions (an entry lists the caller's), `null` without organizations. */
  permissions: PermissionModel | null;
  /**
   * The configured sign-in providers' ids: an account created by one has no password, and its
   * Telegram link may be its last way in.
   */
  signInProviders: readonly string[];
}

const TELEGRAM_ID = /^[1-9][0-9]{0,18}$/;
const USERNAME = /^[A-Za-z0-9_]{1,64}$/;

/** The digits of a Telegram user id, or `null` when it cannot be one. */
function telegramId(value: unknown): string | null {
  const text = typeof value === "number"
    ? (Number.isSafeInteger(value) ? String(value) : "")
    : typeof value === "string" || typeof value === "bigint"
    ? String(value)
    : "";
  return TELEGRAM_ID.test(text) && BigInt(text) <= 9223372036854775807n ? text : null;
}

/** Builds the Telegram operations of one module instance. */
export function telegramService(deps: TelegramServiceOptions): TelegramService {
  const { db, tables, options, limits, events, permissions } = deps;
  const check = { botToken: options.botToken, maxAgeSeconds: options.maxAgeSeconds };

  return {
    async link({ user }) {
      const token = newToken();
      const expiresAt = await insertLinkToken(
        db,
        tables,
        user.id,
        hashToken(token),
        LINK_TOKEN_TTL_SECONDS,
      );
      return {
        url: `https://t.me/${options.botUsername}?start=${token}`,
        expiresAt: expiresAt.toISOString(),
      };
    },
    async unlink({ user }) {
      await db.transaction(async (tx) => {
        // Counted with the user row locked; the Telegram link itself is one of the ways.
        const ways = await otherWaysIn(tx, tables, user.id, null, deps.signInProviders);
        const linked = await unlinkAccount(tx, tables, user.id);
        if (linked && ways <= 1) {
          throw authError(
            "LAST_SIGN_IN_METHOD",
            "Telegram is the account's last way in: set a password or connect a provider first",
          );
        }
      });
    },
    // Anonymous: limited per client address like sign-in; the data is checked before any query.
    async signIn(body, client) {
      return await limits.attempt({
        action: "telegram-sign-in",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const identity = "initData" in body
            ? verifyInitData(body.initData, check)
            : verifyWidget(body.widget, check);
          const record = await findLinkedUser(db, tables, identity.id);
          if (!record) {
            throw authError("TELEGRAM_NOT_LINKED", "No account is linked to this Telegram user");
          }
          return signInBody(
            await issueCredential(db, tables, {
              user: publicUser(record),
              ttlSeconds: deps.ttlSeconds,
              signInMethod: "telegram",
              activeOrganizationId: null,
              userAgent: client.request?.headers.get("user-agent") ?? null,
            }),
          );
        },
      });
    },
    async confirmLink(token, from) {
      const id = telegramId(from?.id);
      if (id === null) throw new TypeError("confirmTelegramLink(): from.id is not a Telegram id");
      const username = typeof from.username === "string" && USERNAME.test(from.username)
        ? from.username
        : null;
      if (typeof token !== "string" || !looksLikeToken(token)) {
        return { ok: false, reason: "INVALID_LINK_TOKEN" };
      }
      const tokenHash = hashToken(token);
      const telegram = { id, username };
      const taken = new Error("taken");
      const result = await db.transaction(async (tx): Promise<AuthTelegramLinkResult> => {
        const row = await lockLinkToken(tx, tables, tokenHash);
        if (row === null) return { ok: false, reason: "INVALID_LINK_TOKEN" };
        if (row.usedBy !== null) {
          // The same Telegram user again (a redelivered or retried /start): the same link.
          const same = row.usedBy === id && await linkedUserId(tx, tables, id) === row.userId;
          if (!same) return { ok: false, reason: "INVALID_LINK_TOKEN" };
          const record = await findLinkedUser(tx, tables, id);
          return { ok: true, user: publicUser(record!), telegram };
        }
        if (row.expired) return { ok: false, reason: "LINK_TOKEN_EXPIRED" };
        // Thrown, not returned: the transaction rolls back whatever linkAccount changed.
        if (!await linkAccount(tx, tables, row.userId, telegram)) throw taken;
        await useLinkToken(tx, tables, tokenHash, id);
        const user = publicUser((await findLinkedUser(tx, tables, id))!);
        await events.emit(tx, "telegramLinked", { user, telegram, at: new Date().toISOString() });
        return { ok: true, user, telegram };
      }).catch((error): AuthTelegramLinkResult => {
        if (error === taken) return { ok: false, reason: "TELEGRAM_ACCOUNT_TAKEN" };
        throw error;
      });
      if (result.ok) events.wake();
      return result;
    },
    async account(telegramUserId) {
      const id = telegramId(telegramUserId);
      if (id === null) return null;
      const row = await findTelegramAccount(db, tables, id);
      if (row === null) return null;
      return {
        user: {
          ...publicUser(row),
          telegram: { id: row.telegramId, username: row.telegramUsername },
        },
        activeOrganization: row.o_id === null || permissions === null
          ? null
          : toEntry(row, permissions),
      };
    },
    ofUser(userId) {
      return telegramOfUser(db, tables, userId);
    },
  };
}
