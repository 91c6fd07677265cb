/**
 * What `GET /verify-email` (the page a verification link opens) does: it verifies the address
 * and names the outcome and the app's page to redirect to, so that an invalid, expired or
 * rate-limited link lands on the app with its outcome instead of an error page.
 *
 * @module
 */

import { HttpError } from "../../core/mod.ts";
import type { AccountService, ClientInfo } from "./account_service.ts";
import type { EmailLinkBuilder } from "./email_links.ts";

/** The outcome of a verification link and where the browser goes next. */
export interface VerificationLinkOutcome {
  /** `verified`, `invalid`, `expired` or `rate-limited`. */
  outcome: string;
  /** The app's page, with the outcome in its query. */
  location: string;
}

/** Opens a verification link: verifies its token, answers the outcome and the redirect. */
export type VerificationLinkOpener = (
  input: { token?: string | undefined },
  client: ClientInfo,
) => Promise<VerificationLinkOutcome>;

const OUTCOMES: Record<string, string> = {
  INVALID_VERIFICATION_TOKEN: "invalid",
  VERIFICATION_TOKEN_EXPIRED: "expired",
  RATE_LIMITED: "rate-limited",
};

/** The verification link opener of one module instance. */
export function verificationLinkOpener(
  accounts: AccountService,
  links: EmailLinkBuilder,
): VerificationLinkOpener {
  return async ({ token }, client) => {
    let outcome = "verified";
    try {
      await accounts.verifyEmail({ token: token ?? "" }, client);
    } catch (error) {
      const code = error instanceof HttpError ? OUTCOMES[error.code] : undefined;
      if (code === undefined) throw error;
      outcome = code;
    }
    return { outcome, location: links.afterVerification(outcome) };
  };
}
