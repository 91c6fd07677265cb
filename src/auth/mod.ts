/**
 * The auth module: users, credentials (the `service_auth` cookie or a Bearer token), sessions,
 * password hashing and the organizations API (organizations, members, invitations, the active
 * organization), with a server-side API for the embedding application.
 *
 * @example Sign up over the module's fetch
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter();
 * await migrate(database, authSchema); // `fragment-cli serve` and `db migrate` do it for you
 * const module = auth({ database });
 * const response = await module.fetch(
 *   new Request("http://localhost/api/auth/sign-up", {
 *     method: "POST",
 *     headers: { "content-type": "application/json" },
 *     body: JSON.stringify({ email: "ada@example.com", password: "correct horse" }),
 *   }),
 * );
 * const { token, user } = await response.json();
 * ```
 *
 * @module
 */

export { auth, type AuthModule } from "./auth.ts";
export type { AuthOptions } from "./options.ts";
export type {
  AuthApi,
  AuthApiClient,
  AuthApiPage,
  AuthApiPageOf,
  AuthCreatedInvitation,
  AuthCreateUserInput,
  AuthInvitationAnswer,
  AuthMemberRef,
  AuthOrganizationRef,
  AuthRequestContext,
  AuthUserRole,
} from "./api.ts";
export type { AuthActor } from "./actor.ts";
export type { MePayload as AuthMe } from "./me/mod.ts";
export type { AuthUser } from "./user_store.ts";
export type { SendVerificationEmail, VerificationEmail } from "./email_verification.ts";
export type { AuthSession } from "./session_store.ts";
export { authSchema, type AuthTables } from "./schema.ts";
export { AUTH_ERROR_CODES, type AuthErrorCode } from "./errors.ts";
export {
  type HashRequestOptions,
  OWASP_SCRYPT_PARAMS,
  type PasswordHasher,
  type ScryptDerive,
  scryptDerive,
  type ScryptParams,
  scryptPasswordHasher,
  type ScryptPasswordHasherOptions,
} from "./password_hasher.ts";
export { PasswordHasherBusyError } from "./hashing_queue.ts";
export type { RateLimitOptions } from "./rate_limit_options.ts";
export { AUTH_SESSION_COOKIE } from "./cookies.ts";
export {
  type AuthOrganizationsOptions,
  type AutoCreateOrganizationOptions,
  type CanAddMember,
  type CanAddMemberContext,
  type Invitation as AuthInvitation,
  type InvitationEntry as AuthInvitationEntry,
  type InvitationStatus as AuthInvitationStatus,
  type Member as AuthMember,
  type Organization as AuthOrganization,
  ORGANIZATION_EVENT_NAMES,
  type OrganizationEntry as AuthOrganizationEntry,
  type OrganizationEventContext,
  type OrganizationEventHandlers,
  type OrganizationEventName,
  type OrganizationEventPayloads,
  RESERVED_SLUGS as AUTH_RESERVED_SLUGS,
  type ServerAddMemberInput as AuthAddMemberInput,
} from "./organizations/mod.ts";
export type { AuthContract, AuthPageQuery, AuthRouteContract } from "./contract.ts";
export type {
  CredentialsBody as AuthCredentialsBody,
  VerifyEmailBody as AuthVerifyEmailBody,
} from "./credential_inputs.ts";
export type {
  AddMemberBody as AuthAddMemberBody,
  CreateInvitationBody as AuthCreateInvitationBody,
  CreateOrganizationBody as AuthCreateOrganizationBody,
  RespondToInvitationBody as AuthRespondToInvitationBody,
  SetActiveOrganizationBody as AuthSetActiveOrganizationBody,
  UpdateMemberRolesBody as AuthUpdateMemberRolesBody,
  UpdateOrganizationBody as AuthUpdateOrganizationBody,
} from "./organizations/bodies.ts";
export type {
  AcceptedInvitation as AuthAcceptedInvitation,
  CredentialResponse as AuthCredentialResponse,
  SessionResponse as AuthSessionResponse,
} from "./responses.ts";
export {
  ACCOUNT_EVENT_NAMES,
  type AccountApiClient as AuthAccountApiClient,
  type AccountEventHandlers,
  type AccountEventName,
  type AccountEventPayloads,
  type AuthAccountApi,
  type ChangeEmailBody as AuthChangeEmailBody,
  type ChangePasswordBody as AuthChangePasswordBody,
  type ConfirmEmailChangeBody as AuthConfirmEmailChangeBody,
  type DeleteAccountBody as AuthDeleteAccountBody,
  type DeletedAccount as AuthDeletedAccount,
  type EmailChangeEmail,
  type EmailLinksOptions,
  type ForgotPasswordBody as AuthForgotPasswordBody,
  type ForgotPasswordResponse as AuthForgotPasswordResponse,
  type ListedSession as AuthListedSession,
  type PasswordResetEmail,
  type ResetPasswordBody as AuthResetPasswordBody,
  type RevokedSessions as AuthRevokedSessions,
  type SendEmailChangeEmail,
  type SendPasswordResetEmail,
} from "./account/mod.ts";
