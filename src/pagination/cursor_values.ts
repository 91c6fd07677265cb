/**
 * The sort-column types a keyset cursor may carry, and the check that a decoded cursor value is
 * one PostgreSQL accepts for its column. A signed cursor is still checked: a leaked or misused
 * key must not turn into a query error (SQLSTATE 22xxx, an HTTP 500) or a value the database
 * would read differently from what the check saw.
 *
 * Values are PostgreSQL's own text output (`column::text`), so each check accepts that output
 * and refuses anything PostgreSQL could reject or reinterpret; it may be stricter than
 * PostgreSQL's input parser.
 *
 * @module
 */

/**
 * The type of a sort column, as PostgreSQL names it. Each is checked and cast (`$n::type`)
 * before a cursor value reaches SQL.
 *
 * @example A bigint sort column
 * ```ts
 * import { type KeysetColumnType, keysetQuery } from "@app/fragment-cli/pagination";
 *
 * const type: KeysetColumnType = "int8"; // a bigint id, carried as text in the cursor
 * const q = keysetQuery({ listId: "events", columns: [{ name: "id", type }], secret: "a deployment secret" });
 * ```
 */
export type KeysetColumnType = "text" | "uuid" | "timestamptz" | "int4" | "int8";

/** Every {@link KeysetColumnType}, for validation of the options. */
export const KEYSET_COLUMN_TYPES: readonly KeysetColumnType[] = [
  "text",
  "uuid",
  "timestamptz",
  "int4",
  "int8",
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** PostgreSQL's ISO output: `2024-01-01 00:00:00.123456+00`, `+05:30`, `-03:00:00`, ` BC`. */
const TIMESTAMPTZ =
  /^(\d{4,6})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?( BC)?$/;
/** A lone UTF-16 surrogate (the `u` flag matches a valid pair as one code point). */
const LONE_SURROGATE = /\p{Cs}/u;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
/**
 * Years inside PostgreSQL's timestamp range (4713-11-24 BC to 294276-12-31 AD) whatever the UTC
 * offset: the edge years themselves are refused, no real row lives there.
 */
const MAX_YEAR_AD = 294275;
const MAX_YEAR_BC = 4712;

/**
 * Whether `value` is a value of `type` that PostgreSQL reads back unchanged.
 *
 * @param type The column's type.
 * @param value A decoded cursor value.
 * @returns `true` when the value may be bound to a `$n::type` parameter.
 *
 * @example
 * ```ts
 * import { isKeysetValue } from "./cursor_values.ts";
 *
 * isKeysetValue("uuid", "0190c1d2-8f3e-7a4b-9c5d-6e7f8a9b0c1d"); // => true
 * isKeysetValue("timestamptz", "yesterday"); // => false
 * ```
 */
export function isKeysetValue(type: KeysetColumnType, value: string): boolean {
  switch (type) {
    case "text":
      // PostgreSQL text holds no NUL; a lone surrogate would be re-encoded as U+FFFD.
      return !value.includes("\0") && !LONE_SURROGATE.test(value);
    case "uuid":
      return UUID.test(value);
    case "timestamptz":
      return isTimestamptz(value);
    case "int4":
      return isIntegerIn(value, -(2n ** 31n), 2n ** 31n - 1n);
    case "int8":
      return isIntegerIn(value, INT8_MIN, INT8_MAX);
    default:
      return false;
  }
}

function isIntegerIn(value: string, min: bigint, max: bigint): boolean {
  if (!/^-?\d{1,19}$/.test(value)) return false;
  const n = BigInt(value);
  return n >= min && n <= max;
}

function isTimestamptz(value: string): boolean {
  if (value === "infinity" || value === "-infinity") return true;
  const m = TIMESTAMPTZ.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s, , oh, om, os, bc] = m;
  const year = Number(y);
  if (year < 1 || year > (bc ? MAX_YEAR_BC : MAX_YEAR_AD)) return false;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(bc ? 1 - year : year, month)) {
    return false;
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  // PostgreSQL accepts UTC offsets up to 15:59:59.
  return Number(oh) <= 15 && Number(om ?? 0) <= 59 && Number(os ?? 0) <= 59;
}

/** Days in a month of the proleptic Gregorian calendar (astronomical year: 1 BC is year 0). */
function daysIn(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
