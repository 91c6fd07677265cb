/**
 * The account lifecycle calls of the typed client: `client.password`, `client.sessions`,
 * `client.email` and `client.account`. Their methods and paths come from the operation
 * declarations, through the generated `generated/client_routes.ts`.
 *
 * @module
 */

import type {
  AuthChangeEmailBody,
  AuthChangePasswordBody,
  AuthConfirmEmailChangeBody,
  AuthDeleteAccountBody,
  AuthDeletedAccount,
  AuthForgotPasswordBody,
  AuthForgotPasswordResponse,
  AuthListedSession,
  AuthModule,
  AuthResetPasswordBody,
  AuthRevokedSessions,
  AuthUser,
} from "../auth/mod.ts";
import type { ModuleClient } from "./module_client.ts";
import type { ModuleRoutes } from "./module_routes.ts";
import type { AuthResult } from "./result.ts";
import type * as Routes from "../../generated/client_routes.ts";

/**
 * The password calls: `client.password`.
 *
 * @example The reset page an emailed link opens
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const token = new URLSearchParams(location.hash.split("?")[1] ?? "").get("token") ?? "";
 * const { error } = await client.password.reset({ token, password: "a new long password" });
 * if (error?.code === "RESET_TOKEN_EXPIRED") await client.password.forgot({ email: "ada@example.com" });
 * ```
 */
export interface AuthPasswordClient {
  /** `POST /password/forgot`: 202 and the same answer whether or not the account exists. */
  forgot(body: AuthForgotPasswordBody): Promise<AuthResult<AuthForgotPasswordResponse>>;
  /** `POST /password/reset` with the mailed token: every session of the user ends. */
  reset(body: AuthResetPasswordBody): Promise<AuthResult<{ user: AuthUser }>>;
  /** `POST /password/change` (`revokeOtherSessions` defaults to `true`). */
  change(
    body: AuthChangePasswordBody,
  ): Promise<AuthResult<{ user: AuthUser; revokedSessions: number }>>;
}

/**
 * The session calls: `client.sessions`.
 *
 * @example Sign out a lost laptop
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.sessions.list();
 * const lost = data?.sessions.find((s) => !s.current && s.userAgent?.includes("Windows"));
 * if (lost) await client.sessions.revoke(lost.id);
 * ```
 */
export interface AuthSessionsClient {
  /** `GET /sessions`: the caller's sessions, the most recently used first. */
  list(): Promise<AuthResult<{ sessions: AuthListedSession[] }>>;
  /** `DELETE /sessions/:sessionId`; `data` is `null`. */
  revoke(sessionId: string): Promise<AuthResult<null>>;
  /** `POST /sessions/revoke-others`: signs out every other session. */
  revokeOthers(): Promise<AuthResult<AuthRevokedSessions>>;
}

/**
 * The address change calls: `client.email`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * await client.email.change({ newEmail: "ada@new.example.com", password: "correct horse" });
 * // … on the page the mailed link opens:
 * await client.email.confirm({ token: "3q2-7wE…" });
 * ```
 */
export interface AuthEmailClient {
  /** `POST /email/change`: mails a confirmation link to the new address (202). */
  change(body: AuthChangeEmailBody): Promise<AuthResult<AuthForgotPasswordResponse>>;
  /** `POST /email/change/confirm` with the mailed token. */
  confirm(body: AuthConfirmEmailChangeBody): Promise<AuthResult<{ user: AuthUser }>>;
}

/**
 * The account calls: `client.account`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { error } = await client.account.delete({ password: "correct horse" });
 * if (error?.code === "SOLE_OWNER") console.log(error.message);
 * ```
 */
export interface AuthAccountClient {
  /** `POST /account/delete` (409 `SOLE_OWNER` while the only owner of a shared organization). */
  delete(body: AuthDeleteAccountBody): Promise<AuthResult<AuthDeletedAccount>>;
}

/**
 * Sends one operation's request: the module client's `request` over the auth module's routes, by
 * route key (`generated/client_routes.ts`), which the named calls are written over (see
 * `auth_client.ts`).
 */
export type SendOperation = ModuleClient<ModuleRoutes<AuthModule>>["request"];

/**
 * The account calls of the client, over `send` and the operations' routes.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * await client.password.forgot({ email: "ada@example.com" });
 * ```
 */
export function accountCalls(send: SendOperation, routes: typeof Routes): {
  password: AuthPasswordClient;
  sessions: AuthSessionsClient;
  email: AuthEmailClient;
  account: AuthAccountClient;
} {
  return {
    password: {
      forgot: (body) => send(routes.forgotPassword, { body }),
      reset: (body) => send(routes.resetPassword, { body }),
      change: (body) => send(routes.changePassword, { body }),
    },
    sessions: {
      list: () => send(routes.listSessions),
      revoke: (sessionId) => send(routes.revokeSession, { params: { sessionId } }),
      revokeOthers: () => send(routes.revokeOtherSessions),
    },
    email: {
      change: (body) => send(routes.changeEmail, { body }),
      confirm: (body) => send(routes.confirmEmailChange, { body }),
    },
    account: {
      delete: (body) => send(routes.deleteAccount, { body }),
    },
  };
}
