/**
 * `keysetList`: one page of a keyset-paged query in one call, the sequence every paging store
 * would otherwise repeat (build the keyset clauses, run the statement, cut the page, convert the
 * rows).
 *
 * @module
 */

import type { SqlQuerier } from "../sql/mod.ts";
import { type KeysetOptions, keysetPage, keysetQuery } from "./cursor.ts";
import type { Page } from "./page.ts";

/** What {@link keysetList} selects, from where, and how it turns a row into an item. */
export interface KeysetListOptions<Row, Item> extends Omit<KeysetOptions, "firstParam"> {
  /** The select list of an item's columns (the cursor columns are added). */
  select: string;
  /** The `FROM` clause (tables and joins), e.g. `"app.members m"`. */
  from: string;
  /** Conditions ANDed with the cursor's, written with `$1`, `$2`, … of `params`. */
  where?: readonly string[];
  /** The values of the conditions' placeholders. */
  params?: readonly unknown[];
  /** Turns a row (without its cursor columns) into an item. */
  map: (row: Row) => Item;
}

/**
 * Runs `SELECT <select> FROM <from> WHERE <where> AND <after the cursor> ORDER BY <keys> LIMIT
 * <pageSize + 1>` and answers the page. A bad `pageSize` or `cursor` throws `PaginationError`.
 *
 * @param db Where to query.
 * @param options The keyset (list id, columns, secret, page size, cursor) and the statement.
 * @returns One page of items.
 *
 * @example
 * ```ts
 * import { keysetList } from "@app/fragment-cli/pagination";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query("CREATE TABLE note (id int4 PRIMARY KEY, owner text, body text)");
 * await db.query("INSERT INTO note VALUES (1, 'ada', 'a'), (2, 'ada', 'b'), (3, 'bob', 'c')");
 * const page = await keysetList(db, {
 *   listId: "notes:ada",
 *   columns: [{ name: "id", type: "int4" }],
 *   secret: "a deployment secret",
 *   pageSize: 1,
 *   select: "n.body",
 *   from: "note n",
 *   table: "n",
 *   where: ["n.owner = $1"],
 *   params: ["ada"],
 *   map: (row: { body: string }) => row.body,
 * });
 * console.log(page.items, page.hasNextPage); // ["a"] true
 * await db.close();
 * ```
 */
export async function keysetList<Row extends object, Item>(
  db: SqlQuerier,
  options: KeysetListOptions<Row, Item>,
): Promise<Page<Item>> {
  const { select, from, where = [], params = [], map, ...keyset } = options;
  const q = keysetQuery({ ...keyset, firstParam: params.length + 1 });
  const rows = await db.query<Row>(
    `SELECT ${select}, ${q.select} FROM ${from}
     WHERE ${[...where, q.where].join(" AND ")}
     ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
    [...params, ...q.params],
  );
  const page = keysetPage(rows, q);
  return {
    items: page.items.map((row) => map(row)),
    cursor: page.cursor,
    hasNextPage: page.hasNextPage,
  };
}
