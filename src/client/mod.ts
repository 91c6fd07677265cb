/**
 * The typed client of the auth module, for browsers, Deno, Node and Bun: sign-up, sign-in,
 * sign-out, the session, `GET /me`, email verification, sign-in with providers and connected
 * accounts, second factors (TOTP, recovery codes, the second step of a sign-in), and the whole
 * organizations API
 * (organizations, members, invitations, active organization). Its types are the auth module's
 * request and answer types (`AuthContract` in `@app/fragment-cli/auth`: the declared types of the
 * routes' zod schemas), re-exported here; at run time it needs nothing but `fetch` (no Node
 * built-ins, no npm package in its import graph).
 *
 * @example Sign in from a single-page app served with the module
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { error } = await client.signIn({ email: "ada@example.com", password: "correct horse" });
 * if (!error) {
 *   const { data } = await client.me();
 *   console.log(data?.user.email, data?.organizations.length);
 * }
 * ```
 *
 * @module
 */

export {
  type AuthClient,
  type AuthClientOptions,
  type AuthInvitationsClient,
  type AuthMembersClient,
  type AuthOrganizationsClient,
  type AuthPageOptions,
  type AuthTelegramClient,
  createAuthClient,
  type InvitationTokenInput,
} from "./auth_client.ts";
export type { AuthIdentitiesClient, AuthOAuthClient } from "./oauth_client.ts";
export type {
  AuthAccountClient,
  AuthEmailClient,
  AuthPasswordClient,
  AuthSessionsClient,
} from "./account_client.ts";
export type { AuthEmailLinkClient } from "./email_link_client.ts";
export type { AuthPasskeysClient, AuthPasskeySignInClient } from "./passkey_client.ts";
export type { AuthPasskeyCeremonyOptions } from "./webauthn_ceremony.ts";
export type {
  AuthPasswordSignInClient,
  AuthSignInClient,
  AuthTwoFactorClient,
} from "./two_factor_client.ts";
export type {
  AuthClientError,
  AuthClientErrorCode,
  AuthResult,
  ModuleClientError,
  ModuleClientErrorCode,
  ModuleResult,
} from "./result.ts";
export {
  createModuleClient,
  type ModuleClient,
  type ModuleClientOptions,
} from "./module_client.ts";
export type {
  ModuleRoutes,
  ModuleRouteTypes,
  RouteCall,
  RouteData,
  RoutePathParams,
  RouteRequest,
  RouteTypes,
} from "./module_routes.ts";
export type { AuthFetch, ClientHeaders, HeadersOption } from "./transport.ts";
// The auth module's types that the client's signatures name, so that a client needs no import
// from the server's entry (types only: nothing of the server reaches a bundle).
export type {
  AuthAcceptedInvitation,
  AuthAddMemberBody,
  AuthAddPasskeyBody,
  AuthApiPageOf,
  AuthChangeEmailBody,
  AuthChangePasswordBody,
  AuthConfirmEmailChangeBody,
  AuthCreatedInvitation,
  AuthCreateInvitationBody,
  AuthCreateOrganizationBody,
  AuthCredentialResponse,
  AuthCredentialsBody,
  AuthDeleteAccountBody,
  AuthDeletedAccount,
  AuthEmailLinkAnswer,
  AuthEmailLinkCredential,
  AuthEmailLinkSent,
  AuthEmailLinkTwoFactorChallenge,
  AuthEnableTotpBody,
  AuthErrorCode,
  AuthForgotPasswordBody,
  AuthForgotPasswordResponse,
  AuthIdentity,
  AuthInvitation,
  AuthInvitationEntry,
  AuthInvitationStatus,
  AuthListedSession,
  AuthMe,
  AuthMember,
  AuthMeUser,
  AuthOAuthLink,
  AuthOAuthProviderInfo,
  AuthOrganization,
  AuthOrganizationAccess,
  AuthOrganizationEntry,
  AuthPasskey,
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyCreationOptions,
  AuthPasskeyDescriptor,
  AuthPasskeyRegistrationResponse,
  AuthPasskeyRequestOptions,
  AuthPasskeySignInBody,
  AuthRecoveryCodes,
  AuthRenamePasskeyBody,
  AuthResetPasswordBody,
  AuthRespondToInvitationBody,
  AuthRevokedSessions,
  AuthSendEmailLinkBody,
  AuthSessionResponse,
  AuthSignInResponse,
  AuthSignInTwoFactorBody,
  AuthTelegramAccount,
  AuthTelegramLink,
  AuthTelegramSignInBody,
  AuthTotpSetup,
  AuthTwoFactorChallenge,
  AuthTwoFactorCredential,
  AuthTwoFactorMethod,
  AuthTwoFactorPasskeyOptionsBody,
  AuthTwoFactorPasswordBody,
  AuthTwoFactorStatus,
  AuthUpdateMemberRolesBody,
  AuthUpdateOrganizationBody,
  AuthUser,
  AuthVerifyEmailBody,
  AuthVerifyEmailLinkBody,
} from "../auth/mod.ts";
