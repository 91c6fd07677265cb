/**
 * CORS for the module's `trustedOrigins`: the one list that lets another origin send unsafe
 * requests (the origin rule, `origin_check.ts`) also lets a page on it read the answers, with
 * cookies. A preflight from a trusted origin asking for an allowed method and allowed headers is
 * answered 204 with the exact origin (never `*`, which browsers refuse with credentials),
 * `Access-Control-Allow-Credentials: true`, the methods, the headers and a max age; an actual
 * request from a trusted origin gets the origin, the credentials flag and the headers a client
 * may read. Any other origin (the opaque `null` one included), or a preflight asking for more,
 * gets no CORS header at all, so the browser withholds the answer. Every answer carries
 * `Vary: Origin` while the list is not empty, since what it says then depends on `Origin`.
 *
 * @module
 */

/** The methods the module's routes use (HEAD and the simple GET/POST need no preflight). */
export const CORS_ALLOWED_METHODS: readonly string[] = Object.freeze([
  "GET",
  "HEAD",
  "POST",
  "PATCH",
  "DELETE",
]);

/** The request headers a page may send beyond the CORS-safelisted ones. */
export const CORS_ALLOWED_HEADERS: readonly string[] = Object.freeze([
  "Content-Type",
  "Authorization",
]);

/** The answer headers a page may read beyond the safelisted ones. */
const EXPOSED_HEADERS = "Retry-After, WWW-Authenticate";

/** Seconds a browser may cache a preflight's answer (short: a removed origin stops soon). */
export const CORS_MAX_AGE = 600;

const ALLOWED_METHODS: ReadonlySet<string> = new Set(CORS_ALLOWED_METHODS);
const ALLOWED_HEADERS: ReadonlySet<string> = new Set(
  CORS_ALLOWED_HEADERS.map((name) => name.toLowerCase()),
);

type Fetch = (request: Request, connection?: unknown) => Promise<Response>;

/**
 * Wraps a module's `fetch` with CORS for `trustedOrigins` (exact, serialized origins as the
 * options hold them). With no trusted origin it returns `fetch` itself.
 */
export function withCors(fetch: Fetch, trustedOrigins: ReadonlySet<string>): Fetch {
  if (trustedOrigins.size === 0) return fetch;
  return async (request, connection) => {
    const origin = request.headers.get("origin");
    const trusted = origin !== null && trustedOrigins.has(origin);
    if (trusted && isPreflight(request)) {
      if (preflightAllowed(request)) return preflightResponse(origin);
      // Asks for a method or header the module does not accept: the browser sees no allowance.
      return withHeaders(await fetch(request, connection), {});
    }
    const response = await fetch(request, connection);
    if (!trusted) return withHeaders(response, {});
    return withHeaders(response, {
      "access-control-allow-origin": origin,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": EXPOSED_HEADERS,
    });
  };
}

function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("access-control-request-method");
}

/** Whether the preflight asks only for allowed methods and headers (names case-insensitive). */
function preflightAllowed(request: Request): boolean {
  const method = request.headers.get("access-control-request-method") ?? "";
  if (!ALLOWED_METHODS.has(method)) return false;
  const headers = (request.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  return headers.every((name) => ALLOWED_HEADERS.has(name));
}

function preflightResponse(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": CORS_ALLOWED_METHODS.join(", "),
      "access-control-allow-headers": CORS_ALLOWED_HEADERS.join(", "),
      "access-control-max-age": String(CORS_MAX_AGE),
      "cache-control": "no-store",
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    },
  });
}

/** `response` with `headers` set and `Origin` added to `Vary` (copied: headers may be frozen). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  const vary = merged.get("vary");
  if (!vary?.split(",").some((part) => part.trim().toLowerCase() === "origin")) {
    merged.set("vary", vary ? `${vary}, Origin` : "Origin");
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}
