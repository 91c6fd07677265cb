import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { forEachAdapter } from "../helpers/databases.ts";
import {
  InvalidCursorError,
  keysetPage,
  type KeysetQuery,
  keysetQuery,
  PaginationError,
  parsePageSize,
} from "../../src/db/cursor.ts";
import type { SqlAdapter } from "../../src/db/adapter.ts";

const ROWS = 257;

interface Item {
  id: string;
  rank: number;
  at: Date;
}

async function fetchPage(
  db: SqlAdapter,
  options: { direction?: "asc" | "desc"; pageSize?: number | string; cursor?: string | null },
): Promise<{ q: KeysetQuery; page: ReturnType<typeof keysetPage<Item>> }> {
  const q = keysetQuery({
    listId: "items:group-a",
    columns: ["rank", "at", "id"],
    table: "i",
    firstParam: 2,
    ...options,
  });
  const rows = await db.query<Item>(
    `SELECT i.id, i.rank, i.at, ${q.select} FROM "cursor items" AS i
     WHERE i.grp = $1 AND ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
    ["a", ...q.params],
  );
  return { q, page: keysetPage(rows, q) };
}

forEachAdapter((name, getAdapter) => {
  describe(`${name}: keyset pagination on a real database`, () => {
    before(async () => {
      const db = getAdapter();
      await db.query(
        `CREATE TABLE "cursor items" (id text PRIMARY KEY, grp text NOT NULL, rank int4 NOT NULL,
         at timestamptz NOT NULL)`,
      );
      // Many equal sort values: 3 ranks × 2 timestamps (with microseconds) for 257 rows.
      await db.query(
        `INSERT INTO "cursor items"
         SELECT 'item-' || lpad(g::text, 4, '0'), CASE WHEN g % 10 = 0 THEN 'b' ELSE 'a' END, g % 3,
                TIMESTAMPTZ '2024-01-01 00:00:00.123456+00' + (g % 2) * INTERVAL '1 microsecond'
         FROM generate_series(1, $1::int4) AS g`,
        [ROWS],
      );
    });

    for (const direction of ["asc", "desc"] as const) {
      it(`walks every row exactly once, in order (${direction})`, async () => {
        const db = getAdapter();
        const expected = (await db.query<{ id: string }>(
          `SELECT id FROM "cursor items" WHERE grp = 'a'
           ORDER BY rank ${direction}, at ${direction}, id ${direction}`,
        )).map((r) => r.id);
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const { page }: Awaited<ReturnType<typeof fetchPage>> = await fetchPage(db, {
            direction,
            pageSize: 7,
            cursor,
          });
          assert.ok(page.items.length <= 7);
          for (const item of page.items) {
            assert.deepEqual(Object.keys(item).sort(), ["at", "id", "rank"]);
            seen.push(item.id);
          }
          assert.equal(page.hasNextPage, page.cursor !== null);
          cursor = page.cursor;
          pages++;
        } while (cursor !== null && pages < 100);
        assert.equal(new Set(seen).size, seen.length, "no row repeated");
        assert.deepEqual(seen, expected, "no row skipped, order kept");
        assert.equal(pages, Math.ceil(expected.length / 7));
      });
    }

    it("defaults to 20 rows and clamps larger requests to 100", async () => {
      const db = getAdapter();
      const first = await fetchPage(db, {});
      assert.equal(first.page.items.length, 20);
      assert.equal(first.page.hasNextPage, true);
      const big = await fetchPage(db, { pageSize: "1000" });
      assert.equal(big.q.limit, 101);
      assert.equal(big.page.items.length, 100);
      // The next page keeps the page size the cursor was issued with.
      const second = await fetchPage(db, { cursor: big.page.cursor });
      assert.equal(second.page.items.length, 100);
    });

    it("a cursor claiming a page size above the maximum is clamped", async () => {
      const db = getAdapter();
      const { q, page } = await fetchPage(db, { pageSize: 1 });
      const forgedQuery: KeysetQuery = { ...q, pageSize: 1000 };
      const lastItem = {
        id: "x",
        __cursor_0: "0",
        __cursor_1: "2024-01-01 00:00:00+00",
        __cursor_2: "a",
      };
      const minted = keysetPage(Array.from({ length: 1001 }, () => lastItem), forgedQuery);
      assert.ok(minted.cursor !== null && page.cursor !== null);
      const next = await fetchPage(db, { cursor: minted.cursor });
      assert.equal(next.q.pageSize, 100);
    });
  });
});

describe("keysetQuery() validates its inputs", () => {
  const list = { listId: "members:org-1", columns: ["created_at", "id"] };
  const issued = keysetPage(
    [{ id: 1, __cursor_0: "2024-01-01 00:00:00+00", __cursor_1: "u1" }, { id: 2 }],
    keysetQuery({ ...list, pageSize: 1 }),
  ).cursor!;

  it("accepts its own cursor and builds quoted, parameterized fragments", () => {
    const q = keysetQuery({ ...list, cursor: issued, firstParam: 3 });
    assert.equal(q.where, `("created_at", "id") > ($3, $4)`);
    assert.equal(q.orderBy, `"created_at" ASC, "id" ASC`);
    assert.deepEqual(q.params, ["2024-01-01 00:00:00+00", "u1"]);
    assert.equal(q.pageSize, 1);
    const desc = keysetQuery({ ...list, direction: "desc" });
    assert.equal(desc.where, "TRUE");
    assert.equal(desc.orderBy, `"created_at" DESC, "id" DESC`);
  });

  it("rejects garbage, tampered and foreign cursors with InvalidCursorError", () => {
    const [body, mac] = issued.split(".");
    const flipped = body.slice(0, 5) + (body[5] === "A" ? "B" : "A") + body.slice(6);
    const bad = [
      "garbage",
      "%%%.***",
      "a.b",
      `${flipped}.${mac}`,
      `${body}.${mac.slice(1)}`,
      `${body}.${mac}.extra`,
      "x".repeat(10_000),
    ];
    for (const cursor of bad) {
      assert.throws(() => keysetQuery({ ...list, cursor }), (error) => {
        assert.ok(error instanceof InvalidCursorError, `${cursor}: ${error}`);
        assert.ok(error instanceof PaginationError);
        assert.equal(error.status, 400);
        assert.equal(error.code, "INVALID_CURSOR");
        return true;
      });
    }
    assert.throws(
      () => keysetQuery({ ...list, listId: "members:org-2", cursor: issued }),
      /another list/,
    );
    assert.throws(
      () => keysetQuery({ ...list, direction: "desc", cursor: issued }),
      InvalidCursorError,
    );
    assert.throws(
      () => keysetQuery({ ...list, cursor: issued, secret: "other secret" }),
      InvalidCursorError,
    );
  });

  it("parsePageSize() defaults, clamps and rejects non-positive or non-integer sizes", () => {
    assert.equal(parsePageSize(undefined), 20);
    assert.equal(parsePageSize(null), 20);
    assert.equal(parsePageSize("5"), 5);
    assert.equal(parsePageSize(100), 100);
    assert.equal(parsePageSize(101), 100);
    for (const bad of ["0", "-1", "1.5", "abc", 0, 2.5, Number.NaN]) {
      assert.throws(() => parsePageSize(bad), { name: "PaginationError", status: 400 });
    }
  });
});
