/**
 * The `service_auth` cookie: reading it from a request and writing it on a response.
 *
 * @module
 */

/**
 * The name of the credential cookie.
 *
 * @example
 * ```ts
 * import { AUTH_SESSION_COOKIE } from "@app/fragment-cli/auth";
 *
 * console.log(AUTH_SESSION_COOKIE); // "service_auth"
 * ```
 */
export const AUTH_SESSION_COOKIE = "service_auth";

/** The value of cookie `name` in the request's `Cookie` header(s), or `null`. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    let value = part.slice(index + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1);
    }
    return value;
  }
  return null;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether the cookie must carry `Secure` for a deployment reached at `origin` (`publicOrigin`, or
 * the request's own origin when that is unset): always, except over plain http on a loopback host
 * (local development, where browsers would drop a Secure cookie).
 */
export function needsSecureCookie(origin: string): boolean {
  const url = new URL(origin);
  const local = LOCAL_HOSTS.has(url.hostname) || url.hostname.endsWith(".localhost");
  return !(url.protocol === "http:" && local);
}

/**
 * The `Set-Cookie` value that stores a credential until `expiresAt`, for a deployment reached at
 * `origin` (see {@link needsSecureCookie}).
 */
export function sessionCookie(origin: string, token: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${AUTH_SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    ...(needsSecureCookie(origin) ? ["Secure"] : []),
  ].join("; ");
}

/** The `Set-Cookie` value that deletes the credential cookie (`origin` as for {@link sessionCookie}). */
export function clearedSessionCookie(origin: string): string {
  return [
    `${AUTH_SESSION_COOKIE}=`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=0",
    "Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ...(needsSecureCookie(origin) ? ["Secure"] : []),
  ].join("; ");
}
