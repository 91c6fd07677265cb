/**
 * The account lifecycle operations of `auth.api`: the routes' operations called on the server,
 * with the same input parsing, limits and errors.
 *
 * @module
 */

import type { z } from "zod";
import type { Actor, AuthActor } from "../actor.ts";
import type { ClientInfo } from "../account_service.ts";
import type { AuthUser } from "../user_store.ts";
import {
  type ChangeEmailBody,
  changeEmailBody,
  type ChangePasswordBody,
  changePasswordBody,
  type ConfirmEmailChangeBody,
  confirmEmailChangeBody,
  type DeleteAccountBody,
  deleteAccountBody,
  type DeletedAccount,
  type ForgotPasswordBody,
  forgotPasswordBody,
  type ForgotPasswordResponse,
  type ListedSession,
  type ResetPasswordBody,
  resetPasswordBody,
  type RevokedSessions,
  sessionIdParams,
} from "./account_inputs.ts";
import type { AccountLifecycle } from "./lifecycle.ts";

/** The request a server-side call serves, for the per-address rate limits. */
export interface AccountApiClient {
  /** The request the call serves (its forwarding header counts under `trustProxy`). */
  request?: Request;
  /** The socket's peer address of that request. */
  remoteAddress?: string | null;
}

/**
 * The account lifecycle operations of `auth.api` (see `AuthApi`).
 *
 * @example Reset a password from a support tool
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter();
 * await migrate(database, authSchema);
 * const outbox: string[] = [];
 * const authModule = auth({
 *   database,
 *   publicOrigin: "https://app.example.com",
 *   sendPasswordResetEmail: ({ url }) => void outbox.push(url),
 * });
 * await authModule.api.createUser({ email: "ada@example.com", password: "correct horse" });
 * await authModule.api.forgotPassword({ email: "ada@example.com" });
 * console.log(outbox[0].startsWith("https://app.example.com/#reset-password?token=")); // true
 * ```
 */
export interface AuthAccountApi {
  /** `POST /password/forgot`: mails a reset link if the account exists; the same answer always. */
  forgotPassword(
    input: ForgotPasswordBody,
    client?: AccountApiClient,
  ): Promise<ForgotPasswordResponse>;
  /** `POST /password/reset`: sets the password with the mailed token; every session ends. */
  resetPassword(input: ResetPasswordBody, client?: AccountApiClient): Promise<{ user: AuthUser }>;
  /** `POST /password/change` (401 `INVALID_CREDENTIALS` for a wrong current password). */
  changePassword(
    actor: AuthActor,
    input: ChangePasswordBody,
    client?: AccountApiClient,
  ): Promise<{ user: AuthUser; revokedSessions: number }>;
  /** `GET /sessions`: the actor's sessions (never their tokens). */
  listSessions(actor: AuthActor): Promise<{ sessions: ListedSession[] }>;
  /** `DELETE /sessions/:sessionId` (404 for another user's session). */
  revokeSession(actor: AuthActor, input: { sessionId: string }): Promise<void>;
  /** `POST /sessions/revoke-others` (needs a credential: `{ token }` or a request's context). */
  revokeOtherSessions(actor: AuthActor): Promise<RevokedSessions>;
  /** `POST /email/change`: mails a confirmation link to the new address. */
  changeEmail(
    actor: AuthActor,
    input: ChangeEmailBody,
    client?: AccountApiClient,
  ): Promise<ForgotPasswordResponse>;
  /** `POST /email/change/confirm`: switches to the new address with the mailed token. */
  confirmEmailChange(
    input: ConfirmEmailChangeBody,
    client?: AccountApiClient,
  ): Promise<{ user: AuthUser }>;
  /** `POST /account/delete` (409 `SOLE_OWNER`). */
  deleteAccount(
    actor: AuthActor,
    input: DeleteAccountBody,
    client?: AccountApiClient,
  ): Promise<DeletedAccount>;
}

/** What {@link accountApi} borrows from `createAuthApi`. */
export interface AccountApiDeps {
  lifecycle: AccountLifecycle;
  resolveActor(actor: AuthActor, operation: string): Promise<Actor>;
  parseInput<T>(schema: z.ZodType<T>, value: unknown, operation: string): T;
  clientInfo(client: AccountApiClient | undefined): ClientInfo;
}

/** Builds the account operations of `auth.api`. */
export function accountApi(deps: AccountApiDeps): AuthAccountApi {
  const { lifecycle, resolveActor, parseInput, clientInfo } = deps;
  return {
    forgotPassword: (input, client) =>
      lifecycle.password.forgot(
        parseInput(forgotPasswordBody, input, "forgotPassword"),
        clientInfo(client),
      ),
    resetPassword: (input, client) =>
      lifecycle.password.reset(
        parseInput(resetPasswordBody, input, "resetPassword"),
        clientInfo(client),
      ),
    async changePassword(actor, input, client) {
      const resolved = await resolveActor(actor, "changePassword");
      const body = parseInput(changePasswordBody, input, "changePassword");
      return await lifecycle.password.change(resolved, body, clientInfo(client));
    },
    async listSessions(actor) {
      return await lifecycle.sessions.list(await resolveActor(actor, "listSessions"));
    },
    async revokeSession(actor, input) {
      const resolved = await resolveActor(actor, "revokeSession");
      await lifecycle.sessions.revoke(
        resolved,
        parseInput(sessionIdParams, input, "revokeSession"),
      );
    },
    async revokeOtherSessions(actor) {
      return await lifecycle.sessions.revokeOthers(
        await resolveActor(actor, "revokeOtherSessions"),
      );
    },
    async changeEmail(actor, input, client) {
      const resolved = await resolveActor(actor, "changeEmail");
      const body = parseInput(changeEmailBody, input, "changeEmail");
      return await lifecycle.email.request(resolved, body, clientInfo(client));
    },
    confirmEmailChange: (input, client) =>
      lifecycle.email.confirm(
        parseInput(confirmEmailChangeBody, input, "confirmEmailChange"),
        clientInfo(client),
      ),
    async deleteAccount(actor, input, client) {
      const resolved = await resolveActor(actor, "deleteAccount");
      const body = parseInput(deleteAccountBody, input, "deleteAccount");
      return await lifecycle.deleteAccount(resolved, body, clientInfo(client));
    },
  };
}
