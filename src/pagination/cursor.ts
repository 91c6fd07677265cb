/**
 * Keyset (cursor) pagination: stable pages over an ordered column list whose
 * last column is unique, with opaque, validated cursors.
 *
 * The sort key is compared as a row value, `("created_at", "id") > ($1, $2)`,
 * so equal sort values never skip or repeat rows across pages (the unique last
 * column breaks ties), and an index on the same columns serves every page.
 * Cursor values are read back from the database as text (`select` fragment), so
 * `timestamptz` microseconds and `int8` survive exactly.
 *
 * A cursor is signed with the caller's secret (HMAC-SHA-256): there is no default key, so a
 * client cannot mint one. Its decoded values are then checked against the declared type of each
 * sort column and bound as `$n::type`, so even a cursor signed with a leaked key is a 400
 * `INVALID_CURSOR`, never a query error.
 *
 * @module
 */

import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { isKeysetValue, KEYSET_COLUMN_TYPES, type KeysetColumnType } from "./cursor_values.ts";
import { quoteIdent } from "../sql/sql_identifier.ts";
import type { Page } from "./page.ts";

export type { KeysetColumnType } from "./cursor_values.ts";

/** The page size used when the request gives none. */
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page size served; larger requests (and cursors) are clamped to it. */
export const MAX_PAGE_SIZE = 100;

const CURSOR_VERSION = 1;
const MAX_CURSOR_LENGTH = 4096;
const KEY_PREFIX = "__cursor_";
/** The shortest key {@link keysetQuery} signs with (a deployment secret is longer, 32+). */
const MIN_CURSOR_SECRET_LENGTH = 16;

/**
 * A pagination input is invalid (bad cursor or page size). A client error:
 * `status` is 400 and `code` the JSON error code to answer with.
 *
 * @example Answer 400
 * ```ts
 * import { PaginationError } from "@app/fragment-cli/pagination";
 *
 * function statusOf(error: unknown): number {
 *   return error instanceof PaginationError ? error.status : 500;
 * }
 * ```
 */
export class PaginationError extends Error {
  /** The HTTP status to answer with. */
  readonly status: 400 = 400;
  /** The JSON error code. */
  readonly code: string;
  /**
   * Creates the error.
   *
   * @param message What is wrong, safe to show to the client.
   * @param code The JSON error code.
   */
  constructor(message: string, code = "INVALID_PAGINATION") {
    super(message);
    this.name = "PaginationError";
    this.code = code;
  }
}

/**
 * A cursor is not one this list issued: not decodable, altered, or issued by
 * another list or ordering. Code `INVALID_CURSOR`, status 400.
 *
 * @example
 * ```ts
 * import { InvalidCursorError } from "@app/fragment-cli/pagination";
 *
 * new InvalidCursorError("Cursor is malformed").code; // => "INVALID_CURSOR"
 * ```
 */
export class InvalidCursorError extends PaginationError {
  /**
   * Creates the error.
   *
   * @param message Why the cursor was rejected.
   */
  constructor(message: string) {
    super(message, "INVALID_CURSOR");
    this.name = "InvalidCursorError";
  }
}

/**
 * A sort column of {@link keysetQuery}: its name and its PostgreSQL type.
 *
 * @example A sort key with a unique last column
 * ```ts
 * import { type KeysetColumn, keysetQuery } from "@app/fragment-cli/pagination";
 *
 * // Newest first; the id breaks ties between rows created in the same microsecond.
 * const columns: KeysetColumn[] = [
 *   { name: "created_at", type: "timestamptz" },
 *   { name: "id", type: "uuid" },
 * ];
 * const q = keysetQuery({ listId: "posts", columns, direction: "desc", secret: "a deployment secret" });
 * ```
 */
export interface KeysetColumn {
  /** The column name (quoted in the SQL). */
  name: string;
  /** Its type: a cursor value that is not one is rejected, and the parameter is cast to it. */
  type: KeysetColumnType;
}

/**
 * Options of {@link keysetQuery}.
 *
 * @example The options of one customer's invoices
 * ```ts
 * import { type KeysetOptions, keysetQuery } from "@app/fragment-cli/pagination";
 *
 * const options: KeysetOptions = {
 *   listId: "invoices:customer-42", // a cursor of another customer's list is refused
 *   columns: [{ name: "number", type: "int8" }],
 *   table: "i", // the columns are qualified: "i"."number"
 *   pageSize: "50",
 *   secret: "a deployment secret of 16+ chars",
 * };
 * console.log(keysetQuery(options).orderBy); // "i"."number" ASC
 * ```
 */
export interface KeysetOptions {
  /**
   * Identifies the list and its filter (e.g. `` `members:${organizationId}` ``):
   * a cursor issued for another list id is rejected.
   */
  listId: string;
  /**
   * The sort columns with their types, most significant first; the LAST one must be unique and
   * all NOT NULL.
   */
  columns: readonly KeysetColumn[];
  /**
   * The order of every column.
   * @default "asc"
   */
  direction?: "asc" | "desc";
  /** A table name or alias qualifying the columns (for joins). */
  table?: string;
  /**
   * The requested page size (a query-string value is accepted). Values above 100 are clamped.
   * @default the cursor's page size, else 20
   */
  pageSize?: number | string | null;
  /** The cursor from the previous page, if any. */
  cursor?: string | null;
  /**
   * The number of the first placeholder the fragments use (`$n`), so they can
   * follow the query's own parameters.
   * @default 1
   */
  firstParam?: number;
  /**
   * The key of the cursors' HMAC: the deployment's secret (at least 16 characters), the same in
   * every process that serves the list. Required: a key shipped in source would let anyone mint
   * cursors.
   */
  secret: string;
}

/**
 * SQL fragments and parameters for one page, see {@link keysetQuery}.
 *
 * @example The fragments of a first page
 * ```ts
 * import { type KeysetQuery, keysetQuery } from "@app/fragment-cli/pagination";
 *
 * const q: KeysetQuery = keysetQuery({
 *   listId: "notes",
 *   columns: [{ name: "id", type: "int4" }],
 *   secret: "a deployment secret of 16+ chars",
 * });
 * const sql = `SELECT id, ${q.select} FROM note WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.limit}`;
 * console.log(q.pageSize, q.limit, q.params); // 20 21 []
 * ```
 */
export interface KeysetQuery {
  /** The effective page size (1 … 100). */
  readonly pageSize: number;
  /** Select-list items to append (`, ${q.select}`): the sort key as text, for the next cursor. */
  readonly select: string;
  /** A boolean condition to `AND` into the WHERE clause (`TRUE` on the first page). */
  readonly where: string;
  /** The ORDER BY list (without the keywords). */
  readonly orderBy: string;
  /** The LIMIT to use: `pageSize + 1`, the extra row tells whether a next page exists. */
  readonly limit: number;
  /** The parameters `where` refers to, to append to the query's own. */
  readonly params: readonly unknown[];
  /** What the next cursor needs (list fingerprint, direction, column count, secret). */
  readonly state: KeysetState;
}

/**
 * What {@link keysetPage} needs from {@link keysetQuery} to sign the next cursor; opaque to
 * callers, who pass the whole {@link KeysetQuery} along.
 *
 * @example What a query carries for its next cursor
 * ```ts
 * import { keysetQuery, type KeysetState } from "@app/fragment-cli/pagination";
 *
 * const q = keysetQuery({ listId: "notes", columns: [{ name: "id", type: "int4" }], secret: "a deployment secret" });
 * const state: KeysetState = q.state;
 * console.log(state.direction, state.columnCount); // asc 1
 * ```
 */
export interface KeysetState {
  /** Fingerprint of the list id, columns and direction. */
  readonly list: string;
  /** The sort direction. */
  readonly direction: "asc" | "desc";
  /** How many sort columns the key has. */
  readonly columnCount: number;
  /** The type of each sort column. */
  readonly types: readonly KeysetColumnType[];
  /** The HMAC key of the cursors. */
  readonly secret: string;
}

interface CursorPayload {
  v: number;
  l: string;
  d: "asc" | "desc";
  s: number;
  k: string[];
}

/**
 * Parses a requested page size: absent → `fallback`; above the maximum →
 * clamped to {@link MAX_PAGE_SIZE}; not a positive integer → {@link PaginationError}.
 *
 * @param value The requested size (number or query-string text).
 * @param fallback The size used when `value` is absent.
 * @returns The effective page size.
 *
 * @example
 * ```ts
 * import { parsePageSize } from "./cursor.ts";
 *
 * parsePageSize(undefined); // => 20
 * parsePageSize("500"); // => 100
 * ```
 */
export function parsePageSize(
  value: number | string | null | undefined,
  fallback: number = DEFAULT_PAGE_SIZE,
): number {
  if (value === undefined || value === null || value === "") {
    return Math.min(Math.max(1, Math.trunc(fallback)), MAX_PAGE_SIZE);
  }
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new PaginationError(
      `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(value)}`,
      "INVALID_PAGE_SIZE",
    );
  }
  return Math.min(n, MAX_PAGE_SIZE);
}

/**
 * Builds the SQL fragments of one page: decodes and validates the cursor,
 * resolves the page size, and returns the WHERE condition, ORDER BY list,
 * LIMIT and parameters. Identifiers are quoted.
 *
 * @param options The list, its ordering, and the request's `pageSize`/`cursor`.
 * @returns The fragments; pass the fetched rows with it to {@link keysetPage}.
 * @throws {InvalidCursorError} For a cursor this list did not issue, or whose values are not of
 * the columns' types.
 * @throws {PaginationError} For an invalid page size.
 *
 * @example A page of an organization's members, from a request's query string
 * ```ts
 * import { keysetPage, keysetQuery } from "@app/fragment-cli/pagination";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query(`CREATE TABLE member (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), org_id int,
 *   email text, created_at timestamptz DEFAULT now())`);
 * await db.query("INSERT INTO member (org_id, email) VALUES (7, 'ada@example.com')");
 * const url = new URL("http://localhost/orgs/7/members?pageSize=10");
 * const q = keysetQuery({
 *   listId: "members:7",
 *   columns: [{ name: "created_at", type: "timestamptz" }, { name: "id", type: "uuid" }],
 *   secret: "the deployment's secret, e.g. FRAGMENT_SECRET",
 *   pageSize: url.searchParams.get("pageSize"),
 *   cursor: url.searchParams.get("cursor"),
 *   firstParam: 2, // $1 is the query's own org_id
 * });
 * const rows = await db.query<{ id: string; email: string }>(
 *   `SELECT id, email, ${q.select} FROM member WHERE org_id = $1 AND ${q.where}
 *    ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
 *   [7, ...q.params],
 * );
 * const { items, cursor, hasNextPage } = keysetPage(rows, q);
 * console.log(items.length, hasNextPage, cursor); // 1 false null
 * await db.close();
 * ```
 */
export function keysetQuery(options: KeysetOptions): KeysetQuery {
  const { columns } = options;
  if (columns.length === 0) throw new TypeError("keysetQuery() needs at least one sort column");
  for (const column of columns) {
    if (!KEYSET_COLUMN_TYPES.includes(column?.type)) {
      throw new TypeError(
        `keysetQuery() column "${column?.name}" needs a type: one of ${
          KEYSET_COLUMN_TYPES.join(", ")
        }`,
      );
    }
  }
  if (typeof options.secret !== "string" || options.secret.length < MIN_CURSOR_SECRET_LENGTH) {
    throw new TypeError(
      `keysetQuery() needs a secret of at least ${MIN_CURSOR_SECRET_LENGTH} characters to sign its cursors`,
    );
  }
  const direction = options.direction ?? "asc";
  if (direction !== "asc" && direction !== "desc") {
    throw new TypeError(`keysetQuery() direction must be "asc" or "desc", got "${direction}"`);
  }
  const firstParam = options.firstParam ?? 1;
  const secret = options.secret;
  const types = columns.map((c) => c.type);
  const list = listFingerprint(options.listId, columns, direction);
  const refs = columns.map(({ name }) =>
    options.table === undefined
      ? quoteIdent(name)
      : `${quoteIdent(options.table)}.${quoteIdent(name)}`
  );
  const state: KeysetState = { list, direction, columnCount: columns.length, types, secret };

  let where = "TRUE";
  let params: string[] = [];
  let cursorPageSize: number | undefined;
  if (options.cursor !== undefined && options.cursor !== null && options.cursor !== "") {
    const payload = decodeCursor(options.cursor, state);
    params = payload.k;
    cursorPageSize = payload.s;
    const placeholders = params.map((_, i) => `$${firstParam + i}::${types[i]}`);
    const op = direction === "asc" ? ">" : "<";
    where = refs.length === 1
      ? `${refs[0]} ${op} ${placeholders[0]}`
      : `(${refs.join(", ")}) ${op} (${placeholders.join(", ")})`;
  }
  const pageSize = parsePageSize(options.pageSize, cursorPageSize ?? DEFAULT_PAGE_SIZE);
  const order = direction === "asc" ? "ASC" : "DESC";
  return {
    pageSize,
    select: refs.map((ref, i) => `${ref}::text AS ${quoteIdent(KEY_PREFIX + i)}`).join(", "),
    where,
    orderBy: refs.map((ref) => `${ref} ${order}`).join(", "),
    limit: pageSize + 1,
    params,
    state,
  };
}

/**
 * Turns the rows fetched with a {@link keysetQuery} (at most `limit` of them,
 * including its `select` columns; type them without those) into a page: the first `pageSize` rows
 * without the cursor columns, the next cursor and `hasNextPage`.
 *
 * @param rows The fetched rows, in the query's order.
 * @param query The query the rows were fetched with.
 * @returns The page.
 *
 * @example A JSON response of one page
 * ```ts
 * import { keysetPage, keysetQuery } from "@app/fragment-cli/pagination";
 * import type { SqlQuerier } from "@app/fragment-cli/sql";
 *
 * async function listNotes(db: SqlQuerier, request: Request): Promise<Response> {
 *   const url = new URL(request.url);
 *   const q = keysetQuery({
 *     listId: "notes",
 *     columns: [{ name: "id", type: "int8" }],
 *     secret: "the deployment's secret, e.g. FRAGMENT_SECRET",
 *     cursor: url.searchParams.get("cursor"),
 *   });
 *   const rows = await db.query<{ id: string; body: string }>(
 *     `SELECT id, body, ${q.select} FROM note WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
 *     q.params,
 *   );
 *   const page = keysetPage(rows, q);
 *   return Response.json({ notes: page.items, cursor: page.cursor, hasNextPage: page.hasNextPage });
 * }
 * ```
 */
export function keysetPage<T extends object>(
  rows: readonly T[],
  query: KeysetQuery,
): Page<T> {
  const hasNextPage = rows.length > query.pageSize;
  const pageRows = rows.slice(0, query.pageSize);
  const items = pageRows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      if (!key.startsWith(KEY_PREFIX)) item[key] = value;
    }
    return item as T;
  });
  let cursor: string | null = null;
  if (hasNextPage) {
    const last = pageRows[pageRows.length - 1] as Record<string, unknown>;
    const key: string[] = [];
    for (let i = 0; i < query.state.columnCount; i++) {
      const value = last[KEY_PREFIX + i];
      if (typeof value !== "string") {
        throw new TypeError(
          `keysetPage() needs the query's select columns in each row (missing or NULL "${KEY_PREFIX}${i}"); ` +
            "sort columns must be NOT NULL",
        );
      }
      key.push(value);
    }
    cursor = encodeCursor(
      {
        v: CURSOR_VERSION,
        l: query.state.list,
        d: query.state.direction,
        s: query.pageSize,
        k: key,
      },
      query.state.secret,
    );
  }
  return { items, cursor, hasNextPage };
}

function listFingerprint(
  listId: string,
  columns: readonly KeysetColumn[],
  direction: string,
): string {
  const key = [listId, columns.map((c) => [c.name, c.type]), direction];
  return createHash("sha256").update(JSON.stringify(key)).digest(
    "base64url",
  ).slice(0, 16);
}

function mac(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url").slice(0, 22);
}

function encodeCursor(payload: CursorPayload, secret: string): string {
  const body = toBase64Url(JSON.stringify(payload));
  return `${body}.${mac(body, secret)}`;
}

function decodeCursor(cursor: string, state: KeysetState): CursorPayload {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) {
    throw new InvalidCursorError("Cursor is malformed");
  }
  const parts = cursor.split(".");
  if (
    parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])
  ) {
    throw new InvalidCursorError("Cursor is malformed");
  }
  const [body, signature] = parts;
  const expected = new TextEncoder().encode(mac(body, state.secret));
  const actual = new TextEncoder().encode(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new InvalidCursorError("Cursor has been altered or was not issued by this server");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(fromBase64Url(body));
  } catch {
    throw new InvalidCursorError("Cursor is malformed");
  }
  const p = payload as Partial<CursorPayload> | null;
  if (
    typeof p !== "object" || p === null || p.v !== CURSOR_VERSION || typeof p.l !== "string" ||
    !Array.isArray(p.k) || !p.k.every((x) => typeof x === "string") ||
    !Number.isSafeInteger(p.s) || (p.d !== "asc" && p.d !== "desc")
  ) {
    throw new InvalidCursorError("Cursor is malformed");
  }
  if (p.l !== state.list || p.d !== state.direction || p.k.length !== state.columnCount) {
    throw new InvalidCursorError("Cursor belongs to another list");
  }
  const keys = p.k as string[];
  if (!keys.every((value, i) => isKeysetValue(state.types[i], value))) {
    throw new InvalidCursorError("Cursor is malformed");
  }
  return p as CursorPayload;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
