/**
 * What every client method resolves to: the answer's data, or the error the module answered
 * with (or a network failure). Methods never throw for an HTTP or network error, so a caller
 * always branches on `error` and TypeScript narrows `data` after it.
 *
 * @module
 */

import type { AuthErrorCode } from "../auth/mod.ts";

/**
 * The codes a client may meet: every code of the auth module (`AUTH_ERROR_CODES`), those the core
 * answers for any module, and two of the client's own: `NETWORK_ERROR` (status 0: no answer
 * arrived) and `INVALID_RESPONSE` (an answer that is not the module's JSON).
 *
 * @example
 * ```ts
 * import type { AuthClientErrorCode } from "@app/fragment-cli/client";
 *
 * const retryable: AuthClientErrorCode[] = ["RATE_LIMITED", "SERVICE_BUSY", "NETWORK_ERROR"];
 * ```
 */
export type AuthClientErrorCode =
  | AuthErrorCode
  | "VALIDATION_ERROR"
  | "INVALID_JSON"
  | "INVALID_HOST"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL_ERROR"
  | "NETWORK_ERROR"
  | "INVALID_RESPONSE";

/**
 * An error answer: `{"error": {"code", "message"}}` with its status, plus `issues` for
 * `VALIDATION_ERROR` and `retryAfter` when the answer had `Retry-After` (429, 503).
 *
 * @example Tell a taken address from other failures
 * ```ts
 * import { type AuthClientError, createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { error } = await client.signUp({ email: "ada@example.com", password: "correct horse" });
 * const explain = (failure: AuthClientError) =>
 *   failure.code === "EMAIL_TAKEN" ? "This address has an account: sign in" : failure.message;
 * if (error) console.log(explain(error));
 * ```
 */
export interface AuthClientError {
  /** The HTTP status; `0` when no answer arrived (`NETWORK_ERROR`). */
  status: number;
  /** The stable code to branch on. */
  code: AuthClientErrorCode;
  /** A sentence for a developer (not localized). */
  message: string;
  /** The failed fields of a `VALIDATION_ERROR` (`path` like `"body.email"`). */
  issues?: { path: string; message: string }[];
  /** Seconds to wait before retrying, from `Retry-After`. */
  retryAfter?: number;
}

/**
 * `{ data, error: null }` on success, `{ data: null, error }` otherwise.
 *
 * @example
 * ```ts
 * import { type AuthMe, type AuthResult, createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const result: AuthResult<AuthMe> = await client.me();
 * if (result.error) console.log(result.error.code);
 * else console.log(result.data.user.email); // narrowed: data is AuthMe here
 * ```
 */
export type AuthResult<T> =
  | { data: T; error: null }
  | { data: null; error: AuthClientError };
