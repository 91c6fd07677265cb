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
  AuthCreateUserInput,
  AuthPermissionContext,
  AuthPermissionQuery,
  AuthRequestContext,
  AuthUserRole,
} from "./api.ts";
export type {
  AuthApiClient,
  AuthApiPage,
  AuthApiPageOf,
  AuthCreatedInvitation,
  AuthInvitationAnswer,
  AuthMemberRef,
  AuthOrganizationRef,
} from "./api_inputs.ts";
export type { AuthActor } from "./actor.ts";
export type { AuthMe, AuthMeUser } from "./me/mod.ts";
export type {
  AuthTelegramAccount,
  AuthTelegramAccountContext,
  AuthTelegramLink,
  AuthTelegramLinkResult,
  AuthTelegramOptions,
  AuthTelegramSignInBody,
  AuthTelegramUser,
} from "./telegram/mod.ts";
export type {
  AuthEmailLinkAnswer,
  AuthEmailLinkCredential,
  AuthEmailLinkSent,
  AuthSendEmailLinkBody,
  AuthVerifyEmailLinkBody,
  SendSignInEmail,
  SignInEmail,
} from "./email_link/mod.ts";
export {
  type AuthGitHubProvider,
  type AuthIdentity,
  type AuthMicrosoftProvider,
  type AuthOAuthCallbackQuery,
  type AuthOAuthClientOptions,
  type AuthOAuthLink,
  type AuthOAuthLinkBody,
  type AuthOAuthOptions,
  type AuthOAuthProvider,
  type AuthOAuthProviderInfo,
  type AuthOAuthRedirect,
  type AuthOidcProvider,
  githubProvider,
  type GitHubProviderOptions,
  gitlabProvider,
  googleProvider,
  microsoftProvider,
  type MicrosoftProviderOptions,
  OAUTH_FLOW_COOKIE,
  oidcProvider,
  type OidcProviderOptions,
  type PresetProviderOptions,
} from "./oauth/mod.ts";
export type {
  AuthAddPasskeyBody,
  AuthPasskey,
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyCreationOptions,
  AuthPasskeyDescriptor,
  AuthPasskeyRegistrationResponse,
  AuthPasskeyRequestOptions,
  AuthPasskeySignInBody,
  AuthRenamePasskeyBody,
} from "./passkeys/mod.ts";
export type {
  AuthEmailLinkTwoFactorChallenge,
  AuthEnableTotpBody,
  AuthRecoveryCodes,
  AuthSignInResponse,
  AuthSignInTwoFactorBody,
  AuthTotpSetup,
  AuthTwoFactorChallenge,
  AuthTwoFactorCredential,
  AuthTwoFactorMethod,
  AuthTwoFactorOptions,
  AuthTwoFactorPasskeyOptionsBody,
  AuthTwoFactorPasswordBody,
  AuthTwoFactorStatus,
} from "./two_factor/mod.ts";
export type { AuthUser } from "./account/user.ts";
export type { SendVerificationEmail, VerificationEmail } from "./account/email_verification.ts";
export type { AuthSession } from "./sessions/session.ts";
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
} from "./sessions/password_hasher.ts";
export { PasswordHasherBusyError } from "./abuse/hashing_queue.ts";
export type { RateLimitOptions } from "./abuse/rate_limit_options.ts";
export { AUTH_SESSION_COOKIE } from "./sessions/cookies.ts";
export {
  AUTH_RESERVED_SLUGS,
  type AuthAddMemberInput,
  type AuthAuditEntry,
  type AuthInvitation,
  type AuthInvitationEntry,
  type AuthInvitationStatus,
  type AuthMember,
  type AuthOrganization,
  type AuthOrganizationAccess,
  type AuthOrganizationEntry,
  type AuthOrganizationsOptions,
  type AuthOwnershipTransfer,
  type AutoCreateOrganizationOptions,
  BUILT_IN_PERMISSIONS,
  type CanAddMember,
  type CanAddMemberContext,
  ORGANIZATION_EVENT_NAMES,
  type OrganizationEventContext,
  type OrganizationEventHandlers,
  type OrganizationEventName,
  type OrganizationEventPayloads,
} from "./organizations/mod.ts";
export type {
  AuthContract,
  AuthOperationContracts,
  AuthOperationMethods,
  AuthOperationRoutes,
  AuthPageQuery,
  AuthRoute,
  AuthRouteContract,
} from "./contract.ts";
export type { AuthCredentialsBody, AuthVerifyEmailBody } from "./account/credential_inputs.ts";
export type {
  AuthAddMemberBody,
  AuthCreateInvitationBody,
  AuthCreateOrganizationBody,
  AuthRespondToInvitationBody,
  AuthSetActiveOrganizationBody,
  AuthTransferOwnershipBody,
  AuthUpdateMemberRolesBody,
  AuthUpdateOrganizationBody,
} from "./organizations/bodies.ts";
export type { AuthCredentialResponse, AuthSessionResponse } from "./account/responses.ts";
export type { AuthAcceptedInvitation } from "./organizations/responses.ts";
export {
  ACCOUNT_EVENT_NAMES,
  type AccountEventHandlers,
  type AccountEventName,
  type AccountEventPayloads,
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
