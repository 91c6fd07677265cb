/**
 * The client's network address: read from what the runtime's server passes as the second argument
 * of a `fetch` handler (the socket's peer), or, only when the deployment says it sits behind a
 * proxy, from the header that proxy sets.
 *
 * @module
 */

/**
 * Where a deployment takes the client address from: `false` (the socket's peer, the default) or
 * the name of the request header its reverse proxy sets (e.g. `"x-forwarded-for"`), whose
 * left-most address is used. Only the proxy can make that header trustworthy: a client reaching
 * the server directly writes whatever it likes into it.
 *
 * @example
 * ```ts
 * import type { TrustProxy } from "@app/fragment-cli";
 *
 * const behindNginx: TrustProxy = "x-forwarded-for";
 * ```
 */
export type TrustProxy = false | string;

/**
 * The peer address of the connection a request came on, from the second argument a runtime's
 * server gives the handler: `Deno.serve` (`info.remoteAddr.hostname`), `Bun.serve` (the server,
 * `server.requestIP(request).address`), `@hono/node-server` (`env.incoming.socket.remoteAddress`),
 * or an explicit `{ remoteAddress: "…" }` from any other framework. `null` when there is none
 * (an in-process `module.fetch(request)` call) or the shape is unknown.
 *
 * @example
 * ```ts
 * import { socketAddress } from "./client_address.ts";
 *
 * const request = new Request("http://localhost/");
 * console.log(socketAddress(request, { remoteAddr: { hostname: "192.0.2.1", port: 4000 } })); // "192.0.2.1"
 * console.log(socketAddress(request, undefined)); // null
 * ```
 */
export function socketAddress(request: Request, connection: unknown): string | null {
  if (typeof connection !== "object" || connection === null) return null;
  const shape = connection as {
    remoteAddress?: unknown;
    remoteAddr?: { hostname?: unknown };
    requestIP?: unknown;
    incoming?: { socket?: { remoteAddress?: unknown } };
  };
  let found: unknown;
  if (typeof shape.remoteAddress === "string") found = shape.remoteAddress;
  else if (typeof shape.remoteAddr === "object" && shape.remoteAddr !== null) {
    found = shape.remoteAddr.hostname; // Deno (a Unix socket has `path` instead: no address)
  } else if (typeof shape.requestIP === "function") {
    try {
      found = (shape.requestIP as (r: Request) => { address?: unknown } | null)(request)?.address;
    } catch {
      found = null; // Bun throws for a request it did not receive itself
    }
  } else found = shape.incoming?.socket?.remoteAddress;
  return typeof found === "string" ? normalizeAddress(found) : null;
}

/**
 * The client address of a request: the socket's peer (`socket`), unless `trustProxy` names a
 * header, in which case that header's left-most address (`for=` of a `Forwarded` header) is used
 * when present and well-formed, the socket's peer otherwise.
 *
 * @example
 * ```ts
 * import { clientAddress } from "@app/fragment-cli";
 *
 * const request = new Request("http://localhost/", {
 *   headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.2" },
 * });
 * console.log(clientAddress(request, "10.0.0.2", false)); // "10.0.0.2"
 * console.log(clientAddress(request, "10.0.0.2", "x-forwarded-for")); // "203.0.113.7"
 * ```
 */
export function clientAddress(
  request: Request,
  socket: string | null,
  trustProxy: TrustProxy,
): string | null {
  if (trustProxy === false) return socket;
  const header = request.headers.get(trustProxy);
  if (header === null) return socket;
  let first = header.split(",")[0].trim();
  const forParameter = /(?:^|;)\s*for=("?)([^";]*)\1/i.exec(first);
  if (forParameter) first = forParameter[2];
  return normalizeAddress(first) ?? socket;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * An IP address in one canonical text form (IPv4 dotted quad; IPv6 compressed lower-case, an
 * IPv4-mapped IPv6 address as its IPv4 form), from forms proxies and sockets write: brackets, a
 * port, a zone. `null` when it is not an IP address.
 *
 * @example
 * ```ts
 * import { normalizeAddress } from "./client_address.ts";
 *
 * console.log(normalizeAddress("::ffff:192.0.2.1")); // "192.0.2.1"
 * console.log(normalizeAddress("[2001:DB8::1]:443")); // "2001:db8::1"
 * console.log(normalizeAddress("unknown")); // null
 * ```
 */
export function normalizeAddress(text: string): string | null {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  address = address.replace(/%.*$/, ""); // an IPv6 zone ("fe80::1%eth0") names a local interface
  const v4 = IPV4.exec(address);
  if (v4) {
    return v4.slice(1).every((part) => Number(part) <= 255)
      ? v4.slice(1).map(Number).join(".")
      : null;
  }
  if (!address.includes(":") || !/^[0-9a-fA-F:.]+$/.test(address)) return null;
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1); // the URL parser canonicalizes
  } catch {
    return null;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = parseInt(mapped[1], 16);
    const low = parseInt(mapped[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return host;
}

/**
 * The part of an address that names one client for counting: an IPv4 address itself, an IPv6
 * address's /64 network (one subscriber usually holds a whole /64, so counting single IPv6
 * addresses would let one client take 2^64 fresh identities).
 *
 * @example
 * ```ts
 * import { addressKey } from "./client_address.ts";
 *
 * console.log(addressKey("192.0.2.1")); // "192.0.2.1"
 * console.log(addressKey("2001:db8:1:2:3:4:5:6")); // "2001:db8:1:2::/64"
 * ```
 */
export function addressKey(address: string): string {
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
