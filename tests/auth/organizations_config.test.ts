// deno-lint-ignore-file no-explicit-any
// Configuration of the organizations feature (disabled, custom roles, autoCreateOrganization,
// invalid options) and its durable notifications, on PGlite and PostgreSQL.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  auth,
  type AuthModule,
  ORGANIZATION_EVENT_NAMES,
  type OrganizationEventHandlers,
  scryptPasswordHasher,
} from "../../src/auth/mod.ts";
import { resolveOrganizationsOptions } from "../../src/auth/organizations/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
} from "./helpers/organizations.ts";

describe("organizations options", () => {
  const database = {
    query: () => Promise.reject(new Error("not used")),
    transaction: () => Promise.reject(new Error("not used")),
  } as unknown as SqlAdapter;

  it("rejects invalid options at instantiation with an error naming the option", () => {
    const cases: [unknown, string][] = [
      [{ roles: [] }, "organizations.roles"],
      [{ roles: ["admin", "member"] }, "organizations.roles"],
      [{ roles: ["owner", "Owner"] }, "organizations.roles"],
      [{ roles: ["owner", "owner"] }, "organizations.roles"],
      [{ creatorRoles: ["boss"] }, "organizations.creatorRoles"],
      [{ creatorRoles: ["admin"] }, "organizations.creatorRoles"],
      [{ defaultMemberRoles: ["guest"] }, "organizations.defaultMemberRoles"],
      [{ roles: ["owner", "editor"] }, "organizations.defaultMemberRoles"],
      [{ autoCreateOrganization: { name: "Team" } }, "organizations.autoCreateOrganization.name"],
      [{ autoCreateOrganization: { slug: 1 } }, "organizations.autoCreateOrganization.slug"],
      [{ invitationTtlDays: 0 }, "organizations.invitationTtlDays"],
      [{ maxMetadataBytes: 1.5 }, "organizations.maxMetadataBytes"],
      [{ hooks: { organisationCreated: () => {} } }, "organizations.hooks.organisationCreated"],
      [{ hooks: { memberAdded: "yes" } }, "organizations.hooks.memberAdded"],
      [{ retention: { done: "soon" } }, "organizations.retention.done"],
      [{ retention: "7d" }, "organizations.retention.done"],
      [{ retention: { done: -1 } }, "organizations.retention.done"],
      [{ canAddMember: true }, "organizations.canAddMember"],
      [{ organizationLimit: 0 }, "organizations.organizationLimit"],
      [{ organizationLimit: true }, "organizations.organizationLimit"],
      [{ membershipLimit: 2.5 }, "organizations.membershipLimit"],
      [{ membershipLimit: Infinity }, "organizations.membershipLimit"],
      [{ invitationLimit: -1 }, "organizations.invitationLimit"],
      [{ invitationLimit: "10" }, "organizations.invitationLimit"],
      ["yes", "organizations"],
    ];
    for (const [organizations, option] of cases) {
      assert.throws(
        () => auth({ database, organizations } as Parameters<typeof auth>[0]),
        (error: unknown) =>
          error instanceof ModuleConfigError && error.message.includes(`${option}:`),
        `${JSON.stringify(organizations)} → ${option}`,
      );
    }
  });

  it("resolves the consent policy and the limits: refused, 100 each, false for none", () => {
    const defaults = resolveOrganizationsOptions({})!;
    assert.equal(defaults.canAddMember, null);
    assert.deepEqual(
      [defaults.organizationLimit, defaults.membershipLimit, defaults.invitationLimit],
      [100, 100, 100],
    );
    const policy = () => true;
    const lifted = resolveOrganizationsOptions({
      canAddMember: policy,
      organizationLimit: false,
      membershipLimit: 1,
      invitationLimit: 1_000_000,
    })!;
    assert.equal(lifted.canAddMember, policy);
    assert.deepEqual(
      [lifted.organizationLimit, lifted.membershipLimit, lifted.invitationLimit],
      [null, 1, 1_000_000],
    );
  });

  it("mounts no organizations route with organizations: false", () => {
    const module = auth({ database, organizations: false });
    assert.ok(!module.routes.some((r) => r.path.includes("/organizations")));
    assert.equal(module.api.hooks, null);
    assert.equal(module.background, undefined);
    const enabled = auth({ database });
    const paths = enabled.routes.map((r) => `${r.method} ${r.path.replace("/api/auth", "")}`);
    for (
      const expected of [
        "POST /organizations",
        "GET /organizations",
        "GET /organizations/:organizationId",
        "PATCH /organizations/:organizationId",
        "DELETE /organizations/:organizationId",
        "GET /organizations/active",
        "POST /organizations/active",
        "GET /organizations/:organizationId/members",
        "POST /organizations/:organizationId/members",
        "PATCH /organizations/:organizationId/members/:memberId",
        "DELETE /organizations/:organizationId/members/:memberId",
        "GET /organizations/:organizationId/invitations",
        "POST /organizations/:organizationId/invitations",
        "GET /organizations/invitations",
        "PATCH /organizations/invitations/:invitationId",
        "GET /me",
      ]
    ) {
      assert.ok(paths.includes(expected), expected);
    }
    assert.ok(enabled.background);
  });
});

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;

  before(async () => {
    db = getAdapter();
    await organizationsModule(db); // migrates the "auth" namespace
  });

  describe(`${name}: organizations: false`, () => {
    it("answers 404 on organizations paths and empty organization fields in /me", async () => {
      const disabled = auth({
        database: db,
        organizations: false,
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      });
      const { token, user } = await signUp(disabled);
      for (
        const [method, path] of [["GET", "/organizations"], ["POST", "/organizations"], [
          "GET",
          "/organizations/active",
        ]]
      ) {
        assertError(
          await call(disabled, method, path, {
            token,
            body: method === "POST" ? { name: "X" } : undefined,
          }),
          404,
          "NOT_FOUND",
        );
      }
      // Even when the user has organizations (made through an enabled instance on the same data).
      const enabled = await organizationsModule(db);
      await createOrganization(enabled, { token, user });
      const me = await call(disabled, "GET", "/me", { token });
      assert.deepEqual(me.body, {
        user: { ...user, telegram: null, twoFactorEnabled: false },
        organizations: [],
        organizationsHasMore: false,
        activeOrganization: null,
        invitations: [],
        invitationsHasMore: false,
      });
    });
  });

  describe(`${name}: custom roles`, () => {
    it("gives creators creatorRoles, new members defaultMemberRoles, and refuses other roles", async () => {
      const module = await organizationsModule(db, {
        organizations: {
          roles: ["owner", "editor", "viewer"],
          creatorRoles: ["owner", "editor"],
          defaultMemberRoles: ["viewer"],
          ...DIRECT_ADD,
        },
      });
      const owner = await newUser(module);
      const { id, body } = await createOrganization(module, owner);
      assert.deepEqual(body.member.roles, ["owner", "editor"]);
      const viewer = await newUser(module);
      const member = await addMember(module, owner, id, viewer);
      assert.deepEqual(member.roles, ["viewer"]);
      assertError(
        await call(module, "POST", `/organizations/${id}/members`, {
          token: owner.token,
          body: { userId: (await newUser(module)).user.id, roles: ["admin"] },
        }),
        400,
        "VALIDATION_ERROR",
      );
      // Without an "admin" role only owners manage: an editor is just a member.
      const editor = await newUser(module);
      await addMember(module, owner, id, editor, ["editor"]);
      assertError(
        await call(module, "POST", `/organizations/${id}/invitations`, {
          token: editor.token,
          body: { email: uniqueEmail() },
        }),
        403,
        "FORBIDDEN",
      );
      const invitation = await invite(module, owner, id, uniqueEmail());
      assert.deepEqual(invitation.roles, ["viewer"]);
    });
  });

  describe(`${name}: autoCreateOrganization`, () => {
    it("creates an organization in the sign-up transaction, active for that credential", async () => {
      const module = await organizationsModule(db, {
        organizations: { autoCreateOrganization: {} },
      });
      const email = uniqueEmail("ada");
      const { token, user } = await signUp(module, email);
      const me = await call(module, "GET", "/me", { token });
      assert.equal(me.body.organizations.length, 1);
      const { organization, member } = me.body.organizations[0];
      assert.equal(organization.name, `${email.split("@")[0]}'s Organization`);
      assert.equal(organization.slug, user.id);
      assert.equal(organization.createdBy, user.id);
      assert.deepEqual(member.roles, ["owner"]);
      assert.deepEqual(me.body.activeOrganization, me.body.organizations[0]);
      const created = await module.api.createUser({
        email: uniqueEmail(),
        password: "correct horse battery",
      });
      const [{ n }] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auth.members WHERE user_id = $1",
        [created.id],
      );
      assert.equal(n, 1, "the server-side API creates it too");
    });

    it("suffixes a taken slug instead of failing the sign-up", async () => {
      const team = `team-${crypto.randomUUID().slice(0, 8)}`;
      const module = await organizationsModule(db, {
        organizations: {
          autoCreateOrganization: {
            name: (email) => `Team of ${email}`,
            slug: () => ` ${team.toUpperCase()} `,
          },
        },
      });
      const slugs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { token } = await signUp(module);
        slugs.push(
          (await call(module, "GET", "/organizations/active", { token })).body.organization.slug,
        );
      }
      assert.deepEqual(slugs, [team, `${team}-2`, `${team}-3`]);
    });

    it("rolls the user back when the organization cannot be created", async () => {
      const module = await organizationsModule(db, {
        organizations: {
          autoCreateOrganization: {
            name: () => {
              throw new Error("naming service down");
            },
          },
        },
      });
      const email = uniqueEmail("rollback");
      const originalError = console.error;
      console.error = () => {}; // the module logs the unexpected error once
      let result;
      try {
        result = await call(module, "POST", "/sign-up", {
          body: { email, password: "correct horse battery" },
        });
      } finally {
        console.error = originalError;
      }
      assertError(result, 500, "INTERNAL_ERROR");
      const rows = await db.query("SELECT id FROM auth.users WHERE email = $1", [email]);
      assert.equal(rows.length, 0);
    });
  });

  describe(`${name}: durable notifications`, () => {
    let module: AuthModule;
    const events: [string, any][] = [];

    before(async () => {
      const hooks: OrganizationEventHandlers = {};
      for (const event of ORGANIZATION_EVENT_NAMES) {
        (hooks as Record<string, (payload: unknown) => void>)[event] = (payload) => {
          events.push([event, payload]);
        };
      }
      // Its own namespace, so drain() sees only this module's events.
      module = await organizationsModule(db, {
        namespace: "auth_events",
        organizations: { hooks, ...DIRECT_ADD },
      });
    });

    async function delivered(): Promise<[string, any][]> {
      await module.api.hooks!.drain();
      const copy = [...events];
      events.length = 0;
      return copy;
    }

    it("delivers one event per committed change, after the commit", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      assert.deepEqual(events, [], "nothing runs before drain (or the worker)");
      let got = await delivered();
      assert.deepEqual(got.map(([n]) => n), ["organizationCreated"]);
      assert.equal(got[0][1].organization.id, id);
      assert.equal(got[0][1].actorUserId, owner.user.id);
      assert.deepEqual(got[0][1].member.roles, ["owner"]);

      await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { name: "Renamed" },
      });
      const helper = await newUser(module);
      const member = await addMember(module, owner, id, helper);
      await call(module, "PATCH", `/organizations/${id}/members/${member.id}`, {
        token: owner.token,
        body: { roles: ["admin"] },
      });
      await call(module, "DELETE", `/organizations/${id}/members/${member.id}`, {
        token: owner.token,
      });
      got = await delivered();
      assert.deepEqual(got.map(([n]) => n).sort(), [
        "memberAdded",
        "memberRemoved",
        "memberRolesChanged",
        "organizationUpdated",
      ]);
      const byName = Object.fromEntries(got);
      assert.deepEqual(byName.organizationUpdated.changed, ["name"]);
      assert.deepEqual(byName.organizationUpdated.previous, { name: "Test organization" });
      assert.equal(byName.memberAdded.via, "added");
      // Built in SQL by the one-statement add: exactly the member the route answered.
      assert.deepEqual(byName.memberAdded.member, member);
      assert.equal(byName.memberAdded.actorUserId, owner.user.id);
      assert.deepEqual(byName.memberRolesChanged.previousRoles, ["member"]);
      assert.deepEqual(byName.memberRolesChanged.member.roles, ["admin"]);
      assert.equal(byName.memberRemoved.member.id, member.id);

      const accepted = await invite(module, owner, id, invitee.user.email);
      const rejected = await invite(module, owner, id, uniqueEmail("rejecter"));
      const canceled = await invite(module, owner, id, uniqueEmail("canceled"));
      got = await delivered();
      assert.deepEqual(got.map(([n]) => n), [
        "invitationCreated",
        "invitationCreated",
        "invitationCreated",
      ]);
      assert.deepEqual(got.map(([, p]) => p.invitation.token), [
        accepted.token,
        rejected.token,
        canceled.token,
      ]);
      assert.ok(got.every(([, p]) => p.rotated === false && p.organization.id === id));

      await call(module, "PATCH", `/organizations/invitations/${accepted.id}`, {
        token: invitee.token,
        body: { action: "accept", token: accepted.token },
      });
      await call(module, "PATCH", `/organizations/invitations/${canceled.id}`, {
        token: owner.token,
        body: { action: "cancel", token: canceled.token },
      });
      got = await delivered();
      assert.deepEqual(got.map(([n]) => n).sort(), [
        "invitationAccepted",
        "invitationCanceled",
        "memberAdded",
      ]);
      const accept = Object.fromEntries(got);
      assert.equal(accept.memberAdded.via, "invitation");
      assert.equal(accept.invitationAccepted.member.userId, invitee.user.id);
      assert.ok(!("token" in accept.invitationAccepted.invitation));

      await call(module, "DELETE", `/organizations/${id}`, { token: owner.token });
      got = await delivered();
      assert.deepEqual(got.map(([n]) => n).sort(), ["invitationCanceled", "organizationDeleted"]);
      const deleted = Object.fromEntries(got);
      assert.deepEqual(deleted.organizationDeleted.canceledInvitationIds, [rejected.id]);
      assert.ok(deleted.organizationDeleted.organization.deletedAt);
    });

    it("records no event for a change that rolled back", async () => {
      const owner = await newUser(module);
      const { slug } = await createOrganization(module, owner);
      await delivered();
      const taken = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: "Duplicate", slug },
      });
      assertError(taken, 409, "SLUG_TAKEN");
      assert.deepEqual(await delivered(), []);
    });

    it("reports invitationRejected with the actor", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const invitation = await invite(module, owner, id, invitee.user.email);
      await delivered();
      await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: invitee.token,
        body: { action: "reject", token: invitation.token },
      });
      const got = await delivered();
      assert.deepEqual(got.map(([n, p]) => [n, p.actorUserId, p.invitation.status]), [
        ["invitationRejected", invitee.user.id, "rejected"],
      ]);
    });
  });
});
