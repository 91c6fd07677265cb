// Keyset pagination of a list. Run by tests/db/adapters_docs_examples.test.ts.
import { keysetPage, keysetQuery, type Page, type SqlAdapter } from "../../src/db/mod.ts";

export interface Member {
  id: string;
  email: string;
  joined_at: Date;
}

// GET /organizations/:org/members?pageSize=&cursor=
export async function listMembers(
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
