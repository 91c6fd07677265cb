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

function refuse(): never {
  throw authError(
    "INVALID_REDIRECT",
    "redirectTo must be a path (/…) or a URL of this deployment's origin or a trusted origin",
  );
}

/**
 * Checks a `redirectTo` and answers it normalized: a path (`/app?tab=1#top`) or an absolute URL
 * whose origin is `publicOrigin` or one of `trustedOrigins`. 400 `INVALID_REDIRECT` otherwise.
 */
export function checkRedirectTarget(value: string, policy: OriginPolicy): string {
  // Control characters and spaces: browsers strip some of them before parsing (`/\t/evil`).
  // deno-lint-ignore no-control-regex
  if (value.length > MAX_REDIRECT_LENGTH || /[\u0000-\u0020\u007f\\]/.test(value)) refuse();
  if (value.startsWith("/")) {
    if (value.startsWith("//")) refuse();
    let url: URL;
    try {
      url = new URL(value, PROBE_ORIGIN);
    } catch {
      refuse();
    }
    if (url.origin !== PROBE_ORIGIN) refuse();
    return `${url.pathname}${url.search}${url.hash}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    refuse();
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") refuse();
  if (url.username !== "" || url.password !== "") refuse();
  const allowed = url.origin === policy.publicOrigin || policy.trustedOrigins.has(url.origin);
  if (!allowed) refuse();
  return url.href;
}
