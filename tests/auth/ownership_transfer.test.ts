// deno-lint-ignore-file no-explicit-any
// `POST /organizations/:organizationId/transfer-ownership` (issue 32) on PGlite and PostgreSQL:
// the target gains owner and the caller gets previousOwnerRoles in one transaction, with the
// `ownershipTransferred` event; refused for non-owners (403), non-members and other
// organizations' members (404), unverified members and owners (409); concurrent transfers by a
// sole owner: exactly one wins. Also through `api.transferOwnership()` and the typed client.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule, OrganizationEventPayloads } from "../../src/auth/mod.ts";
import { createAuthClient } from "../../src/client/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;
  const transferred: Array<OrganizationEventPayloads["ownershipTransferred"]> = [];

  before(async () => {
    module = await organizationsModule(getAdapter(), {
      namespace: "auth_transfer",
      organizations: {
        roles: ["owner", "admin", "member", "billing"],
        previousOwnerRoles: ["member", "billing"],
        canAddMember: () => true,
        hooks: { ownershipTransferred: (payload) => void transferred.push(payload) },
      },
    });
  });

  const path = (organizationId: string) => `/organizations/${organizationId}/transfer-ownership`;

  async function memberIdOf(organizationId: string, user: TestUser): Promise<string> {
    return (await call(module, "GET", `/organizations/${organizationId}`, { token: user.token }))
      .body.member.id;
  }

  describe(`${name}: POST /organizations/:organizationId/transfer-ownership`, () => {
    it("hands ownership over in one step, with its event", async () => {
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const heir = await newUser(module, "heir");
      const heirMember = await addMember(module, owner, id, heir, ["admin"]);
      const result = await call(module, "POST", path(id), {
        token: owner.token,
        body: { memberId: heirMember.id },
      });
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual(result.body.member.roles, ["owner", "admin"]);
      assert.equal(result.body.member.id, heirMember.id);
      assert.deepEqual(result.body.previousOwner.roles, ["member", "billing"]);
      assert.equal(result.body.previousOwner.userId, owner.user.id);
      const entry = await call(module, "GET", `/organizations/${id}`, { token: owner.token });
      assert.deepEqual(entry.body.member.roles, ["member", "billing"]);
      assert.ok(!entry.body.permissions.includes("organization:delete"));
      // The previous owner can no longer act as one.
      assertError(
        await call(module, "POST", path(id), {
          token: owner.token,
          body: { memberId: await memberIdOf(id, owner) },
        }),
        403,
        "FORBIDDEN",
      );
      await module.api.hooks!.drain();
      const event = transferred.find((payload) => payload.member.id === heirMember.id);
      assert.ok(event);
      assert.deepEqual(event.previousRoles, ["admin"]);
      assert.equal(event.actorUserId, owner.user.id);
      assert.equal(event.previousOwner.userId, owner.user.id);
    });

    it("refuses admins, non-members, other organizations' members, owners and unverified members", async () => {
      const owner = await newUser(module, "owner2");
      const { id } = await createOrganization(module, owner);
      const admin = await newUser(module, "admin2");
      const adminMember = await addMember(module, owner, id, admin, ["admin"]);
      const unverified = await newUser(module, "unverified", { verified: false });
      const unverifiedMember = await addMember(module, owner, id, unverified);
      const coOwner = await newUser(module, "co-owner");
      const coOwnerMember = await addMember(module, owner, id, coOwner, ["owner"]);
      const elsewhere = await createOrganization(module, admin);
      const ownMember = await memberIdOf(elsewhere.id, admin);
      const before = (await call(module, "GET", `/organizations/${id}/members`, {
        token: owner.token,
      })).body;
      const post = (token: string, memberId: unknown, org = id) =>
        call(module, "POST", path(org), { token, body: { memberId } });
      assertError(await post(admin.token, adminMember.id), 403, "FORBIDDEN");
      assertError(await post(owner.token, ownMember), 404, "NOT_FOUND");
      assertError(await post(owner.token, crypto.randomUUID()), 404, "NOT_FOUND");
      assertError(await post(owner.token, "not-a-uuid"), 404, "NOT_FOUND");
      assertError(await post(owner.token, unverifiedMember.id), 409, "MEMBER_NOT_VERIFIED");
      assertError(await post(owner.token, coOwnerMember.id), 409, "ALREADY_OWNER");
      assertError(await post(owner.token, await memberIdOf(id, owner)), 409, "ALREADY_OWNER");
      assertError(await post(owner.token, 42), 400, "VALIDATION_ERROR");
      const stranger = await newUser(module, "stranger");
      assertError(await post(stranger.token, adminMember.id), 404, "NOT_FOUND");
      assertError(
        await call(module, "POST", path(id), { body: { memberId: adminMember.id } }),
        401,
        "UNAUTHENTICATED",
      );
      const after = (await call(module, "GET", `/organizations/${id}/members`, {
        token: owner.token,
      })).body;
      assert.deepEqual(after, before, "nothing changed");
    });

    it("concurrent transfers by a sole owner: exactly one wins, one owner remains", async () => {
      const owner = await newUser(module, "owner3");
      const { id } = await createOrganization(module, owner);
      const heirs = [];
      for (let i = 0; i < 4; i++) {
        heirs.push(await addMember(module, owner, id, await newUser(module, `heir${i}`)));
      }
      const results = await Promise.all(
        heirs.map((heir) =>
          call(module, "POST", path(id), { token: owner.token, body: { memberId: heir.id } })
        ),
      );
      const statuses = results.map((result) => result.status).sort();
      assert.deepEqual(statuses, [200, 403, 403, 403]);
      const winner = results.find((result) => result.status === 200)!.body.member;
      const members = (await call(module, "GET", `/organizations/${id}/members`, {
        token: owner.token,
      })).body.members;
      assert.deepEqual(
        members.filter((m: any) => m.roles.includes("owner")).map((m: any) => m.id),
        [winner.id],
      );
    });

    it("api.transferOwnership() and client.organizations.transferOwnership/auditLog", async () => {
      const owner = await newUser(module, "owner4");
      const { id } = await createOrganization(module, owner);
      const heir = await newUser(module, "heir4");
      const heirMember = await addMember(module, owner, id, heir);
      const client = createAuthClient({
        baseUrl: `http://localhost${module.mountRoute}`,
        token: heir.token,
        fetch: (input, init) => module.fetch(new Request(input, init)),
      });
      const refused = await client.organizations.transferOwnership(id, heirMember.id);
      assert.equal(refused.error?.code, "FORBIDDEN");
      const done = await module.api.transferOwnership({ userId: owner.user.id }, {
        organizationId: id,
        memberId: heirMember.id,
      });
      assert.deepEqual(done.member.roles, ["owner", "member"]);
      const log = await client.organizations.auditLog(id, { pageSize: 1 });
      assert.equal(log.error, null);
      assert.equal(log.data!.entries[0].action, "ownershipTransferred");
      assert.equal(log.data!.hasNextPage, true);
      const next = await client.organizations.auditLog(id, { cursor: log.data!.cursor! });
      // The cursor keeps the page size it was issued with.
      assert.deepEqual(next.data!.entries.map((e) => e.action), ["memberAdded"]);
      assert.equal(next.data!.hasNextPage, true);
    });
  });
});
