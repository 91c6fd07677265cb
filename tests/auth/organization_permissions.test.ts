// deno-lint-ignore-file no-explicit-any
// `organizations.permissions` (issue 32) over HTTP on PGlite and PostgreSQL: a custom role holds
// exactly its permissions (a billing member tries every built-in action: 403, nothing changed),
// entries carry the caller's effective permissions, `api.hasPermission()` and
// `api.requirePermission()` (inside an app route built with `route()`), no escalation when
// granting roles, and the configuration errors.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createModule, HttpError, ModuleConfigError, route } from "../../src/core/mod.ts";
import { auth, type AuthModule, BUILT_IN_PERMISSIONS } from "../../src/auth/mod.ts";
import { pgliteAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const ROLES = ["owner", "admin", "member", "billing", "recruiter", "manager"];
const PERMISSIONS = {
  billing: ["invoice:read"],
  recruiter: ["invitation:create", "invitation:list"],
  manager: ["member:*"],
};

describe("organizations.permissions configuration", () => {
  const database = pgliteAdapter();
  const cases: Array<[unknown, string]> = [
    [{ ghost: ["invoice:read"] }, 'organizations.permissions.ghost: "ghost" is not one of'],
    [{ billing: ["invoice"] }, 'organizations.permissions.billing: "invoice" is not a permission'],
    [{ billing: ["Invoice:Read"] }, "is not a permission"],
    [{ billing: ["*:read"] }, "is not a permission"],
    [{ billing: ["invoice:read", "invoice:read"] }, "is listed twice"],
    [{ billing: "invoice:read" }, "organizations.permissions.billing: expected a list"],
    [{ owner: ["invoice:read"] }, "organizations.permissions.owner: owner holds every permission"],
    [["billing"], "organizations.permissions: expected an object"],
  ];
  for (const [permissions, message] of cases) {
    it(`throws ModuleConfigError for ${JSON.stringify(permissions)}`, () => {
      assert.throws(
        () =>
          auth({
            database,
            organizations: { roles: ["owner", "admin", "member", "billing"], permissions } as any,
          }),
        (error: unknown) => error instanceof ModuleConfigError && error.message.includes(message),
      );
    });
  }
  it("checks previousOwnerRoles and auditLogRetentionDays", () => {
    for (
      const [options, message] of [
        [{ previousOwnerRoles: ["owner"] }, "organizations.previousOwnerRoles"],
        [{ previousOwnerRoles: ["ghost"] }, "organizations.previousOwnerRoles"],
        [{ auditLogRetentionDays: 0 }, "organizations.auditLogRetentionDays"],
        [{ auditLogRetentionDays: 1.5 }, "organizations.auditLogRetentionDays"],
      ] as const
    ) {
      assert.throws(
        () => auth({ database, organizations: options as any }),
        (error: unknown) => error instanceof ModuleConfigError && error.message.includes(message),
      );
    }
  });
});

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;
  let owner: TestUser;
  let organizationId: string;
  let billing: TestUser;
  let billingMember: any;
  let plain: TestUser;
  let plainMember: any;
  let admin: TestUser;

  before(async () => {
    module = await organizationsModule(getAdapter(), {
      namespace: "auth_permissions",
      organizations: { roles: ROLES, permissions: PERMISSIONS, canAddMember: () => true },
    });
    owner = await newUser(module, "owner");
    organizationId = (await createOrganization(module, owner)).id;
    billing = await newUser(module, "billing");
    billingMember = await addMember(module, owner, organizationId, billing, ["billing"]);
    plain = await newUser(module, "plain");
    plainMember = await addMember(module, owner, organizationId, plain);
    admin = await newUser(module, "admin");
    await addMember(module, owner, organizationId, admin, ["admin"]);
  });

  async function snapshot(): Promise<unknown> {
    const as = { token: owner.token };
    const base = `/organizations/${organizationId}`;
    return {
      organization: (await call(module, "GET", base, as)).body.organization,
      members: (await call(module, "GET", `${base}/members?pageSize=100`, as)).body.members,
      invitations: (await call(module, "GET", `${base}/invitations?pageSize=100`, as)).body
        .invitations,
      audit: (await call(module, "GET", `${base}/audit-log?pageSize=100`, as)).body.entries,
    };
  }

  describe(`${name}: a custom role holds exactly its permissions`, () => {
    it("a billing member tries every built-in action: 403 each time, nothing changed", async () => {
      const pending = await invite(module, owner, organizationId, "pending@example.com");
      const outsider = await newUser(module, "outsider");
      const before = await snapshot();
      const base = `/organizations/${organizationId}`;
      const as = { token: billing.token };
      const attempts: Array<[string, string, unknown?]> = [
        ["PATCH", base, { name: "Billing's now" }], // organization:update
        ["DELETE", base], // organization:delete
        ["POST", `${base}/members`, { userId: outsider.user.id }], // member:create
        ["PATCH", `${base}/members/${plainMember.id}`, { roles: ["billing"] }], // member:update
        ["DELETE", `${base}/members/${plainMember.id}`], // member:delete
        ["POST", `${base}/invitations`, { email: "new@example.com" }], // invitation:create
        ["GET", `${base}/invitations`], // invitation:list
        ["GET", `${base}/audit-log`], // audit:read
        ["POST", `${base}/transfer-ownership`, { memberId: billingMember.id }], // owners only
      ];
      for (const [method, path, body] of attempts) {
        const result = await call(module, method, path, { ...as, body });
        assertError(result, 403, "FORBIDDEN");
      }
      // invitation:cancel (someone else's invitation)
      const cancel = await call(module, "PATCH", `/organizations/invitations/${pending.id}`, {
        ...as,
        body: { action: "cancel", token: pending.token },
      });
      assertError(cancel, 403, "FORBIDDEN");
      assert.deepEqual(await snapshot(), before, "nothing changed, no audit entry");
      // Leaving stays open to everyone.
      const other = await newUser(module, "leaver");
      const leaver = await addMember(module, owner, organizationId, other, ["billing"]);
      const left = await call(module, "DELETE", `${base}/members/${leaver.id}`, {
        token: other.token,
      });
      assert.equal(left.status, 204);
    });

    it("hasPermission(): true for billing's invoice:read, false for a plain member", async () => {
      const ask = (user: TestUser, permission: string) =>
        module.api.hasPermission({ userId: user.user.id }, { organizationId, permission });
      assert.equal(await ask(billing, "invoice:read"), true);
      assert.equal(await ask(plain, "invoice:read"), false);
      assert.equal(await ask(admin, "invoice:read"), false, "admin keeps its defaults only");
      assert.equal(await ask(admin, "invitation:create"), true);
      assert.equal(await ask(admin, "organization:delete"), false);
      assert.equal(await ask(owner, "invoice:read"), true, "owner holds every permission");
      assert.equal(await ask(owner, "anything:else"), true);
      const stranger = await newUser(module, "stranger");
      assert.equal(await ask(stranger, "invoice:read"), false, "not a member");
      assert.equal(
        await module.api.hasPermission({ token: billing.token }, {
          organizationId: crypto.randomUUID(),
          permission: "invoice:read",
        }),
        false,
      );
      await assert.rejects(ask(billing, "invoice:*"), TypeError);
      await assert.rejects(ask(billing, "invoice"), TypeError);
    });

    it("every entry lists exactly the caller's permissions", async () => {
      const get = await call(module, "GET", `/organizations/${organizationId}`, {
        token: billing.token,
      });
      assert.deepEqual(get.body.permissions, ["invoice:read"]);
      const list = await call(module, "GET", "/organizations", { token: billing.token });
      assert.deepEqual(list.body.organizations.map((e: any) => e.permissions), [["invoice:read"]]);
      await call(module, "POST", "/organizations/active", {
        token: billing.token,
        body: { organizationId },
      });
      const me = await call(module, "GET", "/me", { token: billing.token });
      assert.deepEqual(me.body.organizations[0].permissions, ["invoice:read"]);
      assert.deepEqual(me.body.activeOrganization.permissions, ["invoice:read"]);
      const plainEntry = await call(module, "GET", `/organizations/${organizationId}`, {
        token: plain.token,
      });
      assert.deepEqual(plainEntry.body.permissions, []);
      const adminEntry = await call(module, "GET", `/organizations/${organizationId}`, {
        token: admin.token,
      });
      assert.deepEqual(
        adminEntry.body.permissions,
        BUILT_IN_PERMISSIONS.filter((p) => p !== "organization:delete").sort(),
      );
      const ownerEntry = await call(module, "GET", `/organizations/${organizationId}`, {
        token: owner.token,
      });
      assert.deepEqual(
        ownerEntry.body.permissions,
        [...BUILT_IN_PERMISSIONS, "invoice:read", "member:*"].sort(),
        "owner: every built-in and app-defined permission",
      );
    });

    it("requirePermission() guards an app route built with route(): 401, 404, 403, then the caller", async () => {
      const app = createModule({
        name: "billing",
        routes: [route({
          method: "GET",
          path: "/invoices/:organizationId",
          handler: async ({ request, params }) => {
            const caller = await module.api.requirePermission(request, {
              organizationId: (params as { organizationId: string }).organizationId,
              permission: "invoice:read",
            });
            return { userId: caller.user.id, permissions: caller.permissions };
          },
        })],
      });
      const fetchAs = (token: string | null, id = organizationId) =>
        app.fetch(
          new Request(`http://localhost/api/billing/invoices/${id}`, {
            headers: token ? { authorization: `Bearer ${token}` } : {},
          }),
        );
      const anonymous = await fetchAs(null);
      assert.equal(anonymous.status, 401);
      assert.equal((await anonymous.json()).error.code, "UNAUTHENTICATED");
      const stranger = await newUser(module, "stranger");
      const notMember = await fetchAs(stranger.token);
      assert.equal(notMember.status, 404);
      assert.equal((await notMember.json()).error.code, "NOT_FOUND");
      const forbidden = await fetchAs(plain.token);
      assert.equal(forbidden.status, 403);
      assert.equal((await forbidden.json()).error.code, "FORBIDDEN");
      const allowed = await fetchAs(billing.token);
      assert.equal(allowed.status, 200);
      assert.deepEqual(await allowed.json(), {
        userId: billing.user.id,
        permissions: ["invoice:read"],
      });
      await assert.rejects(
        module.api.requirePermission(new Request("http://localhost/"), {
          organizationId,
          permission: "invoice:read",
        }),
        (error: unknown) => error instanceof HttpError && error.status === 401,
      );
    });
  });

  describe(`${name}: no escalation`, () => {
    it("granting a role needs every permission of it; owner is granted by owners only", async () => {
      const base = `/organizations/${organizationId}`;
      const target = await newUser(module, "target");
      // An admin lacks invoice:read: it cannot grant billing, by any path.
      assertError(
        await call(module, "POST", `${base}/invitations`, {
          token: admin.token,
          body: { email: "b@example.com", roles: ["billing"] },
        }),
        403,
        "FORBIDDEN",
      );
      assertError(
        await call(module, "POST", `${base}/members`, {
          token: admin.token,
          body: { userId: target.user.id, roles: ["billing"] },
        }),
        403,
        "FORBIDDEN",
      );
      assertError(
        await call(module, "PATCH", `${base}/members/${plainMember.id}`, {
          token: admin.token,
          body: { roles: ["member", "billing"] },
        }),
        403,
        "FORBIDDEN",
      );
      // An admin granting owner, by every path.
      for (
        const [method, path, body] of [
          ["POST", `${base}/invitations`, { email: "o@example.com", roles: ["owner"] }],
          ["POST", `${base}/members`, { userId: target.user.id, roles: ["owner"] }],
          ["PATCH", `${base}/members/${plainMember.id}`, { roles: ["owner"] }],
        ] as const
      ) {
        assertError(
          await call(module, method, path, { token: admin.token, body }),
          403,
          "FORBIDDEN",
        );
      }
      // A manager (member:*) may change roles, but not grant admin (it lacks invitation:*…).
      const managerUser = await newUser(module, "manager");
      await addMember(module, owner, organizationId, managerUser, ["manager"]);
      assertError(
        await call(module, "PATCH", `${base}/members/${plainMember.id}`, {
          token: managerUser.token,
          body: { roles: ["admin"] },
        }),
        403,
        "FORBIDDEN",
      );
      const granted = await call(module, "PATCH", `${base}/members/${plainMember.id}`, {
        token: managerUser.token,
        body: { roles: ["member", "manager"] },
      });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      // Removing roles grants nothing: the manager takes the manager role back.
      const back = await call(module, "PATCH", `${base}/members/${plainMember.id}`, {
        token: managerUser.token,
        body: { roles: ["member"] },
      });
      assert.equal(back.status, 200);
      // A recruiter invites members, not admins; and lists invitations, but cannot cancel others'.
      const recruiter = await newUser(module, "recruiter");
      await addMember(module, owner, organizationId, recruiter, ["recruiter"]);
      const invited = await call(module, "POST", `${base}/invitations`, {
        token: recruiter.token,
        body: { email: "hire@example.com" },
      });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      assertError(
        await call(module, "POST", `${base}/invitations`, {
          token: recruiter.token,
          body: { email: "boss@example.com", roles: ["admin"] },
        }),
        403,
        "FORBIDDEN",
      );
      const listed = await call(module, "GET", `${base}/invitations`, { token: recruiter.token });
      assert.equal(listed.status, 200);
      // The inviter may still cancel their own invitation.
      const own = await call(
        module,
        "PATCH",
        `/organizations/invitations/${invited.body.invitation.id}`,
        {
          token: recruiter.token,
          body: { action: "cancel", token: invited.body.invitation.token },
        },
      );
      assert.equal(own.status, 200, JSON.stringify(own.body));
    });

    it("an invitation dies with its inviter's permission to grant it", async () => {
      const recruiter = await newUser(module, "recruiter2");
      const recruiterMember = await addMember(module, owner, organizationId, recruiter, [
        "recruiter",
      ]);
      const invitee = await newUser(module, "invitee");
      const invitation = await invite(module, recruiter, organizationId, invitee.user.email);
      // The recruiter loses invitation:create before the invitee accepts.
      const demoted = await call(
        module,
        "PATCH",
        `/organizations/${organizationId}/members/${recruiterMember.id}`,
        { token: owner.token, body: { roles: ["member"] } },
      );
      assert.equal(demoted.status, 200);
      const accept = await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: invitee.token,
        body: { action: "accept", token: invitation.token },
      });
      assertError(accept, 409, "INVITATION_REVOKED");
    });
  });
});
