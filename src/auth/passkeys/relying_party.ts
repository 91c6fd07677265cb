/**
 * The relying party of the passkeys: the id a passkey is bound to (a host name, never an IP
 * address: WebAuthn refuses them) and the origins a response may come from. Both come from
 * `publicOrigin`, never from `Host`, except in local development on a loopback address (as the
 * provider callbacks do, `oauth/callback_origin.ts`). A trusted origin on the same host or a
 * subdomain of it (an SPA on `app.example.com` with `publicOrigin` `https://example.com`, a dev
 * server on another port of `localhost`) may run the ceremonies too.
 *
 * @module
 */

import { authError } from "../errors.ts";
import { isLoopbackHost } from "../http/redirect_target.ts";
import type { OriginPolicy } from "../http/origin_check.ts";

/** Where the passkeys of a deployment belong. */
export interface RelyingParty {
  /** The RP ID: `publicOrigin`'s host name (`localhost` in local development). */
  id: string;
  /** The name authenticators may show: the RP ID. */
  name: string;
  /** The origins a response may come from: the deployment's, then the trusted ones of its host. */
  origins: string[];
}

const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** Whether a trusted origin's host is the RP ID or a subdomain of it. */
function withinRelyingParty(origin: string, id: string): boolean {
  const hostname = new URL(origin).hostname;
  return hostname === id || hostname.endsWith(`.${id}`);
}

/**
 * The relying party for a request: from `publicOrigin`, else (local development) from the
 * request's own origin when it is a loopback one, an IP address taking the name `localhost`;
 * `null` when passkeys cannot work (no `publicOrigin` on a public name, or a `publicOrigin` that
 * is an IP address).
 */
export function relyingParty(policy: OriginPolicy, request: Request | null): RelyingParty | null {
  let origin: URL;
  if (policy.publicOrigin !== null) {
    origin = new URL(policy.publicOrigin);
    if (IP_ADDRESS.test(origin.hostname) && !isLoopbackHost(origin.hostname)) return null;
  } else {
    if (request === null) return null;
    origin = new URL(new URL(request.url).origin);
    if (!isLoopbackHost(origin.hostname)) return null;
  }
  // A page on 127.0.0.1 cannot run the ceremony at all; the same server reached as localhost can.
  if (IP_ADDRESS.test(origin.hostname)) origin.hostname = "localhost";
  const id = origin.hostname;
  const trusted = [...policy.trustedOrigins].filter((trustedOrigin) =>
    trustedOrigin !== origin.origin && withinRelyingParty(trustedOrigin, id)
  );
  return { id, name: id, origins: [origin.origin, ...trusted] };
}

/** {@link relyingParty}, or 503 `PASSKEYS_UNAVAILABLE` when passkeys cannot work here. */
export function requireRelyingParty(policy: OriginPolicy, request: Request | null): RelyingParty {
  const found = relyingParty(policy, request);
  if (found !== null) return found;
  throw authError(
    "PASSKEYS_UNAVAILABLE",
    "Passkeys need publicOrigin set to the address users reach, a host name rather than an IP " +
      "address (without it, only a loopback address works, as http://localhost:<port>)",
  );
}
