/**
 * Finding 1 of issue 20, "Forged cursors crash list routes": replayed over HTTP against the four
 * paged routes of the auth module. An attacker takes a cursor the server gave them, decodes it
 * (base64url JSON, then an HMAC-SHA-256 truncated to 22 characters), edits it and signs it again:
 *
 * - with the key the package used to ship (`"fragment-cli keyset cursor v1"`): any deployment
 *   that configured nothing accepted such cursors;
 * - with the deployment's own key, as if it leaked: then the values must still be checked against
 *   the column types, or a string where a `timestamptz` is reaches SQL (SQLSTATE 22007, a 500).
 *
 * Every forged, garbage, tampered or foreign cursor must answer 400 `INVALID_CURSOR`. The random
 * cases use fast-check with fixed seeds, so a failure replays.
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { authTableNames } from "../../../src/auth/tables.ts";
import { type AuthTarget, request, serveAuth } from "../harness.ts";

/** The HMAC key `src/pagination/cursor.ts` shipped (DEFAULT_SECRET) before the fix. */
const PACKAGED_KEY = "fragment-cli keyset cursor v1";
/** The deployment secret of the "leaked key" target. */
const LEAKED_KEY = "leaked deployment secret, 32+ characters long";

interface Payload {
  v: unknown;
  l: unknown;
  d: unknown;
  s: unknown;
  k: unknown;
}

function toBase64Url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The payload of a cursor the server issued. */
function decode(cursor: string): Payload {
  return JSON.parse(Buffer.from(cursor.split(".")[0], "base64url").toString("utf8"));
}

/** A cursor with `payload`, signed with `key` the way src/pagination/cursor.ts signs. */
function sign(payload: unknown, key: string): string {
  const body = toBase64Url(JSON.stringify(payload));
  const mac = createHmac("sha256", key).update(body).digest("base64url").slice(0, 22);
  return `${body}.${mac}`;
}

/** One paged route, seen by the user allowed to read it, with a cursor it issued. */
interface List {
  name: string;
  path: string;
  token: string;
  cursor: string;
}

/** The four paged routes over one world: alice's organizations, members, invitations; bob's. */
interface World {
  target: AuthTarget;
  lists: List[];
  /** Bob's own organizations list, for "another user's cursor". */
  bobOrganizations: List;
  /** Alice's second organization's members (a cursor of the same route, another organization). */
  otherMembers: List;
}

async function json(
  target: AuthTarget,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await request(target, method, path, { token, body });
  return { status: answer.status, body: answer.body ?? {} };
}

async function signUp(target: AuthTarget, label: string): Promise<{ token: string; id: string }> {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const result = await json(target, "POST", "/sign-up", undefined, {
    email,
    password: "correct horse battery staple",
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  const user = result.body.user as { id: string };
  // Verified, so the invitations addressed to this user are theirs to list whatever the
  // verification policy of the module.
  await target.db.query(
    `UPDATE ${authTableNames(target.namespace).users} SET email_verified_at = now() WHERE id = $1`,
    [user.id],
  );
  return { token: result.body.token as string, id: user.id };
}

async function createOrganization(target: AuthTarget, token: string): Promise<string> {
  const slug = `cursor-${crypto.randomUUID().slice(0, 12)}`;
  const result = await json(target, "POST", "/organizations", token, { name: "Cursors", slug });
  assert.equal(result.status, 201, JSON.stringify(result.body));
  return (result.body.organization as { id: string }).id;
}

/** A cursor the route issues on its first page of one row (so a second page exists). */
async function issuedCursor(target: AuthTarget, path: string, token: string): Promise<string> {
  const result = await json(target, "GET", `${path}?pageSize=1`, token);
  assert.equal(result.status, 200, `${path}: ${JSON.stringify(result.body)}`);
  assert.equal(typeof result.body.cursor, "string", `${path} issued no cursor`);
  return result.body.cursor as string;
}

/**
 * Alice owns two organizations; bob is a member of the first, and holds pending invitations to
 * both. Rows are added in SQL where the route under test is not the point (membership and
 * invitation policies belong to other findings).
 */
async function buildWorld(target: AuthTarget): Promise<World> {
  const tables = authTableNames(target.namespace);
  const alice = await signUp(target, "alice");
  const bob = await signUp(target, "bob");
  const first = await createOrganization(target, alice.token);
  const second = await createOrganization(target, alice.token);
  await createOrganization(target, bob.token);
  await createOrganization(target, bob.token);
  const [{ email }] = await target.db.query<{ email: string }>(
    `SELECT email FROM ${tables.users} WHERE id = $1`,
    [bob.id],
  );
  for (const organization of [first, second]) {
    await target.db.query(
      `INSERT INTO ${tables.members} (organization_id, user_id, roles) VALUES ($1, $2, '["member"]')`,
      [organization, bob.id],
    );
    await target.db.query(
      `INSERT INTO ${tables.invitations}
         (organization_id, email, roles, status, token_hash, inviter_id, expires_at)
       VALUES ($1, $2, '["member"]', 'pending', $3, $4, now() + interval '7 days'),
              ($1, $5, '["member"]', 'pending', $6, $4, now() + interval '7 days')`,
      [
        organization,
        email,
        crypto.randomUUID().replaceAll("-", ""),
        alice.id,
        `someone-${crypto.randomUUID().slice(0, 8)}@example.com`,
        crypto.randomUUID().replaceAll("-", ""),
      ],
    );
  }
  const list = async (name: string, path: string, token: string): Promise<List> => ({
    name,
    path,
    token,
    cursor: await issuedCursor(target, path, token),
  });
  return {
    target,
    lists: [
      await list("GET /organizations", "/organizations", alice.token),
      await list("GET /organizations/:id/members", `/organizations/${first}/members`, alice.token),
      await list(
        "GET /organizations/:id/invitations",
        `/organizations/${first}/invitations`,
        alice.token,
      ),
      await list("GET /organizations/invitations", "/organizations/invitations", bob.token),
    ],
    bobOrganizations: await list("bob's GET /organizations", "/organizations", bob.token),
    otherMembers: await list(
      "members of another organization",
      `/organizations/${second}/members`,
      alice.token,
    ),
  };
}

/** GET `list` with `cursor`; the status and error code. */
async function page(
  world: World,
  list: List,
  cursor: string,
): Promise<{ status: number; code: unknown }> {
  const query = new URLSearchParams({ cursor });
  const result = await json(world.target, "GET", `${list.path}?${query}`, list.token);
  return { status: result.status, code: (result.body.error as { code?: unknown })?.code };
}

async function assertInvalidCursor(world: World, list: List, cursor: string, what: string) {
  const result = await page(world, list, cursor);
  assert.deepEqual(
    result,
    { status: 400, code: "INVALID_CURSOR" },
    `${list.name}, ${what}: ${JSON.stringify(result)}`,
  );
}

const UUID = "0190c1d2-8f3e-7a4b-9c5d-6e7f8a9b0c1d";
const TIMESTAMP = "2024-01-01 00:00:00.123456+00";

/** Sort keys that are not a (`timestamptz`, `uuid`) pair PostgreSQL accepts. */
const TYPE_CONFUSED_KEYS: [string, unknown][] = [
  ["a word where the timestamptz is", ["yesterday at noon", UUID]],
  ["a word where the uuid is", [TIMESTAMP, "not-a-uuid"]],
  ["the two values swapped", [UUID, TIMESTAMP]],
  ["month 13", ["2024-13-01 00:00:00+00", UUID]],
  ["February 30", ["2024-02-30 00:00:00+00", UUID]],
  ["an offset of 99 hours", ["2024-01-01 00:00:00+99", UUID]],
  ["year 300000", ["300000-01-01 00:00:00+00", UUID]],
  ["a uuid one digit short", [TIMESTAMP, UUID.slice(1)]],
  ["numbers", [1700000000, 42]],
  ["nulls", [null, null]],
  ["booleans", [true, false]],
  ["arrays and objects", [[TIMESTAMP], { id: UUID }]],
  ["a 3,000-character string", ["9".repeat(3000), UUID]],
  ["a NUL byte", [`${TIMESTAMP}\u0000`, UUID]],
  ["NUL bytes only", ["\u0000", "\u0000"]],
  ["a lone surrogate", ["\ud800", UUID]],
  ["one value", [TIMESTAMP]],
  ["three values", [TIMESTAMP, UUID, UUID]],
  ["no value", []],
  ["a string instead of the list", `${TIMESTAMP},${UUID}`],
  ["no key at all", undefined],
];

/** Edits of the rest of the payload. */
const BAD_ENVELOPES: [string, (p: Payload) => Payload][] = [
  ["version 2", (p) => ({ ...p, v: 2 })],
  ["direction sideways", (p) => ({ ...p, d: "sideways" })],
  ["page size as text", (p) => ({ ...p, s: "20" })],
  ["page size 1e300", (p) => ({ ...p, s: 1e300 })],
  ["another list fingerprint", (p) => ({ ...p, l: "AAAAAAAAAAAAAAAA" })],
];

/** Cursors nobody signed. */
const GARBAGE = [
  "garbage",
  "a.b",
  "%%%.***",
  "..",
  ".",
  "e30.",
  `${toBase64Url("{}")}.${"A".repeat(22)}`,
  `${toBase64Url("not json")}.${"A".repeat(22)}`,
  `${toBase64Url("[1,2,3]")}.${"A".repeat(22)}`,
  `${"A".repeat(5000)}.${"B".repeat(22)}`,
  "x".repeat(10_000),
  "\u0000",
  "cursor\u0000.mac",
  "🙂.🙂",
];

describe("attack: cursors minted with the key the package shipped (finding 1)", () => {
  let world: World;
  before(async () => {
    // The default configuration: no `secret` option (and no FRAGMENT_SECRET in the test env).
    world = await buildWorld(await serveAuth({ secret: undefined }));
  });
  after(() => world?.target.close());

  it("the routes' own cursors work (the control)", async () => {
    for (const list of world.lists) {
      const result = await page(world, list, list.cursor);
      assert.equal(result.status, 200, `${list.name}: ${JSON.stringify(result)}`);
    }
  });

  it("a well-typed cursor re-signed with the packaged key is refused: 400 INVALID_CURSOR", async () => {
    for (const list of world.lists) {
      const payload = decode(list.cursor);
      const k = payload.k as string[];
      for (const keys of [k, ["-infinity", "00000000-0000-0000-0000-000000000000"]]) {
        await assertInvalidCursor(
          world,
          list,
          sign({ ...payload, k: keys }, PACKAGED_KEY),
          "forged",
        );
      }
    }
  });

  it("type-confused values signed with the packaged key: 400, never 5xx", async () => {
    for (const list of world.lists) {
      const payload = decode(list.cursor);
      for (const [what, k] of TYPE_CONFUSED_KEYS) {
        await assertInvalidCursor(world, list, sign({ ...payload, k }, PACKAGED_KEY), what);
      }
    }
  });
});

describe("attack: cursors signed with a leaked deployment secret (finding 1)", () => {
  let world: World;
  before(async () => {
    world = await buildWorld(await serveAuth({ secret: LEAKED_KEY }));
  });
  after(() => world?.target.close());

  it("the deployment secret is the key: a re-signed well-typed cursor pages (the control)", async () => {
    for (const list of world.lists) {
      const resigned = sign(decode(list.cursor), LEAKED_KEY);
      const result = await page(world, list, resigned);
      assert.equal(result.status, 200, `${list.name}: ${JSON.stringify(result)}`);
    }
  });

  it("values that are not of the columns' types: 400 INVALID_CURSOR before any query", async () => {
    for (const list of world.lists) {
      const payload = decode(list.cursor);
      for (const [what, k] of TYPE_CONFUSED_KEYS) {
        await assertInvalidCursor(world, list, sign({ ...payload, k }, LEAKED_KEY), what);
      }
      for (const [what, edit] of BAD_ENVELOPES) {
        await assertInvalidCursor(world, list, sign(edit(payload), LEAKED_KEY), what);
      }
    }
  });

  it("garbage, tampered and base64 junk cursors: 400 INVALID_CURSOR", async () => {
    for (const list of world.lists) {
      for (const cursor of GARBAGE) await assertInvalidCursor(world, list, cursor, "garbage");
      const [body, mac] = list.cursor.split(".");
      const flip = (text: string, at: number) =>
        text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
      for (
        const [what, cursor] of [
          ["a body character changed", `${flip(body, 10)}.${mac}`],
          ["a MAC character changed", `${body}.${flip(mac, 3)}`],
          ["the MAC cut short", `${body}.${mac.slice(0, 21)}`],
          ["a third part", `${list.cursor}.${mac}`],
          ["the body alone", body],
          ["signed with another key", sign(decode(list.cursor), PACKAGED_KEY)],
        ]
      ) {
        await assertInvalidCursor(world, list, cursor, what);
      }
    }
  });

  it("a cursor of another list, of another user, of another organization: 400", async () => {
    const [organizations, members, invitations, pending] = world.lists;
    for (const list of world.lists) {
      for (const other of world.lists) {
        if (other !== list) await assertInvalidCursor(world, list, other.cursor, other.name);
      }
    }
    await assertInvalidCursor(world, organizations, world.bobOrganizations.cursor, "bob's list");
    await assertInvalidCursor(world, members, world.otherMembers.cursor, "another organization");
    await assertInvalidCursor(world, invitations, members.cursor, "the members' cursor");
    await assertInvalidCursor(world, pending, invitations.cursor, "the organization's list");
  });

  it("seeded random sort keys, signed with the key: 200 or 400 INVALID_CURSOR, never 5xx", async () => {
    const value = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.uuid(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace("T", " ")),
      fc.constantFrom("infinity", "-infinity", "2024-02-29 23:59:59.999999-15:59", "\u0000", ""),
      fc.integer(),
      fc.double(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(world.lists.length - 1),
        fc.array(value, { maxLength: 3 }),
        async (index, k) => {
          const list = world.lists[index];
          const cursor = sign({ ...decode(list.cursor), k }, LEAKED_KEY);
          const result = await page(world, list, cursor);
          const ok = result.status === 200 ||
            (result.status === 400 && result.code === "INVALID_CURSOR");
          assert.ok(ok, `${list.name} k=${JSON.stringify(k)}: ${JSON.stringify(result)}`);
        },
      ),
      { seed: 20_0001, numRuns: 200 },
    );
  });

  it("seeded random mutations of real cursors: 400 INVALID_CURSOR (or 200 if unchanged)", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/%\u0000é";
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom("replace", "insert", "delete"),
      char: fc.constantFrom(...alphabet),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(world.lists.length - 1),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        async (index, edits) => {
          const list = world.lists[index];
          let cursor = list.cursor;
          for (const { at, kind, char } of edits) {
            const i = at % (cursor.length + 1);
            cursor = kind === "insert"
              ? cursor.slice(0, i) + char + cursor.slice(i)
              : cursor.slice(0, i) + (kind === "replace" ? char : "") + cursor.slice(i + 1);
          }
          if (cursor === list.cursor || cursor === "") return;
          const result = await page(world, list, cursor);
          assert.deepEqual(
            result,
            { status: 400, code: "INVALID_CURSOR" },
            `${list.name} ${JSON.stringify(cursor)}: ${JSON.stringify(result)}`,
          );
        },
      ),
      { seed: 20_0002, numRuns: 200 },
    );
  });
});
