// deno-lint-ignore-file no-explicit-any
// Membership needs consent, on PGlite and PostgreSQL: the `canAddMember` policy of direct adds
// (refused by default), `module.api.addMember()` on the server, the organization, member and
// invitation limits (also under concurrent requests, which only PostgreSQL runs in parallel), and
// the bound of `GET /me` with its parts still kept and validated.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type {
  AuthModule,
  AuthOrganizationsOptions,
  CanAddMemberContext,
} from "../../src/auth/mod.ts";
import { HttpError } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, type CallResult, uniqueEmail } from "./helpers/http.ts";
import {
  createOrganization,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

function tally(results: CallResult[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const { status, body } of results) {
    const key = status < 300 ? String(status) : `${status} ${body?.error?.code}`;
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}

async function rejectsWith(promise: Promise<unknown>, status: number, code: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof HttpError, String(error));
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    return true;
  });
}

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let plain: AuthModule;

  before(async () => {
    db = getAdapter();
    plain = await organizationsModule(db);
  });

  function withOptions(organizations: AuthOrganizationsOptions): Promise<AuthModule> {
    return organizationsModule(db, { organizations });
  }

  /** Acceptance may require a verified email; these tests are about limits, so verify in SQL. */
  async function verified(module: AuthModule): Promise<TestUser> {
    const user = await newUser(module, "invitee");
    await db.query(`UPDATE auth.users SET email_verified_at = now() WHERE id = $1`, [user.user.id]);
    return user;
  }

  function addRequest(module: AuthModule, actor: TestUser, organizationId: string, userId: string) {
    return call(module, "POST", `/organizations/${organizationId}/members`, {
      token: actor.token,
      body: { userId },
    });
  }

  function accept(module: AuthModule, user: TestUser, invitation: any) {
    return call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
      token: user.token,
      body: { action: "accept", token: invitation.token },
    });
  }

  describe(`${name}: direct add needs canAddMember`, () => {
    it("refuses by default with 403 DIRECT_ADD_NOT_ALLOWED, global admins included", async () => {
      const owner = await newUser(plain, "owner");
      const { id } = await createOrganization(plain, owner);
      const user = await newUser(plain);
      const refused = await addRequest(plain, owner, id, user.user.id);
      assertError(refused, 403, "DIRECT_ADD_NOT_ALLOWED");
      assert.match(refused.body.error.message, /invit/);

      await plain.api.setUserRole(owner.user.id, "admin");
      assertError(await addRequest(plain, owner, id, user.user.id), 403, "DIRECT_ADD_NOT_ALLOWED");
      const members = await call(plain, "GET", `/organizations/${id}/members`, {
        token: owner.token,
      });
      assert.equal(members.body.members.length, 1);
    });

    it("checks the caller's own rights first: 404 for outsiders, 403 FORBIDDEN for members", async () => {
      const owner = await newUser(plain, "owner");
      const { id } = await createOrganization(plain, owner);
      const member = await newUser(plain);
      await plain.api.addMember({ organizationId: id, userId: member.user.id });
      const outsider = await newUser(plain, "outsider");
      assertError(await addRequest(plain, outsider, id, member.user.id), 404, "NOT_FOUND");
      assertError(await addRequest(plain, member, id, outsider.user.id), 403, "FORBIDDEN");
    });

    it("asks the policy with actor, organization, user and roles; only true allows", async () => {
      const asked: CanAddMemberContext[] = [];
      const answers: unknown[] = [true, false, "yes", Promise.resolve(true)];
      const module = await withOptions({
        roles: ["owner", "admin", "member", "viewer"],
        canAddMember: (context) => {
          asked.push(context);
          return answers.shift() as boolean;
        },
      });
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const users = [await newUser(module), await newUser(module), await newUser(module)];
      const added = await call(module, "POST", `/organizations/${id}/members`, {
        token: owner.token,
        body: { userId: users[0].user.id, roles: ["viewer"] },
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.deepEqual(added.body.member.roles, ["viewer"]);
      assert.deepEqual(asked[0].actor, owner.user);
      assert.deepEqual(asked[0].user, users[0].user);
      assert.equal(asked[0].organization.id, id);
      assert.deepEqual(asked[0].roles, ["viewer"]);

      assertError(
        await addRequest(module, owner, id, users[1].user.id),
        403,
        "DIRECT_ADD_NOT_ALLOWED",
      );
      assertError(
        await addRequest(module, owner, id, users[2].user.id),
        403,
        "DIRECT_ADD_NOT_ALLOWED",
      );
      // An asynchronous policy.
      assert.equal((await addRequest(module, owner, id, users[2].user.id)).status, 201);
      // Not asked about a user who does not exist, nor for a caller without the rights.
      assertError(await addRequest(module, owner, id, crypto.randomUUID()), 404, "USER_NOT_FOUND");
      assertError(await addRequest(module, users[0], id, users[1].user.id), 403, "FORBIDDEN");
      assert.equal(asked.length, 4);
    });
  });

  describe(`${name}: module.api.addMember()`, () => {
    it("adds without the policy, with default or given roles; answers errors as HttpError", async () => {
      const owner = await newUser(plain, "owner");
      const { id } = await createOrganization(plain, owner);
      const user = await newUser(plain);
      const member = await plain.api.addMember({ organizationId: id, userId: user.user.id });
      assert.deepEqual(member.roles, ["member"]);
      assert.equal(member.userId, user.user.id);
      const me = await call(plain, "GET", "/me", { token: user.token });
      assert.deepEqual(me.body.organizations.map((e: any) => e.organization.id), [id]);
      const admin = await newUser(plain);
      const added = await plain.api.addMember({
        organizationId: id,
        userId: admin.user.id,
        roles: ["admin"],
      });
      assert.deepEqual(added.roles, ["admin"]);

      await rejectsWith(
        plain.api.addMember({ organizationId: id, userId: user.user.id }),
        409,
        "ALREADY_MEMBER",
      );
      await rejectsWith(
        plain.api.addMember({ organizationId: id, userId: crypto.randomUUID() }),
        404,
        "USER_NOT_FOUND",
      );
      for (const organizationId of [crypto.randomUUID(), "not-a-uuid"]) {
        await rejectsWith(
          plain.api.addMember({ organizationId, userId: user.user.id }),
          404,
          "NOT_FOUND",
        );
      }
      await assert.rejects(
        plain.api.addMember({ organizationId: id, userId: user.user.id, roles: ["boss"] }),
        TypeError,
      );
      // A deleted account is no user to add, on the server's path too.
      const gone = await newUser(plain, "gone");
      await plain.api.deleteAccount({ userId: gone.user.id }, {
        password: "correct horse battery",
      });
      await rejectsWith(
        plain.api.addMember({ organizationId: id, userId: gone.user.id }),
        404,
        "USER_NOT_FOUND",
      );
    });
  });

  describe(`${name}: adds sent together`, () => {
    it("each is checked for its own caller, organization and user (the policy's reads are shared)", async () => {
      const asked: CanAddMemberContext[] = [];
      const module = await withOptions({
        canAddMember: (context) => {
          asked.push(context);
          return true;
        },
      });
      const [a, b, stranger] = await Promise.all(
        ["a", "b", "stranger"].map((label) => newUser(module, label)),
      );
      const orgA = await createOrganization(module, a);
      const orgB = await createOrganization(module, b);
      const users = await Promise.all(Array.from({ length: 4 }, () => newUser(module)));
      const results = await Promise.all([
        addRequest(module, a, orgA.id, users[0].user.id),
        addRequest(module, b, orgB.id, users[1].user.id),
        addRequest(module, stranger, orgA.id, users[2].user.id),
        addRequest(module, a, orgB.id, users[3].user.id),
        addRequest(module, a, orgA.id, crypto.randomUUID()),
        addRequest(module, b, orgB.id, "not-a-uuid"),
        addRequest(module, b, "not-a-uuid", users[2].user.id),
      ]);
      assert.equal(results[0].status, 201);
      assert.equal(results[1].status, 201);
      assertError(results[2], 404, "NOT_FOUND");
      assertError(results[3], 404, "NOT_FOUND");
      assertError(results[4], 404, "USER_NOT_FOUND");
      assertError(results[5], 404, "USER_NOT_FOUND");
      assertError(results[6], 404, "NOT_FOUND");
      assert.deepEqual(
        asked.map((c) => [c.actor.id, c.organization.id, c.user.id, c.user.email]).sort(),
        [
          [a.user.id, orgA.id, users[0].user.id, users[0].user.email],
          [b.user.id, orgB.id, users[1].user.id, users[1].user.email],
        ].sort(),
      );
      assert.equal(results[0].body.member.userId, users[0].user.id);
      assert.equal(results[1].body.member.organizationId, orgB.id);
    });
  });

  describe(`${name}: membershipLimit: false`, () => {
    it("adds in one statement, without a lock, with the same checks", async () => {
      const module = await withOptions({ membershipLimit: false, canAddMember: () => true });
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const users = await Promise.all(Array.from({ length: 6 }, () => newUser(module)));
      const results = await Promise.all(users.map((u) => addRequest(module, owner, id, u.user.id)));
      assert.deepEqual(tally(results), { "201": 6 });
      assertError(await addRequest(module, owner, id, users[0].user.id), 409, "ALREADY_MEMBER");
      assertError(await addRequest(module, users[0], id, owner.user.id), 403, "FORBIDDEN");
      const server = await module.api.addMember({
        organizationId: id,
        userId: (await newUser(module)).user.id,
        roles: ["owner"],
      });
      assert.deepEqual(server.roles, ["owner"]);
      await rejectsWith(
        module.api.addMember({ organizationId: crypto.randomUUID(), userId: owner.user.id }),
        404,
        "NOT_FOUND",
      );
    });
  });

  describe(`${name}: limits`, () => {
    it("organizationLimit: concurrent creations end with exactly the limit; deleted ones do not count", async () => {
      const module = await withOptions({ organizationLimit: 2, autoCreateOrganization: {} });
      // The organization made at sign-up counts as one the user created.
      const user = await newUser(module, "creator");
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(module, "POST", "/organizations", {
            token: user.token,
            body: { name: `Race ${i}`, slug: `race-${crypto.randomUUID().slice(0, 12)}` },
          })),
      );
      assert.deepEqual(tally(results), { "201": 1, "403 ORGANIZATION_LIMIT_REACHED": 7 });
      assert.match(results.find((r) => r.status === 403)!.body.error.message, /at most 2/);
      const created = results.find((r) => r.status === 201)!.body.organization.id;
      assert.equal(
        (await call(module, "DELETE", `/organizations/${created}`, {
          token: user.token,
        })).status,
        204,
      );
      await createOrganization(module, user);
      // Organizations the user joined do not count.
      const other = await newUser(module, "other");
      const { id } = await createOrganization(module, await newUser(module, "third"));
      await module.api.addMember({ organizationId: id, userId: other.user.id });
      await createOrganization(module, other);
    });

    it("membershipLimit: concurrent direct adds and acceptances end with exactly the limit", async () => {
      const module = await withOptions({ membershipLimit: 3, canAddMember: () => true });
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const users = await Promise.all(Array.from({ length: 8 }, () => newUser(module)));
      const results = await Promise.all(users.map((u) => addRequest(module, owner, id, u.user.id)));
      assert.deepEqual(tally(results), { "201": 2, "403 MEMBERSHIP_LIMIT_REACHED": 6 });
      // The server's own adds count against the limit too.
      const left = users.find((_, i) => results[i].status === 403)!;
      await rejectsWith(
        module.api.addMember({ organizationId: id, userId: left.user.id }),
        403,
        "MEMBERSHIP_LIMIT_REACHED",
      );

      const second = await createOrganization(module, owner);
      const invitees = await Promise.all(Array.from({ length: 5 }, () => verified(module)));
      const invitations: any[] = [];
      for (const invitee of invitees) {
        invitations.push(await invite(module, owner, second.id, invitee.user.email));
      }
      const accepted = await Promise.all(invitees.map((u, i) => accept(module, u, invitations[i])));
      assert.deepEqual(tally(accepted), { "200": 2, "403 MEMBERSHIP_LIMIT_REACHED": 3 });
      const count = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM auth.members WHERE organization_id = $1`,
        [second.id],
      );
      assert.equal(count[0].n, 3);
      // The refused ones stay pending, to accept once there is room.
      const refused = invitees.find((_, i) => accepted[i].status === 403)!;
      const pending = await call(module, "GET", "/organizations/invitations", {
        token: refused.token,
      });
      assert.equal(pending.body.invitations.length, 1);
    });

    it("invitationLimit: concurrent invitations end with exactly the limit; re-sending works at it", async () => {
      const module = await withOptions({ invitationLimit: 2 });
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(module, "POST", `/organizations/${id}/invitations`, {
            token: owner.token,
            body: { email: uniqueEmail("invited") },
          })),
      );
      assert.deepEqual(tally(results), { "201": 2, "403 INVITATION_LIMIT_REACHED": 6 });
      const email = results.find((r) => r.status === 201)!.body.invitation.email;
      const again = await call(module, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email },
      });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      // A canceled invitation frees its place.
      const cancel = await call(
        module,
        "PATCH",
        `/organizations/invitations/${again.body.invitation.id}`,
        {
          token: owner.token,
          body: { action: "cancel", token: again.body.invitation.token },
        },
      );
      assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
      await invite(module, owner, id, uniqueEmail("later"));
    });
  });

  describe(`${name}: GET /me is bounded`, () => {
    // About 400 requests: beyond bun's default 5 s.
    it("lists 100 organizations and 100 invitations with HasMore flags, kept and validated", {
      timeout: 120_000,
    }, async () => {
      const module = await withOptions({ organizationLimit: false, invitationLimit: 200 });
      const reader = await withOptions({});
      const owner = await newUser(module, "owner");
      const user = await newUser(module, "joiner");
      const ids: string[] = [];
      for (let i = 0; i < 101; i++) {
        const { id } = await createOrganization(module, owner);
        await module.api.addMember({ organizationId: id, userId: user.user.id });
        ids.push(id);
      }
      const me = async () => (await call(reader, "GET", "/me", { token: user.token })).body;
      let body = await me();
      assert.equal(body.organizations.length, 100);
      assert.equal(body.organizationsHasMore, true);
      assert.deepEqual(body.organizations.map((e: any) => e.organization.id), ids.slice(0, 100));
      assert.equal((await me()).organizationsHasMore, true); // the kept answer

      // The 101st moves up when the first is left: the kept part sees it.
      const first = body.organizations[0].member.id;
      assert.equal(
        (await call(module, "DELETE", `/organizations/${ids[0]}/members/${first}`, {
          token: user.token,
        })).status,
        204,
      );
      body = await me();
      assert.equal(body.organizationsHasMore, false);
      assert.deepEqual(body.organizations.map((e: any) => e.organization.id), ids.slice(1));

      // One email with 101 pending invitations, from organizations the user is not in.
      const inviter = await newUser(module, "inviter");
      const target = await newUser(module, "target");
      for (let i = 0; i < 101; i++) {
        const { id } = await createOrganization(module, inviter);
        await invite(module, inviter, id, target.user.email);
      }
      const targetMe = (await call(reader, "GET", "/me", { token: target.token })).body;
      assert.equal(targetMe.invitations.length, 100);
      assert.equal(targetMe.invitationsHasMore, true);
      assert.equal(targetMe.organizationsHasMore, false);
    });
  });
});
