/**
 * Quoting of PostgreSQL identifiers (schema, table, column, index and constraint names).
 *
 * Every identifier this package writes into SQL goes through {@linkcode quoteIdent}: names are
 * always double-quoted, so reserved words and mixed case are safe, and names Postgres would
 * silently truncate are rejected instead.
 *
 * @module
 */

/** The longest identifier PostgreSQL keeps without truncation, in bytes (NAMEDATALEN - 1). */
export const MAX_IDENTIFIER_BYTES = 63;

const encoder = new TextEncoder();

/**
 * Checks that `name` is a usable PostgreSQL identifier and throws a `RangeError` otherwise.
 *
 * An identifier must be a non-empty string of at most 63 UTF-8 bytes without NUL characters
 * (PostgreSQL truncates longer names silently, which would make two long names collide).
 *
 * @param name The identifier to check.
 * @param what What the name designates, used in the error message (e.g. `"table name"`).
 * @returns Nothing; throws on an invalid name.
 *
 * @example Rejecting a name that is too long
 * ```ts
 * import { assertIdentifier } from "./sql_identifier.ts";
 * assertIdentifier("users"); // fine
 * try {
 *   assertIdentifier("x".repeat(64), "table name");
 * } catch (error) {
 *   console.log((error as Error).message); // Invalid table name "xxx…": longer than 63 bytes
 * }
 * ```
 */
export function assertIdentifier(name: string, what = "identifier"): void {
  if (typeof name !== "string" || name.length === 0) {
    throw new RangeError(`Invalid ${what}: it must be a non-empty string`);
  }
  if (name.includes("\0")) {
    throw new RangeError(`Invalid ${what} ${JSON.stringify(name)}: it contains a NUL character`);
  }
  const bytes = encoder.encode(name).length;
  if (bytes > MAX_IDENTIFIER_BYTES) {
    throw new RangeError(
      `Invalid ${what} ${
        JSON.stringify(name)
      }: ${bytes} bytes is longer than the ${MAX_IDENTIFIER_BYTES} bytes PostgreSQL allows`,
    );
  }
}

/**
 * Quotes a PostgreSQL identifier: wraps it in double quotes and doubles embedded double quotes.
 *
 * Throws a `RangeError` for an empty name, a name with a NUL character, or a name longer than
 * 63 bytes (PostgreSQL would truncate it silently).
 *
 * @param name The raw identifier, e.g. a table or schema name.
 * @returns The quoted identifier, safe to splice into SQL text.
 *
 * @example Quoting names
 * ```ts
 * import { quoteIdent } from "@app/fragment-cli/sql";
 * quoteIdent("users"); // '"users"'
 * quoteIdent('we"ird'); // '"we""ird"'
 * `SELECT * FROM ${quoteIdent("auth")}.${quoteIdent("users")}`; // 'SELECT * FROM "auth"."users"'
 * ```
 */
export function quoteIdent(name: string): string {
  assertIdentifier(name);
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Quotes a schema-qualified name: `"<namespace>"."<name>"`.
 *
 * @param namespace The Postgres schema (namespace).
 * @param name The table (or other object) name inside it.
 * @returns The two quoted identifiers joined with a dot.
 *
 * @example Qualifying a table
 * ```ts
 * import { quoteQualified } from "@app/fragment-cli/sql";
 * quoteQualified("auth", "users"); // '"auth"."users"'
 * ```
 */
export function quoteQualified(namespace: string, name: string): string {
  return `${quoteIdent(namespace)}.${quoteIdent(name)}`;
}

/**
 * Quotes a SQL string literal: wraps it in single quotes and doubles embedded single quotes.
 *
 * The result is valid with `standard_conforming_strings = on` (the default since PostgreSQL
 * 9.1). NUL characters are rejected because Postgres text cannot hold them.
 *
 * @param value The string value.
 * @returns The quoted literal.
 *
 * @example Quoting a default value
 * ```ts
 * import { quoteLiteral } from "./sql_identifier.ts";
 * quoteLiteral("it's"); // "'it''s'"
 * ```
 */
export function quoteLiteral(value: string): string {
  if (value.includes("\0")) {
    throw new RangeError(`Invalid string literal ${JSON.stringify(value)}: it contains a NUL`);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
