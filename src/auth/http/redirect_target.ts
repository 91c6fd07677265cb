/**
 * Where the module may send a browser after it signed someone in: a `redirectTo` a client chose is
 * a path of the deployment, or a URL on `publicOrigin` or a trusted origin; anything else (another
 * site, a scheme-relative `//evil.example`, `/\evil.example`, `javascript:`) is refused, so the
 * module is never an open redirector (RFC 9700, 4.11). The decision reads the options only, never
 * the request's `Host`.
 *
 * @module
 */

import { authError } from "../errors.ts";
import type { OriginPolicy } from "./origin_check.ts";

/** The longest `redirectTo` accepted, in characters. */
export const MAX_REDIRECT_LENGTH = 2048;

// A base no path can leave without naming another origin: parsing a path against it and finding
// the same origin proves the path stays on the deployment (browsers resolve `\` like `/`).
const PROBE_ORIGIN = "http://redirect-target.invalid";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a host name is a loopback one (plain http is allowed there: local development). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname) || hostname.endsWith(".localhost");
}

/**
 * A `redirectTo` normalized when it is allowed, else `null`: a path (`/app?tab=1#top`) or an
 * absolute http(s) URL whose origin is `publicOrigin` or one of `trustedOrigins`; without
 * `publicOrigin` (local development), also the loopback origin the request came to
 * (`requestOrigin`).
 */
export function allowedRedirect(
  value: unknown,
  policy: OriginPolicy,
  requestOrigin: string | null = null,
): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) {
    return null;
  }
  // Control characters and spaces: browsers strip some of them before parsing (`/\t/evil`).
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return null;
  if (value.startsWith("/")) {
    if (value.startsWith("//")) return null;
    let url: URL;
    try {
      url = new URL(value, PROBE_ORIGIN);
    } catch {
      return null;
    }
    return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username !== "" || url.password !== "") return null;
  if (url.origin === policy.publicOrigin || policy.trustedOrigins.has(url.origin)) return url.href;
  const localDevelopment = policy.publicOrigin === null && requestOrigin !== null &&
    url.origin === requestOrigin && isLoopbackHost(url.hostname);
  return localDevelopment ? url.href : null;
}

/** {@linkcode allowedRedirect}, or 400 `INVALID_REDIRECT` when it is not allowed. */
export function checkRedirectTarget(
  value: string,
  policy: OriginPolicy,
  requestOrigin: string | null = null,
): string {
  const allowed = allowedRedirect(value, policy, requestOrigin);
  if (allowed === null) {
    throw authError(
      "INVALID_REDIRECT",
      "redirectTo must be a path (/…) or a URL of this deployment's origin or a trusted origin",
    );
  }
  return allowed;
}
