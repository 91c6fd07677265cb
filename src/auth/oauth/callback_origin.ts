/**
 * The origin a provider sends the browser back to (the callback's origin): from `publicOrigin`,
 * never from `Host`, except in local development on a loopback origin. Where the browser may go
 * after the callback (`redirectTo`) is `http/redirect_target.ts`'s rule, shared with email links.
 *
 * @module
 */

import { isLoopbackHost } from "../http/redirect_target.ts";

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
