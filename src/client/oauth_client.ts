/**
 * The provider calls of the typed client: `client.oauth` (the configured providers, the sign-in
 * URL to navigate to, connecting a provider to the account) and `client.identities` (the
 * connected accounts). Their methods and paths come from the operation declarations, through the
 * generated `generated/client_routes.ts`.
 *
 * @module
 */

import type { AuthIdentity, AuthOAuthLink, AuthOAuthProviderInfo } from "../auth/mod.ts";
import type { SendOperation } from "./account_client.ts";
import type { AuthResult } from "./result.ts";
import { fillPath } from "./route_path.ts";
import type * as Routes from "../../generated/client_routes.ts";

/**
 * The provider calls: `client.oauth` (with `auth({ oauth })` on the server).
 *
 * @example A "Continue with …" button per provider, and connecting one from the account page
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.oauth.providers();
 * for (const provider of data?.providers ?? []) {
 *   const href = client.oauth.authorizeUrl(provider.id, { redirectTo: "/app" });
 *   console.log(`<a href="${href}">Continue with ${provider.name}</a>`);
 * }
 * const link = await client.oauth.link("google", { redirectTo: "/#account" });
 * if (link.data) location.assign(link.data.url);
 * ```
 */
export interface AuthOAuthClient {
  /** `GET /oauth/providers`: the configured providers' ids and names. */
  providers(): Promise<AuthResult<{ providers: AuthOAuthProviderInfo[] }>>;
  /**
   * The URL that starts a sign-in with `provider` (`GET /oauth/:provider/authorize`): navigate
   * the browser to it (a link or `location.assign`); it comes back to `redirectTo`, signed in, or
   * with `?error=<code>`. No request is made.
   */
  authorizeUrl(provider: string, options?: { redirectTo?: string }): string;
  /**
   * `POST /oauth/:provider/link`: connects `provider` to the signed-in account. Navigate to
   * `data.url`; the browser comes back to `redirectTo` (with `?error=<code>` on failure).
   */
  link(provider: string, options?: { redirectTo?: string }): Promise<AuthResult<AuthOAuthLink>>;
}

/**
 * The connected accounts: `client.identities`.
 *
 * @example Disconnect every GitHub account but keep the others
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.identities.list();
 * for (const identity of data?.identities ?? []) {
 *   if (identity.provider !== "github") continue;
 *   const { error } = await client.identities.unlink(identity.id);
 *   if (error?.code === "LAST_SIGN_IN_METHOD") console.log("Set a password first");
 * }
 * ```
 */
export interface AuthIdentitiesClient {
  /** `GET /identities`: the caller's connected provider accounts. */
  list(): Promise<AuthResult<{ identities: AuthIdentity[] }>>;
  /** `DELETE /identities/:identityId` (409 `LAST_SIGN_IN_METHOD` for the last way in). */
  unlink(identityId: string): Promise<AuthResult<null>>;
}

/**
 * The provider calls of the client, over `send` and the operations' routes; `baseUrl` as given to
 * `createAuthClient`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "https://api.example.com/api/auth" });
 * console.log(client.oauth.authorizeUrl("google"));
 * // https://api.example.com/api/auth/oauth/google/authorize
 * ```
 */
export function oauthCalls(send: SendOperation, routes: typeof Routes, baseUrl: string): {
  oauth: AuthOAuthClient;
  identities: AuthIdentitiesClient;
} {
  const base = baseUrl.replace(/\/+$/, "");
  // The path of a route key ("GET /oauth/:provider/authorize"), for a URL the browser opens.
  const pathOf = (key: string, provider: string) =>
    fillPath(key.slice(key.indexOf(" ") + 1), { provider });
  return {
    oauth: {
      providers: () => send(routes.listOAuthProviders),
      authorizeUrl(provider, options = {}) {
        const query = options.redirectTo === undefined
          ? ""
          : `?${new URLSearchParams({ redirectTo: options.redirectTo })}`;
        return `${base}${pathOf(routes.startOAuthSignIn, provider)}${query}`;
      },
      link: (provider, options = {}) =>
        send(routes.linkOAuthProvider, { params: { provider }, body: { ...options } }),
    },
    identities: {
      list: () => send(routes.listIdentities),
      unlink: (identityId) => send(routes.unlinkIdentity, { params: { identityId } }),
    },
  };
}
