/**
 * The `Host` header check. Runtimes build `request.url` from the client's `Host`: on Deno a Host
 * carrying a path (`example.com/api/auth/sign-up?`) rewrote the URL's path and so the route a
 * request reached. A request whose Host is not a plain host is refused before any routing.
 *
 * @module
 */

import { errorResponse } from "./http_error.ts";

/** One DNS label (letters, digits, hyphens; underscores too, as container names use them). */
const LABEL = "[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?";

/** A host name or IPv4 address, an optional trailing dot, then an optional port. */
const NAME_HOST = new RegExp(`^(?:${LABEL})(?:\\.${LABEL})*\\.?(?::(\\d{1,5}))?$`);

/** A bracketed IPv6 literal (checked further by the URL parser), then an optional port. */
const IPV6_HOST = /^\[[0-9A-Fa-f:.]+\](?::(\d{1,5}))?$/;

const MAX_HOST_LENGTH = 253 + 1 + 6;

let lastValidHost: string | null = null;

/**
 * Whether a `Host` header value is a host name or IP literal with an optional port, and nothing
 * else (no path, query, fragment, user info, spaces or non-ASCII characters).
 *
 * @example
 * ```ts
 * import { isValidHost } from "./host_header.ts";
 *
 * console.log(isValidHost("app.example.com:8443")); // true
 * console.log(isValidHost("app.example.com/api/auth/sign-up?")); // false
 * ```
 */
export function isValidHost(value: string): boolean {
  // Nearly every request of a deployment carries the same Host: remember the last valid one
  // (the full check, URL parse included, costs about 0.6 µs).
  if (value === lastValidHost) return true;
  if (value.length > MAX_HOST_LENGTH) return false;
  const match = NAME_HOST.exec(value) ?? IPV6_HOST.exec(value);
  if (!match) return false;
  if (match[1] !== undefined && Number(match[1]) > 65535) return false;
  try {
    // Rejects what the patterns let through but a URL cannot hold (e.g. 1.2.3.999, [1::2::3]).
    new URL(`http://${value}/`);
    lastValidHost = value;
    return true;
  } catch {
    return false;
  }
}

/**
 * A 400 `INVALID_HOST` response when the request carries a malformed `Host` header, `null`
 * otherwise. A request without the header (built in code) passes: HTTP/1.1 servers refuse those
 * themselves.
 */
export function invalidHostResponse(request: Request): Response | null {
  const host = request.headers.get("host");
  if (host === null || isValidHost(host)) return null;
  return errorResponse(
    400,
    "INVALID_HOST",
    "The Host header must be a host name with an optional port",
  );
}
