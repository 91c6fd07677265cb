/**
 * The page types every list of the project answers with: a page names its items after what they
 * are (`{ members: […], cursor, hasNextPage }`, `{ updates: […], … }`; the keyset helpers' own
 * `Page<T>` calls them `items`), and every list takes the same page request.
 *
 * @module
 */

/**
 * The paging fields of every page: the next page's `cursor` (`null` on the last) and
 * `hasNextPage`.
 *
 * @example
 * ```ts
 * import type { PageCursor } from "@app/fragment-cli/pagination";
 *
 * const last: PageCursor = { cursor: null, hasNextPage: false };
 * ```
 */
export interface PageCursor {
  /** The cursor of the next page (pass it as `cursor`), `null` on the last page. */
  cursor: string | null;
  /** Whether another page follows. */
  hasNextPage: boolean;
}

/**
 * One page of a list, its items under `Name`: `PageOf<"members", Member>` is
 * `{ members: Member[], cursor, hasNextPage }`.
 *
 * @example Read every page
 * ```ts
 * import type { PageOf, PageRequest } from "@app/fragment-cli/pagination";
 *
 * async function all<T>(list: (page: PageRequest) => Promise<PageOf<"items", T>>): Promise<T[]> {
 *   const items: T[] = [];
 *   let page = await list({ pageSize: 100 });
 *   items.push(...page.items);
 *   while (page.hasNextPage && page.cursor) {
 *     page = await list({ pageSize: 100, cursor: page.cursor });
 *     items.push(...page.items);
 *   }
 *   return items;
 * }
 * ```
 */
export type PageOf<Name extends string, T> = { [K in Name]: T[] } & PageCursor;

/**
 * One page of results of the keyset helpers (`keysetPage`, `keysetList`): {@link PageOf} with
 * its items under `items`.
 *
 * @example A page's fields
 * ```ts
 * import { keysetPage, keysetQuery, type Page } from "@app/fragment-cli/pagination";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query("CREATE TABLE note (id int4 PRIMARY KEY, body text)");
 * await db.query("INSERT INTO note VALUES (1, 'a'), (2, 'b')");
 * const q = keysetQuery({ listId: "notes", columns: [{ name: "id", type: "int4" }], secret: "a deployment secret" });
 * const rows = await db.query<{ id: number; body: string }>(
 *   `SELECT id, body, ${q.select} FROM note WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
 *   q.params,
 * );
 * const page: Page<{ id: number; body: string }> = keysetPage(rows, q);
 * console.log(page.items, page.hasNextPage, page.cursor); // [{ id: 1, body: "a" }, …] false null
 * await db.close();
 * ```
 */
export type Page<T> = PageOf<"items", T>;

/**
 * What a list call asks for: `pageSize` (1–100, default 20; a query-string value is accepted)
 * and the `cursor` of the previous page's answer.
 *
 * @example
 * ```ts
 * import type { PageRequest } from "@app/fragment-cli/pagination";
 *
 * const next: PageRequest = { pageSize: 50, cursor: "eyJ2Ijox…" };
 * ```
 */
export interface PageRequest {
  /** Items per page, 1–100 (larger values are clamped). @default 20 */
  pageSize?: number | string;
  /** The `cursor` of the previous page's answer. */
  cursor?: string;
}

/**
 * A {@link Page} with its items renamed: `namedPage("members", page)` is
 * `{ members: page.items, cursor, hasNextPage }`.
 *
 * @param name The items' name in the answer.
 * @param page The page.
 * @returns The same page under that name.
 *
 * @example
 * ```ts
 * import { namedPage } from "@app/fragment-cli/pagination";
 *
 * const page = namedPage("members", { items: [{ id: "m1" }], cursor: null, hasNextPage: false });
 * console.log(page.members.length); // 1
 * ```
 */
export function namedPage<Name extends string, T>(name: Name, page: Page<T>): PageOf<Name, T> {
  return { [name]: page.items, cursor: page.cursor, hasNextPage: page.hasNextPage } as PageOf<
    Name,
    T
  >;
}
