/**
 * Keyset pagination: signed, opaque cursors over a query ordered by one or more columns, with
 * page size limits; a forged or stale cursor is an {@link InvalidCursorError}, never a 5xx.
 *
 * @example One page of a table, newest first
 * ```ts
 * import { keysetPage, keysetQuery } from "@app/fragment-cli/pagination";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query("CREATE TABLE note (id int PRIMARY KEY)");
 * await db.query("INSERT INTO note SELECT generate_series(1, 25)");
 * const q = keysetQuery({
 *   listId: "notes",
 *   columns: [{ name: "id", type: "int4" }],
 *   secret: "a deployment secret of 32+ chars",
 *   direction: "desc",
 *   pageSize: "10",
 * });
 * const rows = await db.query<{ id: number }>(
 *   `SELECT id, ${q.select} FROM note WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
 *   q.params,
 * );
 * const page = keysetPage(rows, q);
 * console.log(page.items.length, page.hasNextPage); // 10 true
 * await db.close();
 * ```
 *
 * @module
 */

export {
  InvalidCursorError,
  type KeysetColumn,
  type KeysetColumnType,
  type KeysetOptions,
  keysetPage,
  type KeysetQuery,
  keysetQuery,
  type KeysetState,
  PaginationError,
} from "./cursor.ts";
export { keysetList, type KeysetListOptions } from "./keyset_list.ts";
export { namedPage, type Page, type PageCursor, type PageOf, type PageRequest } from "./page.ts";
