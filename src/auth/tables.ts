/**
 * The qualified (namespace-quoted) names of the auth tables, computed once per module instance so
 * every query interpolates identifiers only through `quoteQualified`.
 *
 * @module
 */

import { quoteQualified } from "../sql/mod.ts";

/** Quoted `"<namespace>"."<table>"` names of every auth table. */
export interface AuthTableNames {
  readonly users: string;
  readonly sessions: string;
  readonly organizations: string;
  readonly members: string;
  readonly invitations: string;
  readonly emailVerifications: string;
  readonly rateLimits: string;
  readonly accountTokens: string;
  readonly telegramAccounts: string;
  readonly telegramLinkTokens: string;
  readonly auditLog: string;
  readonly emailLinkTokens: string;
  readonly identities: string;
  readonly oauthStates: string;
  readonly totpFactors: string;
  readonly recoveryCodes: string;
  readonly twoFactorChallenges: string;
  readonly passkeys: string;
  readonly webauthnChallenges: string;
}

/** The quoted table names for a namespace. */
export function authTableNames(namespace: string): AuthTableNames {
  return Object.freeze({
    users: quoteQualified(namespace, "users"),
    sessions: quoteQualified(namespace, "sessions"),
    organizations: quoteQualified(namespace, "organizations"),
    members: quoteQualified(namespace, "members"),
    invitations: quoteQualified(namespace, "invitations"),
    emailVerifications: quoteQualified(namespace, "email_verifications"),
    rateLimits: quoteQualified(namespace, "rate_limits"),
    accountTokens: quoteQualified(namespace, "account_tokens"),
    telegramAccounts: quoteQualified(namespace, "telegram_accounts"),
    telegramLinkTokens: quoteQualified(namespace, "telegram_link_tokens"),
    auditLog: quoteQualified(namespace, "organization_audit_log"),
    emailLinkTokens: quoteQualified(namespace, "email_link_tokens"),
    identities: quoteQualified(namespace, "identities"),
    oauthStates: quoteQualified(namespace, "oauth_states"),
    totpFactors: quoteQualified(namespace, "totp_factors"),
    recoveryCodes: quoteQualified(namespace, "recovery_codes"),
    twoFactorChallenges: quoteQualified(namespace, "two_factor_challenges"),
    passkeys: quoteQualified(namespace, "passkeys"),
    webauthnChallenges: quoteQualified(namespace, "webauthn_challenges"),
  });
}
