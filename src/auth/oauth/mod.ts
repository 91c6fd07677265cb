/**
 * Sign-in with OpenID Connect and OAuth providers: the provider factories, the flow, connected
 * identities.
 *
 * @module
 */

export {
  type AuthGitHubProvider,
  type AuthMicrosoftProvider,
  type AuthOAuthClientOptions,
  type AuthOAuthProvider,
  type AuthOidcProvider,
  githubProvider,
  type GitHubProviderOptions,
  gitlabProvider,
  googleProvider,
  microsoftProvider,
  type MicrosoftProviderOptions,
  oidcProvider,
  type OidcProviderOptions,
  type PresetProviderOptions,
} from "./oauth_providers.ts";
export {
  type AuthOAuthOptions,
  type ResolvedOAuthOptions,
  resolveOAuthOptions,
} from "./oauth_options.ts";
export type {
  AuthIdentity,
  AuthOAuthCallbackQuery,
  AuthOAuthLink,
  AuthOAuthLinkBody,
  AuthOAuthProviderInfo,
  AuthOAuthRedirect,
} from "./oauth_inputs.ts";
export { OAUTH_FLOW_COOKIE, type OAuthService, oauthService } from "./oauth_service.ts";
export { type IdentityService, identityService } from "./identity_service.ts";
