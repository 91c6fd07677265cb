/**
 * The email link calls of the typed client: `client.emailLink`. Their methods and paths come from
 * the operation declarations, through the generated `generated/client_routes.ts`.
 *
 * @module
 */

import type {
  AuthEmailLinkAnswer,
  AuthEmailLinkSent,
  AuthSendEmailLinkBody,
  AuthVerifyEmailLinkBody,
} from "../auth/mod.ts";
import type { AuthResult } from "./result.ts";
import type { SendOperation } from "./account_client.ts";
import type * as Routes from "../../generated/client_routes.ts";

/**
 * Passwordless sign-in: `client.emailLink`.
 *
 * @example Ask for a link, then sign in on the page it opens
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * await client.emailLink.send({ email: "ada@example.com", redirectTo: "/invoices" });
 * // … on the page the mailed link opens (https://app.example.com/#sign-in-link?token=…):
 * const token = new URLSearchParams(location.hash.split("?")[1] ?? "").get("token") ?? "";
 * const { data } = await client.emailLink.verify({ token });
 * if (data && !("twoFactorRequired" in data)) location.assign(data.redirectTo ?? "/");
 * ```
 */
export interface AuthEmailLinkClient {
  /** `POST /sign-in/email-link`: 202 and the same answer whether or not the account exists. */
  send(body: AuthSendEmailLinkBody): Promise<AuthResult<AuthEmailLinkSent>>;
  /**
   * `POST /sign-in/email-link/verify` with the link's token: signs in (sets the cookie), or, for
   * a user with a second factor, the challenge `client.signIn.twoFactor` answers.
   */
  verify(body: AuthVerifyEmailLinkBody): Promise<AuthResult<AuthEmailLinkAnswer>>;
}

/**
 * The email link calls of the client, over `send` and the operations' routes.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * await client.emailLink.send({ email: "ada@example.com" });
 * ```
 */
export function emailLinkCalls(send: SendOperation, routes: typeof Routes): AuthEmailLinkClient {
  return {
    send: (body) => send(routes.sendEmailLink, { body }),
    verify: (body) => send(routes.signInWithEmailLink, { body }),
  };
}
