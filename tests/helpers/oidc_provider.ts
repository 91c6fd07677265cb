/**
 * A real OpenID Provider for the tests: `oidc-provider` (OpenID certified), in this process on
 * 127.0.0.1 and a free port, with its development interactions (a login form that takes any
 * login, and a consent form) and one confidential client per redirect URI given. The account id
 * is the login typed; its claims come from `claimsOf`.
 *
 * @example
 * ```ts ignore
 * const op = await startOidcProvider({
 *   redirectUris: ["http://localhost:8000/api/auth/oauth/acme/callback"],
 *   claimsOf: (login) => ({ email: login, email_verified: true }),
 * });
 * // … oidcProvider({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret })
 * await op.close();
 * ```
 *
 * @module
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running provider. */
export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer identifier. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** The claims of an account: `email`, `email_verified`, `name`, … */
export type ClaimsOf = (login: string) => Record<string, unknown>;

/** By default the login is the address, verified unless it starts with `unverified.`. */
export const defaultClaims: ClaimsOf = (login) => ({
  email: login.replace(/^unverified\./, ""),
  email_verified: !login.startsWith("unverified."),
  name: login,
});

/** Starts a provider whose client may redirect to `redirectUris`. */
export async function startOidcProvider(options: {
  redirectUris: string[];
  claimsOf?: ClaimsOf;
}): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "fragment-test-app";
  const clientSecret = "test-client-secret-0123456789-abcdefghijklmnop";
  const claimsOf = options.claimsOf ?? defaultClaims;
  // Its start-up warnings (development keys, in-memory storage, the runtime) are the tests'
  // choice: keep them out of the report. Imported here, inside that window.
  const warn = console.warn;
  console.warn = () => {};
  // deno-lint-ignore no-explicit-any
  let provider: any;
  try {
    const { default: Provider } = await import("oidc-provider");
    provider = new Provider(issuer, {
      clients: [{
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      }],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      findAccount: (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: () => ({ ...claimsOf(sub), sub }),
      }),
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      cookies: { keys: ["fragment-test-provider-cookie-key"] },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
      },
    });
  } finally {
    console.warn = warn;
  }
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
