/**
 * Reading the credential a request presents (cookie or Bearer header) and the CSRF check for
 * cookie-authenticated unsafe requests.
 *
 * @module
 */

import { AUTH_SESSION_COOKIE, readCookie } from "./cookies.ts";
import { authError } from "./errors.ts";

/** How a credential arrived. */
export type CredentialTransport = "cookie" | "bearer";

/** The token a request presented and how. */
export interface PresentedCredential {
  token: string;
  transport: CredentialTransport;
}

const BEARER = /^Bearer[ \t]+(\S*)[ \t]*$/i;

/**
 * The credential of a request, or `null` when it presents none. The cookie and the Bearer header
 * may both be present only when they carry the same token (400 `CONFLICTING_CREDENTIALS`
 * otherwise); the request then counts as Bearer-authenticated, since a cross-site page cannot set
 * that header.
 */
export function presentedCredential(request: Request): PresentedCredential | null {
  const cookie = readCookie(request, AUTH_SESSION_COOKIE) || null;
  const authorization = request.headers.get("authorization");
  const bearer = authorization === null ? null : BEARER.exec(authorization.trim())?.[1] ?? null;
  if (cookie !== null && bearer !== null && cookie !== bearer) {
    throw authError(
      "CONFLICTING_CREDENTIALS",
      "The service_auth cookie and the Authorization header carry different credentials",
    );
  }
  if (bearer !== null) return { token: bearer, transport: "bearer" };
  if (cookie !== null) return { token: cookie, transport: "cookie" };
  return null;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses (403 `CSRF_REJECTED`) a cookie-authenticated unsafe request that a browser sent from
 * another origin: its `Origin` names neither the request's own origin nor a trusted one, or it
 * has no `Origin` but `Sec-Fetch-Site: cross-site`. Requests without either header (non-browser
 * clients) pass; Bearer requests are not exposed to CSRF and are not checked.
 */
export function checkSameOrigin(
  request: Request,
  transport: CredentialTransport,
  trustedOrigins: ReadonlySet<string>,
): void {
  if (transport !== "cookie" || !UNSAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (origin === new URL(request.url).origin || trustedOrigins.has(origin)) return;
    throw authError("CSRF_REJECTED", `Cross-origin request from ${origin} refused`);
  }
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw authError("CSRF_REJECTED", "Cross-site request refused");
  }
}
