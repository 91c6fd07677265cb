/**
 * The durable events of the account lifecycle: one per change (a password reset or change, an
 * address change, a revoked session, a deleted account, a linked or unlinked identity, an added or
 * removed passkey, a second factor enabled or disabled, a recovery code used), recorded in the
 * transaction of the change (an event exists exactly when its change committed) and delivered to
 * the application's handler afterwards, with retries, by the module's durable hooks: the same delivery as the
 * organization events. Payloads carry ids, addresses and times, never a token.
 *
 * @module
 */

import type { HookHandler } from "../../hooks/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthUser } from "./user.ts";

/**
 * Every account event, by name, with its payload (JSON: ids, addresses, ISO timestamps).
 *
 * @example Mail the user when their password changed
 * ```ts
 * import type { AccountEventPayloads } from "@app/fragment-cli/auth";
 *
 * function securityMail({ user, at }: AccountEventPayloads["passwordChanged"]): string {
 *   return `To ${user.email}: your password was changed at ${at}.`;
 * }
 * ```
 */
export interface AccountEventPayloads {
  /** The password was set through a mailed reset link; every session was revoked. */
  passwordReset: { user: AuthUser; revokedSessions: number; at: string };
  /** The signed-in user changed their password. */
  passwordChanged: { user: AuthUser; revokedSessions: number; at: string };
  /** The address changed (confirmed from the new address): mail the old one. */
  emailChanged: { user: AuthUser; previousEmail: string; at: string };
  /** A session was revoked by its user (one, or all the others). */
  sessionRevoked: {
    user: AuthUser;
    sessionId: string;
    reason: "revoked" | "revokeOthers";
    at: string;
  };
  /**
   * A Telegram user was linked to the account (the bot received `/start <token>`), replacing its
   * previous Telegram user if any.
   */
  telegramLinked: { user: AuthUser; telegram: { id: string; username: string | null }; at: string };
  /**
   * An account at a provider was connected to the user: by the user (`POST /oauth/:provider/link`),
   * at the sign-up it created, or when a verified address joined it to the existing account.
   */
  identityLinked: {
    user: AuthUser;
    identity: { id: string; provider: string; email: string | null };
    at: string;
  };
  /** The user disconnected an account at a provider (`DELETE /identities/:identityId`). */
  identityUnlinked: {
    user: AuthUser;
    identity: { id: string; provider: string; email: string | null };
    at: string;
  };
  /**
   * The user added a passkey (`POST /passkeys`). `twoFactorEnabled`: whether the account has a
   * second factor now (always `true`: a passkey is one).
   */
  passkeyAdded: {
    user: AuthUser;
    passkey: { id: string; name: string; deviceType: "singleDevice" | "multiDevice" };
    twoFactorEnabled: boolean;
    at: string;
  };
  /**
   * The user removed a passkey (`DELETE /passkeys/:passkeyId`). `twoFactorEnabled`: whether a
   * second factor remains (another passkey, or TOTP).
   */
  passkeyRemoved: {
    user: AuthUser;
    passkey: { id: string; name: string; deviceType: "singleDevice" | "multiDevice" };
    twoFactorEnabled: boolean;
    at: string;
  };
  /**
   * TOTP was enabled (`POST /two-factor/totp/enable`): sign-ins now ask for a second step, and a
   * new set of recovery codes was shown.
   */
  twoFactorEnabled: { user: AuthUser; at: string };
  /**
   * TOTP and the recovery codes were removed: by the user (`POST /two-factor/disable`, `reason:
   * "disabled"`), or because the owner of the address proved it (an email link or a password
   * reset) on an account someone else had set up unverified (`reason: "addressProven"`, passkeys
   * removed too). `twoFactorEnabled` tells whether a second factor (a passkey) remains.
   */
  twoFactorDisabled: {
    user: AuthUser;
    twoFactorEnabled: boolean;
    reason: "disabled" | "addressProven";
    at: string;
  };
  /** A recovery code answered a sign-in's second step; `recoveryCodesLeft` remain unused. */
  recoveryCodeUsed: { user: AuthUser; recoveryCodesLeft: number; at: string };
  /** The account was deleted; `deletedOrganizationIds` were its sole-member organizations. */
  accountDeleted: {
    userId: string;
    email: string;
    deletedOrganizationIds: string[];
    at: string;
  };
}

/**
 * The name of an account event.
 *
 * @example
 * ```ts
 * import type { AccountEventName } from "@app/fragment-cli/auth";
 *
 * const audited: AccountEventName[] = ["passwordReset", "accountDeleted"];
 * ```
 */
export type AccountEventName = keyof AccountEventPayloads;

/**
 * The names of every account event, in a stable order.
 *
 * @example
 * ```ts
 * import { ACCOUNT_EVENT_NAMES } from "@app/fragment-cli/auth";
 *
 * console.log(ACCOUNT_EVENT_NAMES.includes("passwordReset")); // true
 * ```
 */
export const ACCOUNT_EVENT_NAMES: readonly AccountEventName[] = Object.freeze([
  "passwordReset",
  "passwordChanged",
  "emailChanged",
  "sessionRevoked",
  "accountDeleted",
  "telegramLinked",
  "identityLinked",
  "identityUnlinked",
  "passkeyAdded",
  "passkeyRemoved",
  "twoFactorEnabled",
  "twoFactorDisabled",
  "recoveryCodeUsed",
]);

/**
 * Handlers of the account events, by name (option `account.hooks`). A handler runs after the
 * change committed, outside any transaction; throwing schedules a retry (at-least-once delivery):
 * use `context.id` to make it idempotent.
 *
 * @example Security mails
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   account: {
 *     hooks: {
 *       passwordChanged: ({ user }) => console.log(`mail ${user.email}: password changed`),
 *       emailChanged: ({ previousEmail }) => console.log(`mail ${previousEmail}: address changed`),
 *     },
 *   },
 * });
 * ```
 */
export type AccountEventHandlers = {
  [Name in AccountEventName]?: (
    payload: AccountEventPayloads[Name],
    context: { id: string; attempt: number },
  ) => void | Promise<void>;
};

/** Enqueues an occurrence in the caller's transaction (the durable hooks' `enqueue`). */
export type EnqueueEvent = (
  tx: SqlQuerier,
  occurrence: { name: string; payload: JsonValue },
) => Promise<unknown>;

/** Records account events in transactions. */
export interface AccountEvents {
  /** Enqueues an event in `tx` (nothing when the application has no handler for it). */
  emit<Name extends AccountEventName>(
    tx: SqlQuerier,
    name: Name,
    payload: AccountEventPayloads[Name],
  ): Promise<void>;
  /** Wakes this process's worker; call after the transaction that emitted committed. */
  wake(): void;
}

/** The handlers as durable hooks, by event name. */
export function accountEventHooks(
  handlers: AccountEventHandlers,
): Record<string, HookHandler<JsonValue>> {
  const registered: Record<string, HookHandler<JsonValue>> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    if (!handler) continue;
    registered[name] = (payload, context) =>
      (handler as (p: unknown, c: { id: string; attempt: number }) => void | Promise<void>)(
        payload,
        { id: context.id, attempt: context.attempt },
      );
  }
  return registered;
}

/**
 * The account events of one module instance over its durable hooks (`null` when no handler is
 * configured: then nothing is recorded).
 */
export function createAccountEvents(
  handlers: AccountEventHandlers,
  hooks: { enqueue: EnqueueEvent; wake(): void } | null,
): AccountEvents {
  return {
    async emit(tx, name, payload) {
      if (!handlers[name] || hooks === null) return;
      await hooks.enqueue(tx, { name, payload: payload as unknown as JsonValue });
    },
    wake() {
      hooks?.wake();
    },
  };
}
