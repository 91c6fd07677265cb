/**
 * Where a sign-in with a provider may send the browser afterwards (`redirectTo`): a path of the
 * deployment, or a URL on `publicOrigin` or a trusted origin. Anything else is refused before the
 * flow starts, so the callback is never an open redirector (RFC 9700, 4.11): no `//host`, no
 * `/\host` (browsers read a backslash as a slash), no scheme but http(s), no control character.
 * The origin the provider sends the code back to comes from `publicOrigin` too, never from `Host`.
 *
 * @module
 */

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a host name is a loopback one (plain http is allowed there: local development). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname) || hostname.endsWith(".localhost");
}

/** The origins a redirect may go to besides paths. */
export interface RedirectPolicy {
  publicOrigin: string | null;
  trustedOrigins: ReadonlySet<string>;
}

// Control characters and backslashes: browsers strip tabs and newlines and read `\` as `/`.
// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u001F\u007F\\]/;

/**
 * The target when it is allowed, else `null`: a path (`/app#/settings`) as given, or an absolute
 * http(s) URL whose origin is `publicOrigin`, a trusted origin, or (without `publicOrigin`) the
 * loopback origin the request came to.
 */
export function allowedRedirect(
  target: unknown,
  policy: RedirectPolicy,
  requestOrigin: string | null,
): string | null {
  if (typeof target !== "string" || target.length === 0 || target.length > 2048) return null;
  if (UNSAFE.test(target)) return null;
  if (target.startsWith("/")) {
    if (target.startsWith("//")) return null;
    const base = "http://base.invalid";
    try {
      return new URL(target, base).origin === base ? target : null;
    } catch {
      return null;
    }
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  if (url.origin === policy.publicOrigin || policy.trustedOrigins.has(url.origin)) return url.href;
  if (
    policy.publicOrigin === null && requestOrigin !== null && url.origin === requestOrigin &&
    isLoopbackHost(url.hostname)
  ) {
    return url.href;
  }
  return null;
}

/**
 * The origin the provider sends the browser back to: `publicOrigin`, else (local development)
 * the request's own origin when it is a loopback one; `null` otherwise (a deployment reached on a
 * public name must set `publicOrigin`).
 */
export function callbackOrigin(
  publicOrigin: string | null,
  request: Request | null,
): string | null {
  if (publicOrigin !== null) return publicOrigin;
  if (request === null) return null;
  const url = new URL(request.url);
  return isLoopbackHost(url.hostname) ? url.origin : null;
}
