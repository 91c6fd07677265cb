/**
 * The stable error codes of the auth module and the helpers that raise them. Every code is
 * documented in docs/auth.md and docs/organizations.md; clients branch on `error.code`.
 *
 * @module
 */

import { HttpError } from "../core/mod.ts";

/**
 * Every error code the auth module answers with, mapped to its HTTP status. The core adds
 * `VALIDATION_ERROR`/`INVALID_JSON`/`INVALID_HOST` (400), `NOT_FOUND` for unknown paths,
 * `METHOD_NOT_ALLOWED` (405), `PAYLOAD_TOO_LARGE` (413), `UNSUPPORTED_MEDIA_TYPE` (415) and
 * `INTERNAL_ERROR` (500).
 *
 * @example Branch on a code in a client
 * ```ts
 * import { AUTH_ERROR_CODES } from "@app/fragment-cli/auth";
 *
 * console.log(AUTH_ERROR_CODES.EMAIL_TAKEN); // 409
 * ```
 */
export const AUTH_ERROR_CODES: Readonly<{
  /** 400: the cookie and the `Authorization` header carry different tokens. */
  CONFLICTING_CREDENTIALS: 400;
  /** 400: `cursor` was not issued by this list. */
  INVALID_CURSOR: 400;
  /** 400: `pageSize` is not an integer from 1 to 100. */
  INVALID_PAGE_SIZE: 400;
  /** 400: the email verification token is unknown, used, replaced by a newer one, or was sent to an address the user no longer has. */
  INVALID_VERIFICATION_TOKEN: 400;
  /** 400: the password reset token is unknown, used, or replaced by a newer request. */
  INVALID_RESET_TOKEN: 400;
  /** 400: the email change token is unknown, used, or replaced by a newer request. */
  INVALID_EMAIL_CHANGE_TOKEN: 400;
  /**
   * 400: the sign-in link's token is unknown, used, or replaced by a newer link, or its account is
   * gone or no longer has the address it was mailed to.
   */
  INVALID_SIGN_IN_LINK: 400;
  /**
   * 400: a provider's callback without a `state` this module issued, with one already used or
   * expired (10 minutes), or from another browser than the one that started the flow.
   */
  INVALID_OAUTH_STATE: 400;
  /** 400: `redirectTo` is neither a path nor a URL on `publicOrigin` or a trusted origin. */
  INVALID_REDIRECT: 400;
  /**
   * 400: a passkey response (`POST /passkeys`, `POST /sign-in/passkey`) that cannot be read, or a
   * registration that fails a check (origin, relying party, user verification, attestation).
   */
  INVALID_PASSKEY_RESPONSE: 400;
  /**
   * 400: the passkey response answers no challenge this module issued for this ceremony (and, for
   * a registration, this user), or one already used.
   */
  INVALID_PASSKEY_CHALLENGE: 400;
  /**
   * 400: `POST /sign-in/two-factor` with a challenge that is unknown, was answered already, or
   * whose 5 attempts are spent: sign in again.
   */
  INVALID_TWO_FACTOR_CHALLENGE: 400;
  /** 401: no credential, or an unknown, expired or signed-out one (`WWW-Authenticate: Bearer`). */
  UNAUTHENTICATED: 401;
  /** 401: wrong email or password (one message for both). */
  INVALID_CREDENTIALS: 401;
  /** 401: `POST /telegram/sign-in` for a Telegram user no account is linked to. */
  TELEGRAM_NOT_LINKED: 401;
  /**
   * 401: `POST /telegram/sign-in` with a missing or wrong `hash`, or an `auth_date` older than
   * `telegram.maxAgeSeconds`.
   */
  INVALID_TELEGRAM_DATA: 401;
  /** 401: the user canceled at the provider, or the provider refused the sign-in. */
  OAUTH_DENIED: 401;
  /**
   * 401: the provider's answer failed a check (`iss`, the ID token's signature, `aud`, `exp`,
   * `nonce`), or it refused the code (used, expired, or a PKCE verifier that does not match).
   */
  OAUTH_FAILED: 401;
  /** 401: the provider gave no usable email address, which a new account needs. */
  OAUTH_EMAIL_MISSING: 401;
  /**
   * 401: `POST /sign-in/passkey` with a passkey no account has, or an assertion that fails a check
   * (signature, origin, relying party, user verification).
   */
  INVALID_PASSKEY: 401;
  /**
   * 401: the passkey's signature counter did not increase: the response comes from a copy of the
   * authenticator (or was replayed), and is refused.
   */
  PASSKEY_CLONED: 401;
  /**
   * 401: the authenticator code or recovery code is wrong, or was used already (a TOTP code once
   * per 30-second step, a recovery code once).
   */
  INVALID_TWO_FACTOR_CODE: 401;
  /**
   * 403: an unsafe request from another origin: cookie-authenticated, or anonymous (sign-up,
   * sign-in: login CSRF).
   */
  CSRF_REJECTED: 403;
  /** 403: authenticated, visible, but the caller's roles do not allow it. */
  FORBIDDEN: 403;
  /**
   * 403: a provider connection (`POST /oauth/:provider/link`) came back in another session than
   * the one that started it, or signed out.
   */
  LINK_SESSION_MISMATCH: 403;
  /** 403: the caller's email address is not verified (accepting or rejecting an invitation). */
  EMAIL_NOT_VERIFIED: 403;
  /**
   * 403: adding a user directly is not allowed (`organizations.canAddMember` unset or said no);
   * invite them instead.
   */
  DIRECT_ADD_NOT_ALLOWED: 403;
  /** 403: the caller already created `organizations.organizationLimit` live organizations. */
  ORGANIZATION_LIMIT_REACHED: 403;
  /** 403: the organization already has `organizations.membershipLimit` members. */
  MEMBERSHIP_LIMIT_REACHED: 403;
  /** 403: the organization already has `organizations.invitationLimit` pending invitations. */
  INVITATION_LIMIT_REACHED: 403;
  /** 403: the invitation token does not match. */
  INVALID_INVITATION_TOKEN: 403;
  /**
   * 403: the organization requires a second factor (`requireTwoFactor`) and the caller's account
   * has none: enable TOTP or add a passkey, or leave the organization.
   */
  TWO_FACTOR_REQUIRED: 403;
  /** 404: no such resource, or one the caller may not know about. */
  NOT_FOUND: 404;
  /** 404: the user to add as a member does not exist. */
  USER_NOT_FOUND: 404;
  /** 409: the email already has an account. */
  EMAIL_TAKEN: 409;
  /**
   * 409: a provider's address names an existing account, and the provider does not assert it
   * verified or the account's address is not verified: sign in another way, then connect the
   * provider.
   */
  ACCOUNT_EXISTS: 409;
  /** 409: this account at the provider is already connected to another user. */
  IDENTITY_TAKEN: 409;
  /**
   * 409: unlinking (or removing a passkey) would leave the account with no way in (no password, no
   * other connected provider, no Telegram account, no other passkey).
   */
  LAST_SIGN_IN_METHOD: 409;
  /** 409: this passkey is already registered (to this account or another). */
  PASSKEY_EXISTS: 409;
  /** 409: the organization slug is in use (deleted organizations keep theirs). */
  SLUG_TAKEN: 409;
  /** 409: the user is already a member of the organization. */
  ALREADY_MEMBER: 409;
  /** 409: the change would leave the organization without an owner. */
  LAST_OWNER: 409;
  /** 409: ownership cannot be handed to a member who already is an owner (the caller included). */
  ALREADY_OWNER: 409;
  /** 409: ownership cannot be handed to a member whose email address is not verified. */
  MEMBER_NOT_VERIFIED: 409;
  /** 409: `POST /verify-email/resend` for an address already verified. */
  EMAIL_ALREADY_VERIFIED: 409;
  /**
   * 409: the inviter is no longer an owner or admin of the organization (or no longer an owner,
   * for an invitation granting `owner`): the invitation grants nothing; ask for a new one.
   */
  INVITATION_REVOKED: 409;
  /** 409: the invitation was already accepted, rejected or canceled. */
  INVITATION_NOT_PENDING: 409;
  /**
   * 409: deleting the account would leave an organization with other members without an owner:
   * hand ownership over or delete the organization first.
   */
  SOLE_OWNER: 409;
  /** 409: TOTP is enabled already: disable it first to set up another authenticator. */
  TOTP_ALREADY_ENABLED: 409;
  /** 409: `POST /two-factor/totp/enable` without a setup waiting for its first code. */
  TOTP_NOT_SET_UP: 409;
  /**
   * 409: the caller's account has no second factor (TOTP or a passkey): new recovery codes (they
   * come with one), or `requireTwoFactor: true` on an organization (the caller would lock
   * themselves out).
   */
  TWO_FACTOR_NOT_ENABLED: 409;
  /** 410: the invitation expired. */
  INVITATION_EXPIRED: 410;
  /** 410: the email verification token expired (ask for another with `/verify-email/resend`). */
  VERIFICATION_TOKEN_EXPIRED: 410;
  /** 410: the password reset token expired (`passwordResetTtlMinutes`): ask for another. */
  RESET_TOKEN_EXPIRED: 410;
  /** 410: the email change token expired: ask for another. */
  EMAIL_CHANGE_TOKEN_EXPIRED: 410;
  /** 410: the sign-in link expired (15 minutes): ask for another. */
  SIGN_IN_LINK_EXPIRED: 410;
  /** 410: the passkey challenge expired (5 minutes): ask for new options. */
  PASSKEY_CHALLENGE_EXPIRED: 410;
  /** 410: the sign-in's challenge expired (5 minutes): sign in again. */
  TWO_FACTOR_CHALLENGE_EXPIRED: 410;
  /** 429: too many attempts from one client address or on one account (`Retry-After`). */
  RATE_LIMITED: 429;
  /** 503: too many passwords are being hashed; retry after `Retry-After` seconds. */
  SERVICE_BUSY: 503;
  /**
   * 503: the provider could not be reached (discovery, its token endpoint), or the deployment has
   * no `publicOrigin` to build the callback URL from.
   */
  OAUTH_UNAVAILABLE: 503;
  /**
   * 503: passkeys need `publicOrigin` (the relying party's id and origin come from it), except in
   * local development on a loopback address.
   */
  PASSKEYS_UNAVAILABLE: 503;
  /** 503: the database cannot be reached (mapped by the core for every module, `Retry-After`). */
  SERVICE_UNAVAILABLE: 503;
}> = Object.freeze({
  CONFLICTING_CREDENTIALS: 400,
  INVALID_CURSOR: 400,
  INVALID_PAGE_SIZE: 400,
  INVALID_VERIFICATION_TOKEN: 400,
  INVALID_RESET_TOKEN: 400,
  INVALID_EMAIL_CHANGE_TOKEN: 400,
  INVALID_SIGN_IN_LINK: 400,
  INVALID_OAUTH_STATE: 400,
  INVALID_REDIRECT: 400,
  INVALID_PASSKEY_RESPONSE: 400,
  INVALID_PASSKEY_CHALLENGE: 400,
  INVALID_TWO_FACTOR_CHALLENGE: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  TELEGRAM_NOT_LINKED: 401,
  INVALID_TELEGRAM_DATA: 401,
  OAUTH_DENIED: 401,
  OAUTH_FAILED: 401,
  OAUTH_EMAIL_MISSING: 401,
  INVALID_PASSKEY: 401,
  PASSKEY_CLONED: 401,
  INVALID_TWO_FACTOR_CODE: 401,
  CSRF_REJECTED: 403,
  FORBIDDEN: 403,
  LINK_SESSION_MISMATCH: 403,
  EMAIL_NOT_VERIFIED: 403,
  DIRECT_ADD_NOT_ALLOWED: 403,
  ORGANIZATION_LIMIT_REACHED: 403,
  MEMBERSHIP_LIMIT_REACHED: 403,
  INVITATION_LIMIT_REACHED: 403,
  INVALID_INVITATION_TOKEN: 403,
  TWO_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  ACCOUNT_EXISTS: 409,
  IDENTITY_TAKEN: 409,
  LAST_SIGN_IN_METHOD: 409,
  PASSKEY_EXISTS: 409,
  SLUG_TAKEN: 409,
  ALREADY_MEMBER: 409,
  LAST_OWNER: 409,
  ALREADY_OWNER: 409,
  MEMBER_NOT_VERIFIED: 409,
  EMAIL_ALREADY_VERIFIED: 409,
  INVITATION_REVOKED: 409,
  INVITATION_NOT_PENDING: 409,
  SOLE_OWNER: 409,
  TOTP_ALREADY_ENABLED: 409,
  TOTP_NOT_SET_UP: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  INVITATION_EXPIRED: 410,
  VERIFICATION_TOKEN_EXPIRED: 410,
  RESET_TOKEN_EXPIRED: 410,
  EMAIL_CHANGE_TOKEN_EXPIRED: 410,
  SIGN_IN_LINK_EXPIRED: 410,
  PASSKEY_CHALLENGE_EXPIRED: 410,
  TWO_FACTOR_CHALLENGE_EXPIRED: 410,
  RATE_LIMITED: 429,
  SERVICE_BUSY: 503,
  OAUTH_UNAVAILABLE: 503,
  PASSKEYS_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
});

/**
 * One of the codes of {@link AUTH_ERROR_CODES}.
 *
 * @example
 * ```ts
 * import type { AuthErrorCode } from "@app/fragment-cli/auth";
 *
 * const code: AuthErrorCode = "INVITATION_EXPIRED";
 * ```
 */
export type AuthErrorCode = keyof typeof AUTH_ERROR_CODES;

/** An {@link HttpError} with one of the auth module's codes (its status follows from the code). */
export function authError(
  code: AuthErrorCode,
  message: string,
  headers?: Record<string, string>,
): HttpError {
  return new HttpError(AUTH_ERROR_CODES[code], code, message, { headers });
}

/** 401 with `WWW-Authenticate: Bearer` (RFC 6750), with `error="invalid_token"` for a bad one. */
export function unauthenticated(message: string, presented: boolean): HttpError {
  const challenge = presented ? 'Bearer error="invalid_token"' : "Bearer";
  return authError("UNAUTHENTICATED", message, { "www-authenticate": challenge });
}

/** 404 in one wording, whatever the reason the caller may not see the resource. */
export function notFound(what: string): HttpError {
  return authError("NOT_FOUND", `${what} not found`);
}
