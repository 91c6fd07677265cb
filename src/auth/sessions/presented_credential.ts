/**
 * Reading the credential a request presents (cookie or Bearer header). The origin rule of unsafe
 * requests lives in origin_check.ts.
 *
 * @module
 */

import { AUTH_SESSION_COOKIE, readCookie } from "./cookies.ts";
import { authError } from "../errors.ts";

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
