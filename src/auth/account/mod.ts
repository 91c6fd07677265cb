/**
 * The account lifecycle of the auth module: forgotten, reset and changed passwords, the user's
 * sessions, address changes and account deletion, with their durable events and mailed links.
 *
 * @module
 */

export type { LifecycleContext, OrganizationEventSink } from "./lifecycle_context.ts";
export {
  ACCOUNT_EVENT_NAMES,
  type AccountEventHandlers,
  accountEventHooks,
  type AccountEventName,
  type AccountEventPayloads,
  type AccountEvents,
  createAccountEvents,
} from "./account_events.ts";
export {
  type EmailChangeEmail,
  logEmailChangeEmail,
  logPasswordResetEmail,
  type PasswordResetEmail,
  type SendEmailChangeEmail,
  type SendPasswordResetEmail,
} from "./account_mail.ts";
export {
  type EmailLinkBuilder,
  emailLinkBuilder,
  type EmailLinksOptions,
  type ResolvedEmailLinks,
  resolveEmailLinks,
} from "./email_links.ts";
export {
  type ChangeEmailBody,
  changeEmailBody,
  changeEmailResponse,
  type ChangePasswordBody,
  changePasswordBody,
  changePasswordResponse,
  type ConfirmEmailChangeBody,
  confirmEmailChangeBody,
  type DeleteAccountBody,
  deleteAccountBody,
  deleteAccountResponse,
  type DeletedAccount,
  type ForgotPasswordBody,
  forgotPasswordBody,
  type ForgotPasswordResponse,
  forgotPasswordResponse,
  type ListedSession,
  listSessionsResponse,
  type ResetPasswordBody,
  resetPasswordBody,
  type RevokedSessions,
  revokedSessionsResponse,
  sessionIdParams,
  userAnswerResponse,
} from "./account_inputs.ts";

export { type AccountLifecycle, accountLifecycle } from "./lifecycle.ts";
