// deno-lint-ignore-file no-explicit-any
// Members over HTTP on PGlite and PostgreSQL: add (existing users, default roles, configured
// roles only), replace roles, remove and leave, owner protection and the last-owner rule, member
// ids scoped by organization, keyset pages.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;

  before(async () => {
    module = await organizationsModule(getAdapter(), { organizations: DIRECT_ADD });
  });

  function membersPath(organizationId: string, memberId?: string): string {
    return `/organizations/${organizationId}/members${memberId ? `/${memberId}` : ""}`;
  }

  async function ownerIdOf(organizationId: string, owner: TestUser): Promise<string> {
    return (await call(module, "GET", `/organizations/${organizationId}`, { token: owner.token }))
      .body.member.id;
  }

  describe(`${name}: POST /organizations/:id/members`, () => {
    it("adds an existing user with defaultMemberRoles, or with the given configured roles", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const plain = await newUser(module);
      const result = await call(module, "POST", membersPath(id), {
        token: owner.token,
        body: { userId: plain.user.id },
      });
      assert.equal(result.status, 201);
      assert.deepEqual(Object.keys(result.body), ["member"]);
      assert.deepEqual(result.body.member.roles, ["member"]);
      assert.equal(result.body.member.userId, plain.user.id);
      assert.equal(result.body.member.organizationId, id);
      const admin = await addMember(module, owner, id, await newUser(module), [
        "admin",
        "admin",
        "member",
      ]);
      assert.deepEqual(admin.roles, ["admin", "member"], "duplicates removed");
      const seen = await call(module, "GET", `/organizations/${id}`, { token: plain.token });
      assert.equal(seen.status, 200);
      assert.deepEqual(seen.body.member.roles, ["member"]);
    });

    it("answers 404 USER_NOT_FOUND for an unknown user and 409 ALREADY_MEMBER for a member", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      for (const userId of [crypto.randomUUID(), "nope"]) {
        assertError(
          await call(module, "POST", membersPath(id), { token: owner.token, body: { userId } }),
          404,
          "USER_NOT_FOUND",
        );
      }
      const member = await newUser(module);
      await addMember(module, owner, id, member);
      assertError(
        await call(module, "POST", membersPath(id), {
          token: owner.token,
          body: { userId: member.user.id },
        }),
        409,
        "ALREADY_MEMBER",
      );
      assertError(
        await call(module, "POST", membersPath(id), {
          token: owner.token,
          body: { userId: owner.user.id },
        }),
        409,
        "ALREADY_MEMBER",
      );
    });

    it("accepts only configured roles and at least one", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      for (const roles of [["superuser"], [], ["member", "Owner"], "member"]) {
        const result = await call(module, "POST", membersPath(id), {
          token: owner.token,
          body: { userId: (await newUser(module)).user.id, roles },
        });
        assertError(result, 400, "VALIDATION_ERROR");
        assert.ok(result.body.issues.every((i: any) => i.path.startsWith("body.roles")));
      }
    });

    it("lets only owners grant the owner role", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const { id } = await createOrganization(module, owner);
      await addMember(module, owner, id, admin, ["admin"]);
      const target = await newUser(module);
      assertError(
        await call(module, "POST", membersPath(id), {
          token: admin.token,
          body: { userId: target.user.id, roles: ["owner"] },
        }),
        403,
        "FORBIDDEN",
      );
      const byOwner = await addMember(module, owner, id, target, ["owner"]);
      assert.deepEqual(byOwner.roles, ["owner"]);
    });
  });

  describe(`${name}: PATCH /organizations/:id/members/:memberId`, () => {
    it("replaces the whole roles list", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const member = await addMember(module, owner, id, await newUser(module));
      for (const roles of [["admin", "member"], ["admin"], ["member"]]) {
        const result = await call(module, "PATCH", membersPath(id, member.id), {
          token: owner.token,
          body: { roles },
        });
        assert.equal(result.status, 200);
        assert.deepEqual(result.body.member.roles, roles);
      }
      assertError(
        await call(module, "PATCH", membersPath(id, member.id), {
          token: owner.token,
          body: { roles: [] },
        }),
        400,
        "VALIDATION_ERROR",
      );
    });

    it("keeps owners out of an admin's reach: no granting, revoking or changing an owner", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const adminMember = await addMember(module, owner, id, admin, ["admin"]);
      const member = await addMember(module, owner, id, await newUser(module));
      const ownerId = await ownerIdOf(id, owner);
      const attempts: [string, unknown][] = [
        [member.id, { roles: ["owner"] }],
        [member.id, { roles: ["owner", "member"] }],
        [ownerId, { roles: ["member"] }],
        [ownerId, { roles: ["owner", "admin"] }],
        [adminMember.id, { roles: ["owner"] }],
      ];
      for (const [memberId, body] of attempts) {
        assertError(
          await call(module, "PATCH", membersPath(id, memberId), { token: admin.token, body }),
          403,
          "FORBIDDEN",
        );
      }
      // Admins do manage non-owners, other admins included.
      const promoted = await call(module, "PATCH", membersPath(id, member.id), {
        token: admin.token,
        body: { roles: ["admin"] },
      });
      assert.equal(promoted.status, 200);
      const owners = await call(module, "GET", membersPath(id), { token: owner.token });
      assert.equal(owners.body.members.filter((m: any) => m.roles.includes("owner")).length, 1);
    });

    it("refuses to demote the last owner (409) and allows it once another owner exists", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const ownerId = await ownerIdOf(id, owner);
      assertError(
        await call(module, "PATCH", membersPath(id, ownerId), {
          token: owner.token,
          body: { roles: ["admin"] },
        }),
        409,
        "LAST_OWNER",
      );
      const second = await newUser(module);
      const secondMember = await addMember(module, owner, id, second, ["owner"]);
      const demoted = await call(module, "PATCH", membersPath(id, ownerId), {
        token: owner.token,
        body: { roles: ["admin"] },
      });
      assert.equal(demoted.status, 200);
      assertError(
        await call(module, "PATCH", membersPath(id, secondMember.id), {
          token: second.token,
          body: { roles: ["member"] },
        }),
        409,
        "LAST_OWNER",
      );
    });

    it("answers 404 for a member id of another organization", async () => {
      const owner = await newUser(module);
      const a = await createOrganization(module, owner);
      const b = await createOrganization(module, owner);
      const inB = await addMember(module, owner, b.id, await newUser(module));
      assertError(
        await call(module, "PATCH", membersPath(a.id, inB.id), {
          token: owner.token,
          body: { roles: ["admin"] },
        }),
        404,
        "NOT_FOUND",
      );
      assertError(
        await call(module, "DELETE", membersPath(a.id, inB.id), { token: owner.token }),
        404,
        "NOT_FOUND",
      );
      const still = await call(module, "GET", membersPath(b.id), { token: owner.token });
      assert.ok(still.body.members.some((m: any) => m.id === inB.id && m.roles[0] === "member"));
    });
  });

  describe(`${name}: DELETE /organizations/:id/members/:memberId`, () => {
    it("lets any member leave, and owners/admins remove non-owners", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const member = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const adminMember = await addMember(module, owner, id, admin, ["admin"]);
      const plain = await addMember(module, owner, id, member);
      const other = await addMember(module, owner, id, await newUser(module));
      assertError(
        await call(module, "DELETE", membersPath(id, other.id), { token: member.token }),
        403,
        "FORBIDDEN",
      );
      assert.equal(
        (await call(module, "DELETE", membersPath(id, plain.id), { token: member.token })).status,
        204,
      );
      assertError(
        await call(module, "GET", `/organizations/${id}`, { token: member.token }),
        404,
        "NOT_FOUND",
      );
      assert.equal(
        (await call(module, "DELETE", membersPath(id, other.id), { token: admin.token })).status,
        204,
      );
      assert.equal(
        (await call(module, "DELETE", membersPath(id, adminMember.id), { token: admin.token }))
          .status,
        204,
      );
      const left = await call(module, "GET", membersPath(id), { token: owner.token });
      assert.deepEqual(left.body.members.map((m: any) => m.userId), [owner.user.id]);
    });

    it("keeps owners safe from admins and always keeps one owner", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const { id } = await createOrganization(module, owner);
      await addMember(module, owner, id, admin, ["admin"]);
      const ownerId = await ownerIdOf(id, owner);
      assertError(
        await call(module, "DELETE", membersPath(id, ownerId), { token: admin.token }),
        403,
        "FORBIDDEN",
      );
      assertError(
        await call(module, "DELETE", membersPath(id, ownerId), { token: owner.token }),
        409,
        "LAST_OWNER",
      );
      const second = await newUser(module);
      const secondMember = await addMember(module, owner, id, second, ["owner"]);
      // An owner may remove another owner, and leave when another owner remains.
      assert.equal(
        (await call(module, "DELETE", membersPath(id, secondMember.id), { token: owner.token }))
          .status,
        204,
      );
      const third = await addMember(module, owner, id, second, ["owner"]);
      assert.equal(
        (await call(module, "DELETE", membersPath(id, ownerId), { token: owner.token })).status,
        204,
      );
      assertError(
        await call(module, "DELETE", membersPath(id, third.id), { token: second.token }),
        409,
        "LAST_OWNER",
      );
    });
  });

  describe(`${name}: GET /organizations/:id/members`, () => {
    it("pages members oldest first with a cursor bound to this organization", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const ids = [await ownerIdOf(id, owner)];
      for (let i = 0; i < 4; i++) {
        ids.push((await addMember(module, owner, id, await newUser(module))).id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = await call(module, "GET", `${membersPath(id)}${query}`, {
          token: owner.token,
        });
        assert.equal(page.status, 200);
        assert.deepEqual(Object.keys(page.body).sort(), ["cursor", "hasNextPage", "members"]);
        seen.push(...page.body.members.map((m: any) => m.id));
        assert.equal(page.body.hasNextPage, page.body.cursor !== null);
        cursor = page.body.cursor;
        pages++;
      } while (cursor);
      assert.deepEqual(seen, ids);
      assert.equal(pages, 3);
      const other = await createOrganization(module, owner);
      const first = await call(module, "GET", `${membersPath(id)}?pageSize=1`, {
        token: owner.token,
      });
      assertError(
        await call(
          module,
          "GET",
          `${membersPath(other.id)}?cursor=${encodeURIComponent(first.body.cursor)}`,
          {
            token: owner.token,
          },
        ),
        400,
        "INVALID_CURSOR",
      );
    });
  });
});
