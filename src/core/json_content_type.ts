/**
 * The media type check of JSON bodies: a route that declares a `body` schema reads only bodies
 * labelled as JSON. A page on another site can POST `text/plain`, form-urlencoded and multipart
 * bodies without a CORS preflight, so accepting JSON text under those labels would let any site
 * drive a JSON route from a form (login CSRF); a JSON content type forces the preflight.
 *
 * @module
 */

import { HttpError } from "./http_error.ts";

/** `application/json` or a structured-syntax `+json` type (`application/vnd.api+json`). */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.+-]+\+)?json$/;

/** The charsets a JSON body may declare: the body is always decoded as UTF-8 (RFC 8259). */
const UTF8_CHARSETS = new Set(["utf-8", "utf8"]);

/**
 * Whether a `Content-Type` header value labels a JSON body: the media type `application/json` or
 * `application/<subtype>+json` (any case), with any parameters except a charset other than UTF-8.
 *
 * @example
 * ```ts
 * import { isJsonContentType } from "./json_content_type.ts";
 *
 * console.log(isJsonContentType("application/json; charset=utf-8")); // true
 * console.log(isJsonContentType("text/plain")); // false
 * ```
 */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [mediaType, ...parameters] = value.split(";");
  if (!JSON_MEDIA_TYPE.test(mediaType.trim().toLowerCase())) return false;
  for (const parameter of parameters) {
    const index = parameter.indexOf("=");
    if (index < 0 || parameter.slice(0, index).trim().toLowerCase() !== "charset") continue;
    const charset = parameter.slice(index + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
    if (!UTF8_CHARSETS.has(charset)) return false;
  }
  return true;
}

/** Throws 415 `UNSUPPORTED_MEDIA_TYPE` unless the request's body is labelled as JSON. */
export function requireJsonContentType(request: Request): void {
  if (isJsonContentType(request.headers.get("content-type"))) return;
  throw new HttpError(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    "Request body must be sent with Content-Type: application/json",
  );
}
