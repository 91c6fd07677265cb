/**
 * A hand-made OpenID Provider for the ID token abuse tests: discovery, JWKS, an authorization
 * endpoint that approves at once, and a token endpoint that checks the code and its PKCE verifier
 * like a real one but answers whatever ID token the test makes (`idToken`): a wrong `aud`, `iss`
 * or `nonce`, an expired one, one signed by another key, `alg: none`. Tokens are signed with
 * `jose` here, in the test (production code never signs or parses a JWT itself). Besides the
 * root issuer it serves Microsoft-style multi-tenant discovery under `/<tenant>/v2.0`, whose
 * issuer is the `{tenantid}` template.
 *
 * @example
 * ```ts ignore
 * const idp = await startStandIn();
 * idp.idToken = (request) => idp.sign({ ...idp.claims(request), aud: "someone-else" });
 * ```
 *
 * @module
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from "jose";
import { createHash } from "node:crypto";
import { listenLocal } from "./local_server.ts";

/** The authorization request a code was issued for. */
export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  nonce: string | null;
  codeChallenge: string;
  /** The issuer the request was made to (the root's, or a tenant's template). */
  issuer: string;
  /** The tenant path segment (`common`, `organizations`) or `null` at the root. */
  tenant: string | null;
}

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:<port>`: the root issuer. */
  origin: string;
  clientId: string;
  clientSecret: string;
  /** Makes the ID token of a redeemed code (the test replaces it per case). */
  idToken: (request: IssuedCode) => Promise<string>;
  /** The claims a correct ID token of this request has (`sub`, email …, 5 minutes). */
  claims(request: IssuedCode, extra?: JWTPayload): JWTPayload;
  /** Signs with the published key, or with a key of the same `kid` that is not published. */
  sign(claims: JWTPayload, options?: { key?: "published" | "other" }): Promise<string>;
  /** An unsigned (`alg: none`) token. */
  unsigned(claims: JWTPayload): string;
  /** Whether discovery lists `none` among the ID token algorithms (a hostile provider). */
  advertiseNone: boolean;
  /** The subject and address of the next sign-in. */
  account: { sub: string; email: string; email_verified?: boolean };
  close(): Promise<void>;
}

const KID = "stand-in-key-1";

/** Starts the stand-in on 127.0.0.1. */
export async function startStandIn(): Promise<StandIn> {
  const published = await generateKeyPair("RS256", { extractable: true });
  const other = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(published.publicKey)), kid: KID, alg: "RS256", use: "sig" };
  const codes = new Map<string, IssuedCode>();
  let origin = "";

  const metadata = (issuer: string, base: string) => ({
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${origin}/token`,
    jwks_uri: `${origin}/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: standIn.advertiseNone ? ["RS256", "none"] : ["RS256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic"],
    code_challenge_methods_supported: ["S256"],
  });

  const server = await listenLocal(async (request) => {
    const url = new URL(request.url);
    const tenant = /^\/([a-z]+)\/v2\.0(\/|$)/.exec(url.pathname)?.[1] ?? null;
    const path = tenant === null ? url.pathname : url.pathname.slice(`/${tenant}/v2.0`.length);
    const base = tenant === null ? origin : `${origin}/${tenant}/v2.0`;
    const issuer = tenant === null ? origin : `${origin}/{tenantid}/v2.0`;
    if (path === "/.well-known/openid-configuration") return Response.json(metadata(issuer, base));
    if (path === "/jwks") return Response.json({ keys: [jwk] });
    if (path === "/authorize") {
      const q = url.searchParams;
      const code = crypto.randomUUID();
      codes.set(code, {
        clientId: q.get("client_id") ?? "",
        redirectUri: q.get("redirect_uri") ?? "",
        nonce: q.get("nonce"),
        codeChallenge: q.get("code_challenge") ?? "",
        issuer,
        tenant,
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (path === "/token" && request.method === "POST") {
      const form = new URLSearchParams(await request.text());
      const issued = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      // RFC 6749, 2.3.1: each half form-urlencoded, then joined by ":" and base64-encoded.
      const [id, secret] = atob((request.headers.get("authorization") ?? "").replace(/^Basic /, ""))
        .split(":").map((part) => decodeURIComponent(part.replaceAll("+", " ")));
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (
        !issued || id !== standIn.clientId || secret !== standIn.clientSecret ||
        issued.redirectUri !== form.get("redirect_uri") || issued.codeChallenge !== challenge
      ) {
        return Response.json({ error: "invalid_grant" }, { status: 400 });
      }
      return Response.json({
        access_token: crypto.randomUUID(),
        token_type: "Bearer",
        expires_in: 300,
        id_token: await standIn.idToken(issued),
      }, { headers: { "cache-control": "no-store" } });
    }
    return Response.json({ error: "not_found" }, { status: 404 });
  });
  origin = server.url;

  const standIn: StandIn = {
    origin,
    clientId: "stand-in-client",
    clientSecret: "stand-in-secret-0123456789-abcdefghij",
    advertiseNone: false,
    account: { sub: "subject-1", email: "ada@example.com", email_verified: true },
    claims(request, extra = {}) {
      const now = Math.floor(Date.now() / 1000);
      return {
        iss: request.issuer,
        aud: request.clientId,
        iat: now,
        exp: now + 300,
        ...(request.nonce === null ? {} : { nonce: request.nonce }),
        ...standIn.account,
        ...extra,
      };
    },
    async sign(claims, options = {}) {
      const key = options.key === "other" ? other.privateKey : published.privateKey;
      return await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: KID }).sign(key);
    },
    unsigned(claims) {
      return new UnsecuredJWT(claims).encode();
    },
    idToken: (request) => standIn.sign(standIn.claims(request)),
    close: () => server.close(),
  };
  return standIn;
}
