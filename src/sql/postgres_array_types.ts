/**
 * Internal: the array types of a postgres.js pool, fetched by the adapter rather than by
 * postgres.js, and the text codec of PostgreSQL array literals they use.
 *
 * postgres.js (3.4.9) serializes an array parameter and parses an array column only for the array
 * types it knows, and by default (`fetch_types`) learns them with a catalog query it runs by
 * itself on every new connection. That query's promise is dropped (porsager/postgres#1192,
 * #1205, #1223, unfixed upstream): when it fails — cancelled by `statement_timeout`, its
 * connection terminated — the rejection is unhandled and the runtime ends the process, with no
 * caller able to catch it. The adapter turns `fetch_types` off and runs the same lookup in the
 * pool's first statement, which a caller awaits (see `openReadyPool`); the types found serve
 * every connection of the pool, since its connections share one table of parsers and
 * serializers (`sql.options`, part of postgres.js's typed API).
 *
 * The codec follows PostgreSQL's array text format (`array_in`/`array_out`), so arrays read the
 * same as on PGlite: an unquoted `NULL` element is `null` (postgres.js's own parser returned the
 * string `"NULL"`, or `NaN` in a number array), and a `[2:3]={…}` lower-bound prefix is skipped.
 *
 * @module
 */

/** The catalog lookup: each type that has an array type, and that array type's delimiter. */
export const ARRAY_TYPES_QUERY =
  "SELECT t.oid AS element, t.typarray AS array, t.typdelim AS delimiter " +
  "FROM pg_catalog.pg_type t WHERE t.typarray <> 0";

/** One row of {@link ARRAY_TYPES_QUERY}. */
export interface ArrayTypeRow {
  /** The element type's oid. */
  element: number;
  /** Its array type's oid. */
  array: number;
  /** The delimiter of its elements in an array literal (`,`, `;` for `box`). */
  delimiter: string;
}

/** The codec tables of a postgres.js pool (`sql.options`), keyed by type oid. */
export interface TypeTables {
  parsers: Record<number, (value: string) => unknown>;
  serializers: Record<number, (value: unknown) => unknown>;
}

/**
 * Adds a parser and a serializer for each array type to the pool's tables, built on its
 * element's own (a `bytea[]` element is a `Uint8Array`, a `jsonb[]` element parsed JSON). An
 * array type that already has both keeps them.
 */
export function registerArrayTypes(tables: TypeTables, rows: readonly ArrayTypeRow[]): void {
  for (const row of rows) {
    const array = Number(row.array);
    const element = Number(row.element);
    if (tables.parsers[array] !== undefined && tables.serializers[array] !== undefined) continue;
    const delimiter = row.delimiter || ",";
    const parse = tables.parsers[element];
    const serialize = tables.serializers[element];
    tables.parsers[array] = (text) => parseArrayLiteral(text, parse, delimiter);
    tables.serializers[array] = (value) => serializeArrayLiteral(value, serialize, delimiter);
  }
}

/**
 * Reads an array literal as PostgreSQL writes it: `{a,"b c",NULL,{1,2}}`, elements quoted when
 * they hold a delimiter, brace, quote, backslash or space, `\` escaping inside quotes.
 */
export function parseArrayLiteral(
  text: string,
  parse: ((value: string) => unknown) | undefined,
  delimiter = ",",
): unknown[] {
  let i = 0;
  // `[lower:upper]…=` precedes the braces when a lower bound is not 1; the values are the same.
  if (text[0] === "[") i = text.indexOf("=") + 1;
  const element = (raw: string): unknown => (parse ? parse(raw) : raw);

  function list(): unknown[] {
    const out: unknown[] = [];
    i++; // "{"
    if (text[i] === "}") {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === "{") {
        out.push(list());
      } else if (text[i] === '"') {
        // Copied in runs between escapes: a long element (a JSON body) is not built char by char.
        let value = "";
        let from = ++i;
        for (; text[i] !== '"'; i++) {
          if (i >= text.length) throw new SyntaxError("Unterminated quoted array element");
          if (text[i] === "\\") {
            value += text.slice(from, i);
            from = ++i; // the escaped character starts the next run
          }
        }
        value += text.slice(from, i);
        i++;
        out.push(element(value));
      } else {
        const start = i;
        while (i < text.length && text[i] !== delimiter && text[i] !== "}") i++;
        const raw = text.slice(start, i);
        out.push(raw.toUpperCase() === "NULL" ? null : element(raw));
      }
      if (text[i] === delimiter) {
        i++;
        continue;
      }
      if (text[i] === "}") {
        i++;
        return out;
      }
      throw new SyntaxError(`Malformed array literal at character ${i + 1}`);
    }
  }

  if (text[i] !== "{") throw new SyntaxError("An array literal starts with {");
  return list();
}

/**
 * Writes a JavaScript array as an array literal: every element quoted, `null` as `NULL`. An array
 * whose first element is an array has several dimensions (as postgres.js reads it: a `jsonb[]`
 * of `[{…}, [1]]` holds the JSON array `[1]`). A value that is not an array is sent as it is (an
 * array literal given as text).
 */
export function serializeArrayLiteral(
  value: unknown,
  serialize: ((value: unknown) => unknown) | undefined,
  delimiter = ",",
): string {
  if (!Array.isArray(value)) return String(value);
  if (Array.isArray(value[0])) {
    return `{${
      value.map((item) => serializeArrayLiteral(item, serialize, delimiter)).join(delimiter)
    }}`;
  }
  const parts = value.map((item) => {
    if (item === null) return "NULL";
    if (item === undefined) {
      throw new TypeError("An array parameter holds undefined; pass null for SQL NULL");
    }
    const text = String(serialize ? serialize(item) : item);
    return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
  });
  return `{${parts.join(delimiter)}}`;
}
