import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { forEachAdapter } from "../helpers/databases.ts";
import {
  InvalidCursorError,
  type KeysetColumn,
  type KeysetOptions,
  keysetPage,
  type KeysetQuery,
  keysetQuery,
  PaginationError,
  parsePageSize,
} from "../../src/pagination/cursor.ts";
import type { SqlAdapter } from "../../src/sql/adapter.ts";
import { isKeysetValue } from "../../src/pagination/cursor_values.ts";

const ROWS = 257;
/** The deployment secret of these lists. */
const SECRET = "the deployment's secret, 32+ chars";
const ITEM_COLUMNS: readonly KeysetColumn[] = [
  { name: "rank", type: "int4" },
  { name: "at", type: "timestamptz" },
  { name: "id", type: "text" },
];

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
    columns: ITEM_COLUMNS,
    table: "i",
    secret: SECRET,
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

    it("every value the type check lets through is one the database takes", async () => {
      const db = getAdapter();
      const accepted: [string, string][] = [
        ["timestamptz", "2024-02-29 23:59:59.999999+05:30"],
        ["timestamptz", "0001-01-01 00:00:00-03:00:00 BC"],
        ["timestamptz", "4712-01-01 00:00:00-15:59:59 BC"],
        ["timestamptz", "294275-12-31 23:59:59.999999-15:59:59"],
        ["timestamptz", "-infinity"],
        ["uuid", "0190C1D2-8F3E-7A4B-9C5D-6E7F8A9B0C1D"],
        ["int4", "-2147483648"],
        ["int8", "-9223372036854775808"],
        ["text", "any text 🙂"],
      ];
      for (const [type, value] of accepted) {
        assert.ok(isKeysetValue(type as KeysetColumn["type"], value), value);
        const [row] = await db.query<{ v: string }>(`SELECT $1::${type}::text AS v`, [value]);
        assert.equal(typeof row.v, "string", value);
      }
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
  const list = {
    listId: "members:org-1",
    columns: [
      { name: "created_at", type: "timestamptz" },
      { name: "id", type: "uuid" },
    ] as KeysetColumn[],
    secret: SECRET,
  };
  const U1 = "0190c1d2-8f3e-7a4b-9c5d-6e7f8a9b0c1d";
  const issued = keysetPage(
    [{ id: 1, __cursor_0: "2024-01-01 00:00:00+00", __cursor_1: U1 }, { id: 2 }],
    keysetQuery({ ...list, pageSize: 1 }),
  ).cursor!;

  it("accepts its own cursor and builds quoted, parameterized fragments", () => {
    const q = keysetQuery({ ...list, cursor: issued, firstParam: 3 });
    assert.equal(q.where, `("created_at", "id") > ($3::timestamptz, $4::uuid)`);
    assert.equal(q.orderBy, `"created_at" ASC, "id" ASC`);
    assert.deepEqual(q.params, ["2024-01-01 00:00:00+00", U1]);
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
      () => keysetQuery({ ...list, cursor: issued, secret: "another deployment's secret" }),
      InvalidCursorError,
    );
  });

  it("has no default key: a secret is required to issue and to verify", () => {
    const { secret: _, ...unsigned } = list;
    for (const secret of [undefined, "", "short"]) {
      assert.throws(
        () => keysetQuery({ ...unsigned, secret } as unknown as KeysetOptions),
        /needs a secret of at least 16 characters/,
      );
      assert.throws(
        () => keysetQuery({ ...unsigned, secret, cursor: issued } as unknown as KeysetOptions),
        TypeError,
      );
    }
    // The key the package shipped before: a cursor signed with it is not ours.
    const packaged = keysetPage(
      [{ __cursor_0: "2024-01-01 00:00:00+00", __cursor_1: U1 }, {}],
      keysetQuery({ ...list, pageSize: 1, secret: "fragment-cli keyset cursor v1" }),
    ).cursor!;
    assert.throws(() => keysetQuery({ ...list, cursor: packaged }), /altered or was not issued/);
  });

  it("needs a type per column", () => {
    assert.throws(
      () =>
        keysetQuery({
          ...list,
          columns: [{ name: "created_at" }] as unknown as KeysetColumn[],
        }),
      /column "created_at" needs a type/,
    );
  });

  it("refuses, signed with the right key, values that are not of the columns' types", () => {
    const sign = (key: string[]): string =>
      keysetPage(
        [{ __cursor_0: key[0], __cursor_1: key[1] }, {}],
        keysetQuery({ ...list, pageSize: 1 }),
      ).cursor!;
    const good = [
      ["2024-01-01 00:00:00+00", U1],
      ["2024-02-29 23:59:59.999999+05:30", U1.toUpperCase()],
      ["0001-01-01 00:00:00-03:00:00 BC", U1],
      ["-infinity", U1],
      ["infinity", U1],
    ];
    for (const key of good) {
      assert.deepEqual(keysetQuery({ ...list, cursor: sign(key) }).params, key);
    }
    const bad = [
      ["yesterday", U1],
      ["2024-13-01 00:00:00+00", U1],
      ["2023-02-29 00:00:00+00", U1],
      ["2024-01-01 24:00:00+00", U1],
      ["2024-01-01 00:00:00+16", U1],
      ["2024-01-01 00:00:00", U1],
      ["2024-01-01 00:00:00.1234567+00", U1],
      ["300000-01-01 00:00:00+00", U1],
      ["5000-01-01 00:00:00+00 BC", U1],
      ["2024-01-01 00:00:00+00\u0000", U1],
      ["2024-01-01 00:00:00+00", "u1"],
      ["2024-01-01 00:00:00+00", `${U1}0`],
      ["2024-01-01 00:00:00+00", ` ${U1}`],
    ];
    for (const key of bad) {
      assert.throws(
        () => keysetQuery({ ...list, cursor: sign(key) }),
        (error) => error instanceof InvalidCursorError && error.code === "INVALID_CURSOR",
        JSON.stringify(key),
      );
    }
  });

  it("checks int4, int8 and text values", () => {
    const cases: [KeysetColumn["type"], string[], string[]][] = [
      ["int4", ["0", "-2147483648", "2147483647"], ["2147483648", "1.5", "1e3", " 1", "", "--1"]],
      [
        "int8",
        ["9223372036854775807", "-9223372036854775808"],
        ["9223372036854775808", "12345678901234567890", "0x10"],
      ],
      ["text", ["", "any text 🙂", "é"], ["nul \u0000 byte", "lone \ud800 surrogate"]],
    ];
    for (const [type, good, bad] of cases) {
      const typed = { ...list, listId: `typed:${type}`, columns: [{ name: "v", type }] };
      const sign = (value: string): string =>
        keysetPage([{ __cursor_0: value }, {}], keysetQuery({ ...typed, pageSize: 1 })).cursor!;
      for (const value of good) {
        assert.deepEqual(keysetQuery({ ...typed, cursor: sign(value) }).params, [value], value);
      }
      for (const value of bad) {
        assert.throws(
          () => keysetQuery({ ...typed, cursor: sign(value) }),
          InvalidCursorError,
          value,
        );
      }
    }
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
