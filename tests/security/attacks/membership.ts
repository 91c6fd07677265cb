// deno-lint-ignore-file no-explicit-any
// Finding 5, membership without consent: a stranger adding any user id to their organization
// (which then shows in the victim's `/me`), `/me` without a bound, and the organization, member
// and invitation limits under concurrent requests. See docs/security/membership.md.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type AuthTarget, request as send, serveAuth } from "../harness.ts";

interface Client {
  token: string;
  user: { id: string; email: string };
}

let emails = 0;

async function request(
  target: AuthTarget,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: any; bytes: number }> {
  const answer = await send(target, method, path, { token, body });
  return { status: answer.status, body: answer.body, bytes: answer.text.length };
}

async function signUp(target: AuthTarget, label: string): Promise<Client> {
  const email = `${label}-${++emails}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const result = await request(target, "POST", "/sign-up", undefined, {
    email,
    password: "correct horse battery",
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  // Verified in SQL: acceptance may require a verified email (finding 4), not the point here.
  await target.db.query(
    `UPDATE "${target.namespace}"."users" SET email_verified_at = now() WHERE id = $1`,
    [result.body.user.id],
  );
  return { token: result.body.token, user: result.body.user };
}

async function createOrganization(target: AuthTarget, owner: Client): Promise<string> {
  const result = await request(target, "POST", "/organizations", owner.token, {
    name: "Org",
    slug: `org-${crypto.randomUUID().slice(0, 12)}`,
  });
  assert.equal(result.status, 201, JSON.stringify(result.body));
  return result.body.organization.id;
}

function codes(results: { status: number; body: any }[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const { status, body } of results) {
    const key = status < 300 ? String(status) : `${status} ${body?.error?.code}`;
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}

describe("attack: membership without consent (finding 5)", () => {
  let target: AuthTarget;
  before(async () => (target = await serveAuth()));
  after(() => target.close());

  it("a stranger cannot add a user they have seen to their own organization", async () => {
    const victim = await signUp(target, "victim");
    const colleague = await signUp(target, "colleague");
    // The attacker shares an organization with the victim, so the member list shows their id.
    const shared = await createOrganization(target, colleague);
    await target.module.api.addMember({ organizationId: shared, userId: victim.user.id });
    const attacker = await signUp(target, "attacker");
    await target.module.api.addMember({ organizationId: shared, userId: attacker.user.id });
    const members = await request(
      target,
      "GET",
      `/organizations/${shared}/members`,
      attacker.token,
    );
    const seen = members.body.members.map((member: any) => member.userId);
    assert.ok(seen.includes(victim.user.id));

    const own = await createOrganization(target, attacker);
    const added = await request(target, "POST", `/organizations/${own}/members`, attacker.token, {
      userId: victim.user.id,
    });
    assert.equal(added.status, 403, JSON.stringify(added.body));
    assert.equal(added.body.error.code, "DIRECT_ADD_NOT_ALLOWED");
    assert.match(added.body.error.message, /invitation/i);

    const me = await request(target, "GET", "/me", victim.token);
    const ids = me.body.organizations.map((entry: any) => entry.organization.id);
    assert.deepEqual(ids, [shared]);
  });

  it("refuses before looking the user up: a made-up id gets the same 403, not 404", async () => {
    const attacker = await signUp(target, "prober");
    const own = await createOrganization(target, attacker);
    const probe = await request(target, "POST", `/organizations/${own}/members`, attacker.token, {
      userId: crypto.randomUUID(),
    });
    assert.equal(probe.status, 403);
    assert.equal(probe.body.error.code, "DIRECT_ADD_NOT_ALLOWED");
  });
});

describe("attack: /me without a bound (finding 5)", () => {
  let target: AuthTarget;
  // A deployment that lets owners add directly and lifts the organization limit: the worst case.
  before(async () => (target = await serveAuth({
    organizations: { canAddMember: () => true, organizationLimit: false },
  })));
  after(() => target.close());

  // About 200 requests: beyond bun's default 5 s on a slow machine.
  it("lists at most 100 organizations, flags the rest and pages them through GET /organizations", {
    timeout: 60_000,
  }, async () => {
    const owner = await signUp(target, "flooder");
    const victim = await signUp(target, "flooded");
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) {
      const id = await createOrganization(target, owner);
      const added = await request(target, "POST", `/organizations/${id}/members`, owner.token, {
        userId: victim.user.id,
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      ids.push(id);
    }
    const last = ids[ids.length - 1];
    const activated = await request(target, "POST", "/organizations/active", victim.token, {
      organizationId: last,
    });
    assert.equal(activated.status, 200);

    const me = await request(target, "GET", "/me", victim.token);
    assert.equal(me.status, 200);
    assert.equal(me.body.organizations.length, 100);
    assert.equal(me.body.organizationsHasMore, true);
    assert.equal(me.body.invitationsHasMore, false);
    assert.deepEqual(
      me.body.organizations.map((entry: any) => entry.organization.id),
      ids.slice(0, 100),
    );
    // The active organization is given even when it is beyond the listed ones.
    assert.equal(me.body.activeOrganization.organization.id, last);
    assert.ok(me.bytes < 150_000, `/me is ${me.bytes} bytes`);

    const first = await request(target, "GET", "/organizations?pageSize=100", victim.token);
    const second = await request(
      target,
      "GET",
      `/organizations?pageSize=100&cursor=${encodeURIComponent(first.body.cursor)}`,
      victim.token,
    );
    const paged = [...first.body.organizations, ...second.body.organizations]
      .map((entry: any) => entry.organization.id);
    assert.deepEqual(paged, ids);
    assert.equal(second.body.hasNextPage, false);
  });
});

describe("attack: limits under concurrent requests (finding 5)", () => {
  let target: AuthTarget;
  before(async () => (target = await serveAuth({
    organizations: {
      canAddMember: () => true,
      organizationLimit: 3,
      membershipLimit: 4,
      invitationLimit: 3,
    },
  })));
  after(() => target.close());

  it("organizationLimit: 10 concurrent creations by one user end with exactly 3", async () => {
    const user = await signUp(target, "creator");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(target, "POST", "/organizations", user.token, {
          name: `Org ${i}`,
          slug: `race-${crypto.randomUUID().slice(0, 12)}`,
        })),
    );
    assert.deepEqual(codes(results), { "201": 3, "403 ORGANIZATION_LIMIT_REACHED": 7 });
    const list = await request(target, "GET", "/organizations", user.token);
    assert.equal(list.body.organizations.length, 3);
    // Deleting one frees a place: only live organizations count.
    const gone = list.body.organizations[0].organization.id;
    assert.equal(
      (await request(target, "DELETE", `/organizations/${gone}`, user.token)).status,
      204,
    );
    await createOrganization(target, user);
  });

  it("membershipLimit: 10 concurrent direct adds end with exactly the limit", async () => {
    const owner = await signUp(target, "owner");
    const id = await createOrganization(target, owner);
    const users = await Promise.all(Array.from({ length: 10 }, () => signUp(target, "joiner")));
    const results = await Promise.all(
      users.map((user) =>
        request(target, "POST", `/organizations/${id}/members`, owner.token, {
          userId: user.user.id,
        })
      ),
    );
    assert.deepEqual(codes(results), { "201": 3, "403 MEMBERSHIP_LIMIT_REACHED": 7 });
    const members = await request(target, "GET", `/organizations/${id}/members`, owner.token);
    assert.equal(members.body.members.length, 4);
  });

  it("membershipLimit: concurrent acceptances end with exactly the limit", async () => {
    const owner = await signUp(target, "inviter");
    const id = await createOrganization(target, owner);
    const users = await Promise.all(Array.from({ length: 6 }, () => signUp(target, "invitee")));
    // invitationLimit is 3: invite in two rounds, accepting nothing in between would stop at 3.
    const invitations: { id: string; token: string; user: Client }[] = [];
    for (const user of users.slice(0, 3)) {
      const result = await request(
        target,
        "POST",
        `/organizations/${id}/invitations`,
        owner.token,
        {
          email: user.user.email,
        },
      );
      assert.equal(result.status, 201, JSON.stringify(result.body));
      invitations.push({
        id: result.body.invitation.id,
        token: result.body.invitation.token,
        user,
      });
    }
    const results = await Promise.all(
      invitations.map((invitation) =>
        request(
          target,
          "PATCH",
          `/organizations/invitations/${invitation.id}`,
          invitation.user.token,
          {
            action: "accept",
            token: invitation.token,
          },
        )
      ),
    );
    assert.equal(codes(results)["200"], 3);
    // Now 4 members: the next acceptance is refused, and its invitation stays pending.
    const extra = users[3];
    const invited = await request(target, "POST", `/organizations/${id}/invitations`, owner.token, {
      email: extra.user.email,
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const refused = await request(
      target,
      "PATCH",
      `/organizations/invitations/${invited.body.invitation.id}`,
      extra.token,
      { action: "accept", token: invited.body.invitation.token },
    );
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, "MEMBERSHIP_LIMIT_REACHED");
    const pending = await request(target, "GET", "/organizations/invitations", extra.token);
    assert.equal(pending.body.invitations.length, 1);
  });

  it("membershipLimit: racing acceptances past the limit end with exactly the limit", async () => {
    const owner = await signUp(target, "racer-owner");
    const id = await createOrganization(target, owner);
    const users = await Promise.all(Array.from({ length: 3 }, () => signUp(target, "racer")));
    const invitations = [];
    for (const user of users) {
      const result = await request(
        target,
        "POST",
        `/organizations/${id}/invitations`,
        owner.token,
        {
          email: user.user.email,
        },
      );
      invitations.push({
        id: result.body.invitation.id,
        token: result.body.invitation.token,
        user,
      });
    }
    // One more member leaves room for 2 of the 3 acceptances.
    const direct = await signUp(target, "direct");
    await request(target, "POST", `/organizations/${id}/members`, owner.token, {
      userId: direct.user.id,
    });
    const results = await Promise.all(
      invitations.map((invitation) =>
        request(
          target,
          "PATCH",
          `/organizations/invitations/${invitation.id}`,
          invitation.user.token,
          {
            action: "accept",
            token: invitation.token,
          },
        )
      ),
    );
    assert.deepEqual(codes(results), { "200": 2, "403 MEMBERSHIP_LIMIT_REACHED": 1 });
    const members = await request(target, "GET", `/organizations/${id}/members`, owner.token);
    assert.equal(members.body.members.length, 4);
  });

  it("invitationLimit: 10 concurrent invitations end with exactly 3 pending; re-sending one still works", async () => {
    const owner = await signUp(target, "spammer");
    const id = await createOrganization(target, owner);
    const results = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) =>
          request(target, "POST", `/organizations/${id}/invitations`, owner.token, {
            email: `spam-${i}-${crypto.randomUUID().slice(0, 8)}@example.com`,
          }),
      ),
    );
    assert.deepEqual(codes(results), { "201": 3, "403 INVITATION_LIMIT_REACHED": 7 });
    const sent = results.find((result) => result.status === 201)!.body.invitation;
    const again = await request(target, "POST", `/organizations/${id}/invitations`, owner.token, {
      email: sent.email,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const list = await request(target, "GET", `/organizations/${id}/invitations`, owner.token);
    assert.equal(list.body.invitations.filter((i: any) => i.status === "pending").length, 3);
  });
});
