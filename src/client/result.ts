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
 * answers for any module, and the client's own (status 0): `NETWORK_ERROR` (no answer arrived),
 * `INVALID_RESPONSE` (an answer that is not the module's JSON), `PASSKEY_CEREMONY_FAILED` (the
 * browser or the user ended a passkey ceremony: canceled, timed out, no passkey) and
 * `PASSKEY_NOT_SUPPORTED` (no WebAuthn in this environment).
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
  | "INVALID_BODY"
  | "INVALID_HOST"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL_ERROR"
  | "NETWORK_ERROR"
  | "INVALID_RESPONSE"
  | "PASSKEY_CEREMONY_FAILED"
  | "PASSKEY_NOT_SUPPORTED";

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
  /** The HTTP status; `0` when no answer arrived (`NETWORK_ERROR`) or a passkey ceremony ended. */
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

/**
 * The codes any route of any module may answer, besides those it declares in its `errors`: the
 * core's framing and validation codes (see docs/modules.md), `SERVICE_UNAVAILABLE` from a server
 * shutting down, and the client's own `NETWORK_ERROR` (status 0: no answer arrived) and
 * `INVALID_RESPONSE` (an answer that is not the module's JSON).
 *
 * @example Retry what may pass on a second try
 * ```ts
 * import type { ModuleClientErrorCode } from "@app/fragment-cli/client";
 *
 * const retryable: ModuleClientErrorCode[] = ["SERVICE_UNAVAILABLE", "NETWORK_ERROR"];
 * ```
 */
export type ModuleClientErrorCode =
  | "VALIDATION_ERROR"
  | "INVALID_JSON"
  | "INVALID_BODY"
  | "INVALID_HOST"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE"
  | "NETWORK_ERROR"
  | "INVALID_RESPONSE";

/**
 * An error answer of a module's route, as `createModuleClient` resolves it:
 * `{"error": {"code", "message"}}` with its status, plus `issues` for `VALIDATION_ERROR` and
 * `retryAfter` when the answer had `Retry-After`. `Code` is the route's declared codes and
 * {@link ModuleClientErrorCode}.
 *
 * @example Show each failed field next to its input
 * ```ts
 * import type { ModuleClientError } from "@app/fragment-cli/client";
 *
 * function fieldErrors(error: ModuleClientError): Map<string, string> {
 *   const fields = new Map<string, string>();
 *   for (const issue of error.issues ?? []) fields.set(issue.path, issue.message); // "body.text"
 *   return fields;
 * }
 * ```
 */
export interface ModuleClientError<Code extends string = string> {
  /** The HTTP status; `0` when no answer arrived (`NETWORK_ERROR`). */
  status: number;
  /** The stable code to branch on. */
  code: Code;
  /** A sentence for a developer (not localized). */
  message: string;
  /** The failed fields of a `VALIDATION_ERROR` (`path` like `"body.text"`). */
  issues?: { path: string; message: string }[];
  /** Seconds to wait before retrying, from `Retry-After`. */
  retryAfter?: number;
}

/**
 * What a call of `createModuleClient` resolves to: `{ data, error: null }` on success,
 * `{ data: null, error }` otherwise (never a rejection for an HTTP or network failure).
 *
 * @example
 * ```ts
 * import type { ModuleResult } from "@app/fragment-cli/client";
 *
 * function textOf(result: ModuleResult<{ text: string }, "NOT_FOUND">): string {
 *   if (result.error) return result.error.code === "NOT_FOUND" ? "(deleted)" : "(unavailable)";
 *   return result.data.text; // narrowed: data is { text: string } here
 * }
 * ```
 */
export type ModuleResult<T, Code extends string = string> =
  | { data: T; error: null }
  | { data: null; error: ModuleClientError<Code> };
