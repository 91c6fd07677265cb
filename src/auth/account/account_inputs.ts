/**
 * The bodies and answers of the account lifecycle operations as zod schemas checked exactly
 * against their types (see `exact_schema.ts`): the routes parse and document them, `auth.api`
 * parses its arguments with them, the typed client takes its types from them.
 *
 * @module
 */

import { z } from "zod";
import { emailSchema, MAX_EMAIL_LENGTH, normalizeEmail } from "./email_address.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { newPasswordSchema, PASSWORD_LENGTH } from "./credential_inputs.ts";
import { userResponse } from "./responses.ts";
import type { AuthUser } from "./user.ts";

const timestamp = z.iso.datetime().describe("ISO 8601 UTC timestamp");
const tokenField = z.string().max(512).describe("The token the mailed link carried");

/**
 * The body of `POST /password/forgot`.
 *
 * @example
 * ```ts
 * import type { AuthForgotPasswordBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthForgotPasswordBody = { email: "ada@example.com" };
 * ```
 */
export interface ForgotPasswordBody {
  /** The account's address (any string: an unknown or malformed one gets the same answer). */
  email: string;
}

/** The body of `POST /password/forgot`: any address is looked up, none is refused. */
export const forgotPasswordBody: z.ZodType<ForgotPasswordBody, ForgotPasswordBody> = exactSchema<
  ForgotPasswordBody
>()(z.object({ email: z.string().max(MAX_EMAIL_LENGTH * 4).transform(normalizeEmail) }));

/**
 * The answer of `POST /password/forgot` (202), the same whether or not the address has an account.
 *
 * @example
 * ```ts
 * import type { AuthForgotPasswordResponse } from "@app/fragment-cli/auth";
 *
 * const answer: AuthForgotPasswordResponse = { message: "If an account uses this address, …" };
 * ```
 */
export interface ForgotPasswordResponse {
  /** A sentence for the user. */
  message: string;
}

/** The answer of `POST /password/forgot`. */
export const forgotPasswordResponse: z.ZodType<ForgotPasswordResponse, ForgotPasswordResponse> =
  exactSchema<ForgotPasswordResponse>()(z.object({ message: z.string() }));

/**
 * The body of `POST /password/reset`.
 *
 * @example
 * ```ts
 * import type { AuthResetPasswordBody } from "@app/fragment-cli/auth";
 *
 * const link = new URL("https://app.example.com/#reset-password?token=3q2-7wE");
 * const token = new URLSearchParams(link.hash.split("?")[1]).get("token") ?? "";
 * const body: AuthResetPasswordBody = { token, password: "a new long password" };
 * ```
 */
export interface ResetPasswordBody {
  /** The mailed token. */
  token: string;
  /** The new password (8–128 characters). */
  password: string;
}

/** The body of `POST /password/reset`. */
export const resetPasswordBody: z.ZodType<ResetPasswordBody, ResetPasswordBody> = exactSchema<
  ResetPasswordBody
>()(z.object({ token: tokenField, password: newPasswordSchema }));

/**
 * The body of `POST /password/change`.
 *
 * @example
 * ```ts
 * import type { AuthChangePasswordBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthChangePasswordBody = {
 *   currentPassword: "correct horse",
 *   newPassword: "battery staple",
 *   revokeOtherSessions: true,
 * };
 * ```
 */
export interface ChangePasswordBody {
  /** The password now. */
  currentPassword: string;
  /** The new password (8–128 characters). */
  newPassword: string;
  /** Sign out every other session of the user. @default true */
  revokeOtherSessions?: boolean | undefined;
}

/** The body of `POST /password/change`. */
export const changePasswordBody: z.ZodType<ChangePasswordBody, ChangePasswordBody> = exactSchema<
  ChangePasswordBody
>()(z.object({
  currentPassword: z.string().min(1).max(PASSWORD_LENGTH.max * 4),
  newPassword: newPasswordSchema,
  revokeOtherSessions: z.boolean().optional(),
}));

/**
 * The answer of `POST /password/change` and `POST /sessions/revoke-others`.
 *
 * @example
 * ```ts
 * import type { AuthRevokedSessions } from "@app/fragment-cli/auth";
 *
 * const answer: AuthRevokedSessions = { revokedSessions: 2 };
 * ```
 */
export interface RevokedSessions {
  /** How many sessions were signed out. */
  revokedSessions: number;
}

/** The answer of `POST /password/change`: the user and how many other sessions ended. */
export const changePasswordResponse: z.ZodType<
  { user: AuthUser; revokedSessions: number },
  { user: AuthUser; revokedSessions: number }
> = exactSchema<{ user: AuthUser; revokedSessions: number }>()(z.object({
  user: userResponse,
  revokedSessions: z.number().int(),
}));

/** The answer of `POST /sessions/revoke-others`. */
export const revokedSessionsResponse: z.ZodType<RevokedSessions, RevokedSessions> = exactSchema<
  RevokedSessions
>()(z.object({ revokedSessions: z.number().int() }));

/** The answer of `POST /password/reset` and `POST /email/change/confirm`: the user now. */
export const userAnswerResponse: z.ZodType<{ user: AuthUser }, { user: AuthUser }> = exactSchema<
  { user: AuthUser }
>()(z.object({ user: userResponse }));

/**
 * One session of the caller as `GET /sessions` lists it (never its token).
 *
 * @example
 * ```ts
 * import type { AuthListedSession } from "@app/fragment-cli/auth";
 *
 * const label = (s: AuthListedSession) => `${s.userAgent ?? "unknown device"}${s.current ? " (this one)" : ""}`;
 * ```
 */
export interface ListedSession {
  /** The session id (for `DELETE /sessions/:sessionId`). */
  id: string;
  /** When it was issued (sign-up or sign-in). */
  createdAt: string;
  /** When it was last used, to the minute; `null` if never recorded. */
  lastUsedAt: string | null;
  /** When it expires. */
  expiresAt: string;
  /** The User-Agent of the sign-in, `null` when none was sent. */
  userAgent: string | null;
  /** Whether it is the credential of this request. */
  current: boolean;
}

/** The answer of `GET /sessions`. */
export const listSessionsResponse: z.ZodType<
  { sessions: ListedSession[] },
  { sessions: ListedSession[] }
> = exactSchema<{ sessions: ListedSession[] }>()(z.object({
  sessions: z.array(z.object({
    id: z.string(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    expiresAt: timestamp,
    userAgent: z.string().nullable(),
    current: z.boolean(),
  })),
}));

/** The path parameters of `DELETE /sessions/:sessionId`. */
export const sessionIdParams: z.ZodType<{ sessionId: string }, { sessionId: string }> = exactSchema<
  { sessionId: string }
>()(z.object({ sessionId: z.string().max(100) }));

/**
 * The body of `POST /email/change`.
 *
 * @example
 * ```ts
 * import type { AuthChangeEmailBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthChangeEmailBody = { newEmail: "ada@new.example.com", password: "correct horse" };
 * ```
 */
export interface ChangeEmailBody {
  /** The new address (trimmed and lower-cased); the confirmation goes there. */
  newEmail: string;
  /** The current password. */
  password: string;
}

/** The body of `POST /email/change`. */
export const changeEmailBody: z.ZodType<ChangeEmailBody, ChangeEmailBody> = exactSchema<
  ChangeEmailBody
>()(z.object({
  newEmail: emailSchema,
  password: z.string().min(1).max(PASSWORD_LENGTH.max * 4),
}));

/** The answer of `POST /email/change` (202). */
export const changeEmailResponse: z.ZodType<ForgotPasswordResponse, ForgotPasswordResponse> =
  forgotPasswordResponse;

/**
 * The body of `POST /email/change/confirm`.
 *
 * @example
 * ```ts
 * import type { AuthConfirmEmailChangeBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthConfirmEmailChangeBody = { token: "3q2-7wE…" };
 * ```
 */
export interface ConfirmEmailChangeBody {
  /** The token mailed to the new address. */
  token: string;
}

/** The body of `POST /email/change/confirm`. */
export const confirmEmailChangeBody: z.ZodType<ConfirmEmailChangeBody, ConfirmEmailChangeBody> =
  exactSchema<ConfirmEmailChangeBody>()(z.object({ token: tokenField }));

/**
 * The body of `POST /account/delete`.
 *
 * @example
 * ```ts
 * import type { AuthDeleteAccountBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthDeleteAccountBody = { password: "correct horse" };
 * ```
 */
export interface DeleteAccountBody {
  /** The current password. */
  password: string;
}

/** The body of `POST /account/delete`. */
export const deleteAccountBody: z.ZodType<DeleteAccountBody, DeleteAccountBody> = exactSchema<
  DeleteAccountBody
>()(z.object({ password: z.string().min(1).max(PASSWORD_LENGTH.max * 4) }));

/**
 * The answer of `POST /account/delete`.
 *
 * @example
 * ```ts
 * import type { AuthDeletedAccount } from "@app/fragment-cli/auth";
 *
 * const answer: AuthDeletedAccount = { userId: "5f0f3a9e-…", deletedOrganizationIds: [] };
 * ```
 */
export interface DeletedAccount {
  /** The deleted user's id. */
  userId: string;
  /** The organizations the user was the only member of, now soft-deleted. */
  deletedOrganizationIds: string[];
}

/** The answer of `POST /account/delete`. */
export const deleteAccountResponse: z.ZodType<DeletedAccount, DeletedAccount> = exactSchema<
  DeletedAccount
>()(z.object({ userId: z.string(), deletedOrganizationIds: z.array(z.string()) }));
