// Keyset pagination of a list (docs/adapters.md). A program that checks what it shows, on an
// in-memory PGlite or, when DATABASE_URL is set, on that (empty) PostgreSQL database:
// `deno run -A docs/examples/adapters_pagination.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import { pgliteAdapter, postgresAdapter, type SqlAdapter } from "@app/fragment-cli";
import { keysetPage, keysetQuery, type Page } from "@app/fragment-cli/pagination";

interface Member {
  id: string;
  email: string;
  joined_at: Date;
}

// GET /organizations/:org/members?pageSize=&cursor=
async function listMembers(
  db: SqlAdapter,
  organizationId: string,
  searchParams: URLSearchParams,
  secret: string,
): Promise<Page<Member>> {
  const q = keysetQuery({
    listId: `members:${organizationId}`, // a cursor of another list is rejected
    // Typed: a cursor value that is not a timestamptz / uuid is refused before any query.
    columns: [{ name: "joined_at", type: "timestamptz" }, { name: "id", type: "text" }],
    secret, // the deployment's key (FRAGMENT_SECRET): nobody else can mint a cursor
    direction: "desc", // newest first
    pageSize: searchParams.get("pageSize"), // default 20, clamped to 100
    cursor: searchParams.get("cursor"), // InvalidCursorError (400) when not ours
    firstParam: 2, // $1 is the organization id
  });
  const rows = await db.query<Member>(
    `SELECT id, email, joined_at, ${q.select} FROM member
     WHERE organization_id = $1 AND ${q.where}
     ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
    [organizationId, ...q.params],
  );
  return keysetPage(rows, q); // { items, cursor, hasNextPage }
}

const url = process.env.DATABASE_URL;
const db = url ? postgresAdapter(url) : pgliteAdapter();
const SECRET = "a deployment secret of 32+ chars";
await db.query(
  `CREATE TABLE member (id text PRIMARY KEY, organization_id text NOT NULL, email text NOT NULL,
   joined_at timestamptz NOT NULL)`,
);
// 25 members who joined on the same day: the id breaks the tie.
await db.query(
  `INSERT INTO member SELECT 'm' || g, 'org', 'm' || g || '@example.com', TIMESTAMPTZ '2024-01-01'
   FROM generate_series(1, 25) g`,
);

const first = await listMembers(db, "org", new URLSearchParams(), SECRET);
assert.equal(first.items.length, 20);
assert.equal(first.hasNextPage, true);
const second = await listMembers(db, "org", new URLSearchParams({ cursor: first.cursor! }), SECRET);
assert.equal(second.items.length, 5);
assert.equal(second.hasNextPage, false);
// Every member once, none twice.
const ids = [...first.items, ...second.items].map((member) => member.id);
assert.equal(new Set(ids).size, 25);
// A cursor of one organization's list is refused for another's: a 400, not someone else's page.
await assert.rejects(
  listMembers(db, "other-org", new URLSearchParams({ cursor: first.cursor! }), SECRET),
  { name: "InvalidCursorError", status: 400 },
);

await db.query("DROP TABLE member");
await db.close();
