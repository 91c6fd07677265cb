/**
 * Internal: what both drivers (PGlite, postgres.js) share: error mapping, value codecs.
 *
 * @module
 */

import { DatabaseUnavailableError, SqlError, StatementTimeoutError } from "./adapter_errors.ts";

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** SQLSTATEs meaning the server cannot serve us now. */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" ||
    code === "53300" || code === "3D000";
}

/**
 * query_canceled: `statement_timeout` (or `pg_cancel_backend`) cancelled one statement. Not an
 * outage: reporting it as one sent operators looking for a down server when one query was slow.
 */
const STATEMENT_CANCELLED = "57014";

function field(error: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = error[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/**
 * Maps any error thrown by a driver to {@link SqlError} (PostgreSQL rejected the
 * statement; {@link StatementTimeoutError} when it cancelled it) or
 * {@link DatabaseUnavailableError} (cannot reach the database).
 * Other errors (e.g. serialization bugs in caller values) pass through.
 */
export function mapDriverError(error: unknown, target: string): unknown {
  if (error instanceof SqlError || error instanceof DatabaseUnavailableError) return error;
  if (typeof error !== "object" || error === null) return error;
  const e = error as Record<string, unknown>;
  hideParameters(e);
  const code = typeof e.code === "string" ? e.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined && NETWORK_CODES.has(code)) {
    return new DatabaseUnavailableError(`Database ${target} is unavailable: ${message}`, {
      cause: error,
    });
  }
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) {
    if (code === STATEMENT_CANCELLED) return new StatementTimeoutError(message, { cause: error });
    if (isUnavailableSqlState(code)) {
      return new DatabaseUnavailableError(`Database ${target} is unavailable: ${message}`, {
        cause: error,
      });
    }
    return new SqlError(message, {
      code,
      detail: field(e, "detail"),
      constraint: field(e, "constraint", "constraint_name"),
      schema: field(e, "schema", "schema_name"),
      table: field(e, "table", "table_name"),
      column: field(e, "column", "column_name"),
    }, { cause: error });
  }
  if (error instanceof Error && /PGlite is closed/.test(message)) {
    return new DatabaseUnavailableError(`Database ${target} is unavailable: ${message}`, {
      cause: error,
    });
  }
  return error;
}

/**
 * Makes PGlite's copy of the query parameters (`params`: tokens, hashes, emails) non-enumerable, so
 * printing its error, or a `SqlError` whose cause it is, does not print them. postgres.js already
 * keeps its `parameters` non-enumerable. The values stay readable for a debugger.
 */
function hideParameters(e: Record<string, unknown>): void {
  const descriptor = Object.getOwnPropertyDescriptor(e, "params");
  if (descriptor?.enumerable && descriptor.configurable) {
    Object.defineProperty(e, "params", { ...descriptor, enumerable: false });
  }
}

/** Hex codec for `bytea` without `Buffer` (not a global on Deno). */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, "0");
  return out;
}

/** Parses PostgreSQL's `\x…` hex output into a plain Uint8Array. */
export function hexToBytes(text: string): Uint8Array {
  const hex = text.startsWith("\\x") ? text.slice(2) : text;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Normalizes one query parameter identically for both drivers: `bigint` →
 * decimal string, `Date` → ISO-8601 string, `undefined` → TypeError (almost
 * always a bug; pass `null` for NULL). Objects and arrays are serialized by the
 * driver according to the parameter type the server describes.
 */
export function toParam(value: unknown, index: number): unknown {
  if (value === undefined) {
    throw new TypeError(`Query parameter $${index + 1} is undefined; pass null for SQL NULL`);
  }
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** JSON serializer for json/jsonb parameters: `bigint` values become strings. */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => typeof v === "bigint" ? v.toString() : v);
}
