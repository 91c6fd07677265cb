// The authorization matrix of the organizations API: every route × every kind of caller, with the
// expected status, generated from the one table below. Each case runs on a fresh organization
// (owner, admin, member, an extra member, a pending invitation to the non-member's email), so no
// case depends on another. Runs on PGlite and on the PostgreSQL server.
import { before, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const CALLERS = ["anonymous", "nonMember", "member", "admin", "owner", "deletedOrgMember"] as const;
type Caller = typeof CALLERS[number];

/** What one case targets: a fresh organization and the ids inside it. */
interface Fixture {
  organizationId: string;
  /** A member (roles: member) that is not the caller, to change or remove. */
  extraMemberId: string;
  /** The caller's own member id in the organization, or the extra member's when they have none. */
  ownMemberId: string;
  /** A user who is not a member, to add. */
  newcomerId: string;
  /** A pending invitation of the non-member's email. */
  invitationId: string;
  invitationToken: string;
}

interface Row {
  route: string;
  request: (f: Fixture) => { method: string; path: string; body?: unknown };
  expected: Record<Caller, number>;
}

function statuses(...list: number[]): Record<Caller, number> {
  return Object.fromEntries(CALLERS.map((caller, i) => [caller, list[i]])) as Record<
    Caller,
    number
  >;
}

// anonymous, nonMember, member, admin, owner, deletedOrgMember
const MATRIX: Row[] = [
  {
    route: "POST /organizations",
    request: () => ({
      method: "POST",
      path: "/organizations",
      body: { name: "New", slug: `new-${crypto.randomUUID().slice(0, 8)}` },
    }),
    expected: statuses(401, 201, 201, 201, 201, 201),
  },
  {
    route: "GET /organizations",
    request: () => ({ method: "GET", path: "/organizations" }),
    expected: statuses(401, 200, 200, 200, 200, 200),
  },
  {
    route: "GET /organizations/:organizationId",
    request: (f) => ({ method: "GET", path: `/organizations/${f.organizationId}` }),
    expected: statuses(401, 404, 200, 200, 200, 404),
  },
  {
    route: "PATCH /organizations/:organizationId",
    request: (f) => ({
      method: "PATCH",
      path: `/organizations/${f.organizationId}`,
      body: { name: "Renamed" },
    }),
    expected: statuses(401, 404, 403, 200, 200, 404),
  },
  {
    route: "DELETE /organizations/:organizationId",
    request: (f) => ({ method: "DELETE", path: `/organizations/${f.organizationId}` }),
    expected: statuses(401, 404, 403, 403, 204, 404),
  },
  {
    route: "GET /organizations/active",
    request: () => ({ method: "GET", path: "/organizations/active" }),
    expected: statuses(401, 200, 200, 200, 200, 200),
  },
  {
    route: "POST /organizations/active (set)",
    request: (f) => ({
      method: "POST",
      path: "/organizations/active",
      body: { organizationId: f.organizationId },
    }),
    expected: statuses(401, 404, 200, 200, 200, 404),
  },
  {
    route: "POST /organizations/active (clear)",
    request: () => ({
      method: "POST",
      path: "/organizations/active",
      body: { organizationId: null },
    }),
    expected: statuses(401, 200, 200, 200, 200, 200),
  },
  {
    route: "GET /organizations/:organizationId/members",
    request: (f) => ({ method: "GET", path: `/organizations/${f.organizationId}/members` }),
    expected: statuses(401, 404, 200, 200, 200, 404),
  },
  {
    route: "POST /organizations/:organizationId/members",
    request: (f) => ({
      method: "POST",
      path: `/organizations/${f.organizationId}/members`,
      body: { userId: f.newcomerId },
    }),
    expected: statuses(401, 404, 403, 201, 201, 404),
  },
  {
    route: "PATCH /organizations/:organizationId/members/:memberId",
    request: (f) => ({
      method: "PATCH",
      path: `/organizations/${f.organizationId}/members/${f.extraMemberId}`,
      body: { roles: ["admin"] },
    }),
    expected: statuses(401, 404, 403, 200, 200, 404),
  },
  {
    route: "DELETE /organizations/:organizationId/members/:memberId (another member)",
    request: (f) => ({
      method: "DELETE",
      path: `/organizations/${f.organizationId}/members/${f.extraMemberId}`,
    }),
    expected: statuses(401, 404, 403, 204, 204, 404),
  },
  {
    // The owner is the only owner: leaving would leave the organization without one.
    route: "DELETE /organizations/:organizationId/members/:memberId (self: leave)",
    request: (f) => ({
      method: "DELETE",
      path: `/organizations/${f.organizationId}/members/${f.ownMemberId}`,
    }),
    expected: statuses(401, 404, 204, 204, 409, 404),
  },
  {
    route: "GET /organizations/:organizationId/invitations",
    request: (f) => ({ method: "GET", path: `/organizations/${f.organizationId}/invitations` }),
    expected: statuses(401, 404, 403, 200, 200, 404),
  },
  {
    route: "POST /organizations/:organizationId/invitations",
    request: (f) => ({
      method: "POST",
      path: `/organizations/${f.organizationId}/invitations`,
      body: { email: `fresh-${crypto.randomUUID().slice(0, 8)}@example.com` },
    }),
    expected: statuses(401, 404, 403, 201, 201, 404),
  },
  {
    route: "GET /organizations/invitations",
    request: () => ({ method: "GET", path: "/organizations/invitations" }),
    expected: statuses(401, 200, 200, 200, 200, 200),
  },
  {
    // The invitation is addressed to the non-member: only they may accept or reject it.
    route: "PATCH /organizations/invitations/:invitationId (accept)",
    request: (f) => ({
      method: "PATCH",
      path: `/organizations/invitations/${f.invitationId}`,
      body: { action: "accept", token: f.invitationToken },
    }),
    expected: statuses(401, 200, 403, 403, 403, 404),
  },
  {
    route: "PATCH /organizations/invitations/:invitationId (reject)",
    request: (f) => ({
      method: "PATCH",
      path: `/organizations/invitations/${f.invitationId}`,
      body: { action: "reject", token: f.invitationToken },
    }),
    expected: statuses(401, 200, 403, 403, 403, 404),
  },
  {
    // The inviter (the owner), owners and admins may cancel; the invitee may reject instead.
    route: "PATCH /organizations/invitations/:invitationId (cancel)",
    request: (f) => ({
      method: "PATCH",
      path: `/organizations/invitations/${f.invitationId}`,
      body: { action: "cancel", token: f.invitationToken },
    }),
    expected: statuses(401, 403, 403, 200, 200, 404),
  },
  {
    route: "GET /me",
    request: () => ({ method: "GET", path: "/me" }),
    expected: statuses(401, 200, 200, 200, 200, 200),
  },
];

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;
  const users = {} as Record<Exclude<Caller, "anonymous">, TestUser>;
  const unexpected2xx: string[] = [];

  before(async () => {
    module = await organizationsModule(getAdapter(), { organizations: DIRECT_ADD });
    for (const caller of CALLERS) {
      if (caller !== "anonymous") users[caller] = await newUser(module, caller);
    }
  });

  /** A fresh organization for one case; for the deleted-organization caller, deleted after. */
  async function fixture(caller: Caller): Promise<Fixture> {
    const deleted = caller === "deletedOrgMember";
    const owner = deleted ? users.deletedOrgMember : users.owner;
    const { id } = await createOrganization(module, owner);
    const ownerMember = (await call(module, "GET", `/organizations/${id}`, { token: owner.token }))
      .body.member;
    const admin = await addMember(module, owner, id, users.admin, ["admin"]);
    const member = await addMember(module, owner, id, users.member);
    const extra = await addMember(module, owner, id, await newUser(module, "extra"));
    const newcomer = await newUser(module, "newcomer");
    const invitation = await invite(module, owner, id, users.nonMember.user.email);
    if (deleted) {
      const gone = await call(module, "DELETE", `/organizations/${id}`, { token: owner.token });
      assert.equal(gone.status, 204);
    }
    const own: Record<Caller, string> = {
      anonymous: extra.id,
      nonMember: extra.id,
      member: member.id,
      admin: admin.id,
      owner: ownerMember.id,
      deletedOrgMember: ownerMember.id,
    };
    return {
      organizationId: id,
      extraMemberId: extra.id,
      ownMemberId: own[caller],
      newcomerId: newcomer.user.id,
      invitationId: invitation.id,
      invitationToken: invitation.token,
    };
  }

  for (const row of MATRIX) {
    it(`${name}: ${row.route}`, async () => {
      const mismatches: string[] = [];
      for (const caller of CALLERS) {
        const { method, path, body } = row.request(await fixture(caller));
        const token = caller === "anonymous" ? undefined : users[caller].token;
        const result = await call(module, method, path, { token, body });
        const expected = row.expected[caller];
        if (result.status !== expected) {
          mismatches.push(
            `${caller}: expected ${expected}, got ${result.status} ${JSON.stringify(result.body)}`,
          );
          if (result.status < 300 && expected >= 300) {
            unexpected2xx.push(`${row.route} as ${caller}`);
          }
        }
        if (expected >= 400) assert.equal(typeof result.body?.error?.code, "string");
        if (caller === "anonymous") {
          assert.equal(result.body.error.code, "UNAUTHENTICATED");
          assert.match(result.headers.get("www-authenticate") ?? "", /^Bearer/);
        }
      }
      assert.deepEqual(mismatches, []);
    });
  }

  it(`${name}: no caller got an unexpected 2xx`, () => {
    assert.deepEqual(unexpected2xx, []);
  });
});
