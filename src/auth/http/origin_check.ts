/**
 * The origin rule of unsafe requests (CSRF, login CSRF included) and the origin the deployment is
 * reached at. Both come from the options, never from the request's `Host` alone: with
 * `publicOrigin` set, the `Host` a client sends decides nothing.
 *
 * @module
 */

import { authError } from "../errors.ts";

/** The origins that may send unsafe requests, from the module's options. */
export interface OriginPolicy {
  /**
   * The origin users reach the deployment at; `null` when unset, and then the request's own
   * origin (from its URL, i.e. its `Host`) stands in for it (local development).
   */
  publicOrigin: string | null;
  /** Further origins allowed to send unsafe requests (a front end on another origin). */
  trustedOrigins: ReadonlySet<string>;
}

/** The methods that change state: the ones the origin rule applies to. */
const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The origin the deployment is reached at: `publicOrigin` when set, the request URL's otherwise.
 * Links (verification emails) and `Secure` cookie decisions use it.
 */
export function deploymentOrigin(request: Request, publicOrigin: string | null): string {
  return publicOrigin ?? new URL(request.url).origin;
}

/**
 * Refuses (403 `CSRF_REJECTED`) an unsafe request a browser sent from another origin: its
 * `Origin` is neither the deployment's origin ({@link deploymentOrigin}) nor a trusted one (the
 * opaque `null` origin of sandboxed frames included), or it has no `Origin` but
 * `Sec-Fetch-Site: cross-site`. Requests with neither header (non-browser clients) pass. Safe
 * methods (GET, HEAD, OPTIONS) are never checked.
 */
export function checkRequestOrigin(request: Request, policy: OriginPolicy): void {
  if (!UNSAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (policy.trustedOrigins.has(origin)) return;
    if (origin === deploymentOrigin(request, policy.publicOrigin)) return;
    throw authError("CSRF_REJECTED", `Cross-origin request from ${origin} refused`);
  }
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw authError("CSRF_REJECTED", "Cross-site request refused");
  }
}
