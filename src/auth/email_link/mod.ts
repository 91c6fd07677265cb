/**
 * Passwordless sign-in by email link: the mail, its options, the service and the answers.
 *
 * @module
 */

export {
  EMAIL_LINK_TTL_SECONDS,
  type EmailLinkService,
  emailLinkService,
} from "./email_link_service.ts";
export { logSignInEmail, type SendSignInEmail, type SignInEmail } from "./email_link_mail.ts";
export type {
  AuthEmailLinkAnswer,
  AuthEmailLinkCredential,
  AuthEmailLinkSent,
  AuthSendEmailLinkBody,
  AuthVerifyEmailLinkBody,
} from "./email_link_inputs.ts";
