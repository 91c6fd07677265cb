/**
 * The providers of `auth({ oauth: { providers } })`: any OpenID Connect provider found by
 * discovery, the presets for Google, Microsoft and GitLab (OpenID Connect too) and GitHub (plain
 * OAuth 2). The factories only gather the settings; `auth()` checks them (a bad one throws
 * `ModuleConfigError`) and nothing is fetched until the first sign-in.
 *
 * @module
 */

/**
 * The settings every provider takes: the client the provider registered for this application.
 *
 * @example
 * ```ts
 * import type { AuthOAuthClientOptions } from "@app/fragment-cli/auth";
 *
 * const client: AuthOAuthClientOptions = {
 *   clientId: "1234-abc.apps.googleusercontent.com",
 *   clientSecret: "…",
 *   name: "Google Workspace",
 * };
 * ```
 */
export interface AuthOAuthClientOptions {
  /** The client id the provider issued to this application. */
  clientId: string;
  /**
   * The client secret the provider issued. Kept in memory only: never logged, answered or
   * stored.
   */
  clientSecret: string;
  /** The name the sign-in screen shows ("Continue with <name>"). */
  name?: string;
  /** The scopes asked for (`openid` is always added for an OpenID Connect provider). */
  scopes?: readonly string[];
}

/**
 * An OpenID Connect provider, as {@link oidcProvider} and the OpenID Connect presets build it.
 *
 * @example
 * ```ts
 * import type { AuthOidcProvider } from "@app/fragment-cli/auth";
 *
 * const okta: AuthOidcProvider = {
 *   type: "oidc",
 *   issuer: "https://acme.okta.com",
 *   clientId: "0oa1b2c3",
 *   clientSecret: "…",
 *   name: "Acme SSO",
 * };
 * ```
 */
export interface AuthOidcProvider extends AuthOAuthClientOptions {
  /** `"oidc"`. */
  readonly type: "oidc";
  /**
   * The issuer identifier: `<issuer>/.well-known/openid-configuration` is its discovery document,
   * whose `issuer` must equal it, and every ID token's `iss` too. `https:`, or `http:` on a
   * loopback host (local development).
   */
  readonly issuer: string;
}

/**
 * Microsoft Entra ID (work, school and personal accounts), as {@link microsoftProvider} builds it.
 *
 * @example
 * ```ts
 * import type { AuthMicrosoftProvider } from "@app/fragment-cli/auth";
 *
 * const entra: AuthMicrosoftProvider = {
 *   type: "microsoft",
 *   tenant: "organizations",
 *   clientId: "00000000-0000-0000-0000-000000000000",
 *   clientSecret: "…",
 * };
 * ```
 */
export interface AuthMicrosoftProvider extends AuthOAuthClientOptions {
  /** `"microsoft"`. */
  readonly type: "microsoft";
  /**
   * `"common"` (any work, school or personal account), `"organizations"` (work and school
   * accounts), `"consumers"` (personal accounts), or one tenant's id or domain.
   * @default "common"
   */
  readonly tenant?: string;
  /** Overrides `https://login.microsoftonline.com/<tenant>/v2.0` (a sovereign cloud, a test). */
  readonly issuer?: string;
}

/**
 * GitHub (plain OAuth 2), as {@link githubProvider} builds it.
 *
 * @example
 * ```ts
 * import type { AuthGitHubProvider } from "@app/fragment-cli/auth";
 *
 * const github: AuthGitHubProvider = { type: "github", clientId: "Iv1.8a61f9b3a7aba766", clientSecret: "…" };
 * ```
 */
export interface AuthGitHubProvider extends AuthOAuthClientOptions {
  /** `"github"`. */
  readonly type: "github";
  /** Where the authorization and token endpoints are. @default "https://github.com" */
  readonly webOrigin?: string;
  /** Where `/user` and `/user/emails` are. @default "https://api.github.com" */
  readonly apiOrigin?: string;
}

/**
 * A provider of `auth({ oauth: { providers } })`: build one with {@link oidcProvider},
 * {@link googleProvider}, {@link microsoftProvider}, {@link gitlabProvider} or
 * {@link githubProvider}.
 *
 * @example
 * ```ts
 * import { githubProvider, type AuthOAuthProvider } from "@app/fragment-cli/auth";
 *
 * const providers: Record<string, AuthOAuthProvider> = {
 *   github: githubProvider({ clientId: "Iv1.8a61f9b3a7aba766", clientSecret: "…" }),
 * };
 * ```
 */
export type AuthOAuthProvider = AuthOidcProvider | AuthMicrosoftProvider | AuthGitHubProvider;

/**
 * Options of {@link oidcProvider}.
 *
 * @example
 * ```ts
 * import type { OidcProviderOptions } from "@app/fragment-cli/auth";
 *
 * const options: OidcProviderOptions = {
 *   issuer: "https://sso.acme.example",
 *   clientId: "fragment-app",
 *   clientSecret: "…",
 *   name: "Acme SSO",
 * };
 * ```
 */
export interface OidcProviderOptions extends AuthOAuthClientOptions {
  /** The issuer identifier (its discovery document is `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
}

/**
 * Any OpenID Connect provider (Okta, Auth0, Keycloak, Authentik, Zitadel, your company's), found
 * by discovery. The ID token is verified: its signature with the provider's published keys, its
 * `iss`, `aud`, `exp` and `nonce`. The name defaults to the provider's id in `providers`.
 *
 * @param options The issuer and the client's credentials.
 * @returns The provider, for `auth({ oauth: { providers } })`.
 *
 * @example
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import { oidcProvider } from "@app/fragment-cli/auth";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   publicOrigin: "https://app.example.com",
 *   oauth: {
 *     providers: {
 *       acme: oidcProvider({
 *         issuer: "https://sso.acme.example",
 *         clientId: "fragment-app",
 *         clientSecret: "…", // OIDC_CLIENT_SECRET
 *         name: "Acme SSO",
 *       }),
 *     },
 *   },
 * });
 * ```
 */
export function oidcProvider(options: OidcProviderOptions): AuthOidcProvider {
  return { ...options, type: "oidc" };
}

/**
 * Options of the OpenID Connect presets: the client's credentials, an issuer override.
 *
 * @example A self-managed GitLab
 * ```ts
 * import type { PresetProviderOptions } from "@app/fragment-cli/auth";
 *
 * const options: PresetProviderOptions = {
 *   clientId: "3f1e…",
 *   clientSecret: "…",
 *   issuer: "https://gitlab.acme.example",
 * };
 * ```
 */
export interface PresetProviderOptions extends AuthOAuthClientOptions {
  /** Overrides the provider's issuer (a self-hosted instance, a test stand-in). */
  issuer?: string;
}

/**
 * Google accounts (OpenID Connect, issuer `https://accounts.google.com`). Google's
 * `email_verified` is reliable for Gmail and Google Workspace addresses.
 *
 * @param options The client's credentials (Google Cloud console, "OAuth client ID", type
 *   "Web application").
 * @returns The provider.
 *
 * @example
 * ```ts
 * import { googleProvider } from "@app/fragment-cli/auth";
 *
 * const google = googleProvider({
 *   clientId: "1234-abc.apps.googleusercontent.com",
 *   clientSecret: "…", // GOOGLE_CLIENT_SECRET
 * });
 * ```
 */
export function googleProvider(options: PresetProviderOptions): AuthOidcProvider {
  return {
    ...options,
    type: "oidc",
    name: options.name ?? "Google",
    issuer: options.issuer ?? "https://accounts.google.com",
  };
}

/**
 * GitLab accounts (OpenID Connect, issuer `https://gitlab.com`; `issuer` for a self-managed
 * instance).
 *
 * @param options The client's credentials (User settings, Applications; scopes `openid email`).
 * @returns The provider.
 *
 * @example
 * ```ts
 * import { gitlabProvider } from "@app/fragment-cli/auth";
 *
 * const gitlab = gitlabProvider({
 *   clientId: "3f1e…",
 *   clientSecret: "…",
 *   issuer: "https://gitlab.acme.example",
 * });
 * ```
 */
export function gitlabProvider(options: PresetProviderOptions): AuthOidcProvider {
  return {
    ...options,
    type: "oidc",
    name: options.name ?? "GitLab",
    issuer: options.issuer ?? "https://gitlab.com",
  };
}

/**
 * Options of {@link microsoftProvider}.
 *
 * @example
 * ```ts
 * import type { MicrosoftProviderOptions } from "@app/fragment-cli/auth";
 *
 * const workAccountsOnly: MicrosoftProviderOptions = {
 *   tenant: "organizations",
 *   clientId: "00000000-0000-0000-0000-000000000000",
 *   clientSecret: "…",
 * };
 * ```
 */
export interface MicrosoftProviderOptions extends PresetProviderOptions {
  /**
   * `"common"`, `"organizations"`, `"consumers"`, or one tenant's id or domain.
   * @default "common"
   */
  tenant?: string;
}

/**
 * Microsoft Entra ID (OpenID Connect). With the multi-tenant `common` and `organizations`, the
 * discovery document's issuer is the template `https://login.microsoftonline.com/{tenantid}/v2.0`;
 * each ID token's `iss` must equal it with the token's own `tid` in place of `{tenantid}`
 * (`organizations` refuses personal accounts' tenant, `consumers` accepts only it). Microsoft
 * asserts few addresses: one counts as verified with `email_verified` or `xms_edov` (add the
 * `xms_edov` optional claim in the app registration).
 *
 * @param options The tenant and the client's credentials (Entra admin center, App registrations).
 * @returns The provider.
 *
 * @example
 * ```ts
 * import { microsoftProvider } from "@app/fragment-cli/auth";
 *
 * const microsoft = microsoftProvider({
 *   clientId: "00000000-0000-0000-0000-000000000000",
 *   clientSecret: "…", // MICROSOFT_CLIENT_SECRET
 * });
 * ```
 */
export function microsoftProvider(options: MicrosoftProviderOptions): AuthMicrosoftProvider {
  return {
    ...options,
    type: "microsoft",
    name: options.name ?? "Microsoft",
    tenant: options.tenant ?? "common",
  };
}

/**
 * Options of {@link githubProvider}.
 *
 * @example
 * ```ts
 * import type { GitHubProviderOptions } from "@app/fragment-cli/auth";
 *
 * const enterprise: GitHubProviderOptions = {
 *   clientId: "Iv1.8a61f9b3a7aba766",
 *   clientSecret: "…",
 *   webOrigin: "https://github.acme.example",
 *   apiOrigin: "https://github.acme.example/api/v3",
 * };
 * ```
 */
export interface GitHubProviderOptions extends AuthOAuthClientOptions {
  /** Where `/login/oauth/authorize` and `/login/oauth/access_token` are. @default "https://github.com" */
  webOrigin?: string;
  /** Where `/user` and `/user/emails` are. @default "https://api.github.com" */
  apiOrigin?: string;
}

/**
 * GitHub accounts (plain OAuth 2: there is no ID token). The account is GitHub's numeric user
 * id; the address is the primary one of `GET /user/emails` (scope `user:email`), verified when
 * GitHub says so.
 *
 * @param options The client's credentials (Settings, Developer settings, OAuth Apps).
 * @returns The provider.
 *
 * @example
 * ```ts
 * import { githubProvider } from "@app/fragment-cli/auth";
 *
 * const github = githubProvider({
 *   clientId: "Iv1.8a61f9b3a7aba766",
 *   clientSecret: "…", // GITHUB_CLIENT_SECRET
 * });
 * ```
 */
export function githubProvider(options: GitHubProviderOptions): AuthGitHubProvider {
  return { ...options, type: "github", name: options.name ?? "GitHub" };
}
