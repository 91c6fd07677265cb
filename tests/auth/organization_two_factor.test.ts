// deno-lint-ignore-file no-explicit-any
// Organizations that require a second factor, over HTTP on PGlite: `requireTwoFactor` in every
// organization answer, set with PATCH under organization:update (409 TWO_FACTOR_NOT_ENABLED for a
// caller without a factor; an audit entry saying from what to what); members without a factor
// get 403 TWO_FACTOR_REQUIRED on every route of that organization (and from api.hasPermission /
// api.requirePermission) but may leave, and see it in /me and GET /organizations with
// `access: "twoFactorRequired"`; a factor gained admits them; an owner who lost theirs may still
// turn the requirement off; the active organization; the OpenAPI document; recordSecondFactorLoss
// (and, on PostgreSQL, a loss racing the requirement being turned on). A second factor is given the
// way the factor routes store one: a row in passkeys or totp_factors, then refreshSecondFactorFlag.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { createNotifications } from "../../src/auth/organizations/event_delivery.ts";
import { recordSecondFactorLoss } from "../../src/auth/organizations/second_factor.ts";
import { refreshSecondFactorFlag } from "../../src/auth/two_factor/factor_flag.ts";
import { authTableNames } from "../../src/auth/tables.ts";
import { HttpError } from "../../src/core/mod.ts";
import { pgliteAdapter, postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const tables = authTableNames("auth");

describe("organizations that require a second factor (PGlite)", () => {
  let db: SqlAdapter;
  let module: AuthModule;
  const lost: any[] = [];
  const updated: any[] = [];

  before(async () => {
    db = pgliteAdapter();
    module = await organizationsModule(db, {
      organizations: {
        ...DIRECT_ADD,
        hooks: {
          memberSecondFactorLost: (payload) => void lost.push(payload),
          organizationUpdated: (payload) => void updated.push(payload),
        },
      },
    });
  });

  after(async () => {
    await module.close();
    await db.close();
  });

  /** Gives the user a second factor as the factor routes store one: a TOTP or a passkey row. */
  async function giveSecondFactor(user: TestUser, kind: "totp" | "passkey" = "totp") {
    if (kind === "totp") {
      await db.query(
        `INSERT INTO ${tables.totpFactors} (user_id, secret_ciphertext, enabled_at)
         VALUES ($1, 'sealed', now())`,
        [user.user.id],
      );
    } else {
      await db.query(
        `INSERT INTO ${tables.passkeys} (user_id, credential_id, public_key, device_type, name)
         VALUES ($1, $2, '\\x0102'::bytea, 'singleDevice', 'Laptop')`,
        [user.user.id, crypto.randomUUID()],
      );
    }
    assert.equal(await refreshSecondFactorFlag(db, tables, user.user.id), true);
  }

  /** Removes every second factor of the user. */
  async function removeSecondFactors(user: TestUser) {
    await db.query(`DELETE FROM ${tables.totpFactors} WHERE user_id = $1`, [user.user.id]);
    await db.query(`DELETE FROM ${tables.passkeys} WHERE user_id = $1`, [user.user.id]);
    assert.equal(await refreshSecondFactorFlag(db, tables, user.user.id), false);
  }

  /** An organization owned by a new user with a second factor, requiring one of its members. */
  async function requiringOrganization(): Promise<{ owner: TestUser; id: string }> {
    const owner = await newUser(module, "owner");
    await giveSecondFactor(owner);
    const { id } = await createOrganization(module, owner);
    const on = await call(module, "PATCH", `/organizations/${id}`, {
      token: owner.token,
      body: { requireTwoFactor: true },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    return { owner, id };
  }

  async function auditEntries(organizationId: string, reader: TestUser): Promise<any[]> {
    const result = await call(
      module,
      "GET",
      `/organizations/${organizationId}/audit-log?pageSize=100`,
      { token: reader.token },
    );
    assert.equal(result.status, 200, JSON.stringify(result.body));
    return result.body.entries;
  }

  async function me(user: TestUser): Promise<any> {
    const result = await call(module, "GET", "/me", { token: user.token });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    return result.body;
  }

  describe("PATCH /organizations/:organizationId {requireTwoFactor}", () => {
    it("is false by default, in every organization answer", async () => {
      const owner = await newUser(module, "owner");
      const created = await createOrganization(module, owner);
      assert.equal(created.body.organization.requireTwoFactor, false);
      assert.equal(created.body.access, "member");
      const fetched = await call(module, "GET", `/organizations/${created.id}`, {
        token: owner.token,
      });
      assert.equal(fetched.body.organization.requireTwoFactor, false);
      const listed = await call(module, "GET", "/organizations", { token: owner.token });
      assert.equal(listed.body.organizations[0].organization.requireTwoFactor, false);
      assert.equal(listed.body.organizations[0].access, "member");
      const body = await me(owner);
      assert.equal(body.organizations[0].organization.requireTwoFactor, false);
      assert.equal(body.organizations[0].access, "member");
      assert.equal(body.activeOrganization.access, "member");
      assert.equal(body.user.twoFactorEnabled, false);
    });

    it("turning it on without a second factor is 409 TWO_FACTOR_NOT_ENABLED; nothing changes", async () => {
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const refused = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: true, name: "Locked" },
      });
      assertError(refused, 409, "TWO_FACTOR_NOT_ENABLED");
      const fetched = await call(module, "GET", `/organizations/${id}`, { token: owner.token });
      assert.equal(fetched.body.organization.requireTwoFactor, false);
      assert.equal(fetched.body.organization.name, "Test organization");
      const actions = (await auditEntries(id, owner)).map((entry) => entry.action);
      assert.deepEqual(actions, ["organizationCreated"]);
    });

    it("with a second factor: 200, and audit entries say from what to what", async () => {
      const owner = await newUser(module, "owner");
      await giveSecondFactor(owner, "passkey");
      const { id } = await createOrganization(module, owner);
      const on = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.equal(on.body.organization.requireTwoFactor, true);
      const off = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: false },
      });
      assert.equal(off.status, 200);
      assert.equal(off.body.organization.requireTwoFactor, false);
      const [turnedOff, turnedOn] = await auditEntries(id, owner);
      for (const entry of [turnedOn, turnedOff]) {
        assert.equal(entry.action, "organizationUpdated");
        assert.equal(entry.actorUserId, owner.user.id);
        assert.deepEqual(entry.target, { type: "organization", id });
        assert.deepEqual(entry.data.changed, ["requireTwoFactor"]);
      }
      assert.deepEqual(turnedOn.data.requireTwoFactor, { from: false, to: true });
      assert.deepEqual(turnedOff.data.requireTwoFactor, { from: true, to: false });
      // The events say it too.
      await module.api.hooks!.drain();
      const events = updated.filter((payload) => payload.organization.id === id);
      assert.deepEqual(events.map((payload) => payload.previous), [
        { requireTwoFactor: false },
        { requireTwoFactor: true },
      ]);
      assert.deepEqual(events.map((payload) => payload.organization.requireTwoFactor), [
        true,
        false,
      ]);
      // Other updates say nothing of it.
      await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { name: "Renamed" },
      });
      const [renamed] = await auditEntries(id, owner);
      assert.equal(renamed.data.requireTwoFactor, undefined);
    });

    it("needs organization:update", async () => {
      const { owner, id } = await requiringOrganization();
      const member = await newUser(module, "member");
      await giveSecondFactor(member);
      await addMember(module, owner, id, member, ["member"]);
      const refused = await call(module, "PATCH", `/organizations/${id}`, {
        token: member.token,
        body: { requireTwoFactor: false },
      });
      assertError(refused, 403, "FORBIDDEN");
    });
  });

  describe("a member without a second factor", () => {
    it("gets 403 TWO_FACTOR_REQUIRED on every route of the organization; nothing changes", async () => {
      const owner = await newUser(module, "owner");
      await giveSecondFactor(owner);
      const { id } = await createOrganization(module, owner);
      const admin = await newUser(module, "admin");
      await addMember(module, owner, id, admin, ["admin"]);
      const other = await newUser(module, "other");
      const otherMember = await addMember(module, owner, id, other, ["member"]);
      const outsider = await newUser(module, "outsider");
      const pending = await invite(module, owner, id, "pending-2fa@example.com");
      const on = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: true },
      });
      assert.equal(on.status, 200);
      const before = await auditEntries(id, owner);
      const base = `/organizations/${id}`;
      const attempts: Array<[string, string, unknown?]> = [
        ["GET", base],
        ["PATCH", base, { name: "Admin's now" }],
        ["PATCH", base, { requireTwoFactor: false }],
        ["DELETE", base],
        ["GET", `${base}/members`],
        ["POST", `${base}/members`, { userId: outsider.user.id }],
        ["PATCH", `${base}/members/${otherMember.id}`, { roles: ["admin"] }],
        ["DELETE", `${base}/members/${otherMember.id}`],
        ["GET", `${base}/invitations`],
        ["POST", `${base}/invitations`, { email: "new-2fa@example.com" }],
        ["GET", `${base}/audit-log`],
        ["POST", `${base}/transfer-ownership`, { memberId: otherMember.id }],
        ["PATCH", `/organizations/invitations/${pending.id}`, {
          action: "cancel",
          token: pending.token,
        }],
        ["POST", "/organizations/active", { organizationId: id }],
      ];
      for (const [method, path, body] of attempts) {
        const result = await call(module, method, path, { token: admin.token, body });
        assertError(result, 403, "TWO_FACTOR_REQUIRED");
      }
      assert.deepEqual(await auditEntries(id, owner), before, "nothing changed");
      // The application's own organization routes: the same answer.
      assert.equal(
        await module.api.hasPermission({ userId: admin.user.id }, {
          organizationId: id,
          permission: "member:create",
        }),
        false,
      );
      await assert.rejects(
        module.api.requirePermission(
          new Request("http://localhost/app", {
            headers: { authorization: `Bearer ${admin.token}` },
          }),
          { organizationId: id, permission: "member:create" },
        ),
        (error: unknown) => error instanceof HttpError && error.code === "TWO_FACTOR_REQUIRED",
      );
      // The server's own calls on the member's behalf follow the routes' rules.
      await assert.rejects(
        module.api.listMembers({ userId: admin.user.id }, { organizationId: id }),
        (error: unknown) => error instanceof HttpError && error.code === "TWO_FACTOR_REQUIRED",
      );
    });

    it("sees the organization in /me and GET /organizations as twoFactorRequired, then is admitted once they have a factor", async () => {
      const { owner, id } = await requiringOrganization();
      const member = await newUser(module, "member");
      // Another organization of theirs that does not require a factor stays open.
      const own = await createOrganization(module, member);
      await addMember(module, owner, id, member, ["admin"]);
      const kept = await me(member); // /me keeps its entries: the next answer must still change
      const entry = kept.organizations.find((e: any) => e.organization.id === id);
      assert.equal(entry.access, "twoFactorRequired");
      assert.equal(entry.organization.requireTwoFactor, true);
      assert.deepEqual(entry.member.roles, ["admin"]);
      assert.deepEqual(entry.permissions, []);
      const ownEntry = kept.organizations.find((e: any) => e.organization.id === own.id);
      assert.equal(ownEntry.access, "member");
      assert.ok(ownEntry.permissions.includes("organization:update"));
      assert.equal(kept.user.twoFactorEnabled, false);
      const listed = await call(module, "GET", "/organizations", { token: member.token });
      assert.deepEqual(
        listed.body.organizations.find((e: any) => e.organization.id === id),
        entry,
        "GET /organizations lists the same entry",
      );
      for (const path of [`/organizations/${own.id}`, `/organizations/${own.id}/members`]) {
        const open = await call(module, "GET", path, { token: member.token });
        assert.equal(open.status, 200, JSON.stringify(open.body));
      }

      await giveSecondFactor(member, "passkey");
      const after = await me(member);
      const admitted = after.organizations.find((e: any) => e.organization.id === id);
      assert.equal(admitted.access, "member");
      assert.ok(admitted.permissions.includes("member:create"));
      assert.equal(after.user.twoFactorEnabled, true);
      const fetched = await call(module, "GET", `/organizations/${id}`, { token: member.token });
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      assert.equal(fetched.body.access, "member");
      const members = await call(module, "GET", `/organizations/${id}/members`, {
        token: member.token,
      });
      assert.equal(members.status, 200);
      assert.equal(members.body.members.length, 2);

      // And out again when the factor goes.
      await removeSecondFactors(member);
      assert.equal(
        (await me(member)).organizations.find((e: any) => e.organization.id === id).access,
        "twoFactorRequired",
      );
      const refused = await call(module, "GET", `/organizations/${id}`, { token: member.token });
      assertError(refused, 403, "TWO_FACTOR_REQUIRED");
    });

    it("may leave the organization", async () => {
      const { owner, id } = await requiringOrganization();
      const member = await newUser(module, "leaver");
      const membership = await addMember(module, owner, id, member, ["member"]);
      const left = await call(module, "DELETE", `/organizations/${id}/members/${membership.id}`, {
        token: member.token,
      });
      assert.equal(left.status, 204, JSON.stringify(left.body));
      assert.equal((await me(member)).organizations.length, 0);
      const [entry] = await auditEntries(id, owner);
      assert.equal(entry.action, "memberRemoved");
      assert.equal(entry.data.left, true);
    });

    it("cannot make it the active organization; one made active before shows as twoFactorRequired", async () => {
      const owner = await newUser(module, "owner");
      await giveSecondFactor(owner);
      const { id } = await createOrganization(module, owner);
      const member = await newUser(module, "member");
      await addMember(module, owner, id, member, ["member"]);
      // Made active while the organization did not require a factor.
      const made = await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: id },
      });
      assert.equal(made.status, 200);
      await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: true },
      });
      const active = await call(module, "GET", "/organizations/active", { token: member.token });
      assert.equal(active.status, 200);
      assert.equal(active.body.organization.id, id);
      assert.equal(active.body.access, "twoFactorRequired");
      assert.deepEqual(active.body.permissions, []);
      assert.equal((await me(member)).activeOrganization.access, "twoFactorRequired");
      // Clearing it works; setting it again is refused like the organization's routes.
      const cleared = await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: null },
      });
      assert.equal(cleared.status, 200);
      const refused = await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: id },
      });
      assertError(refused, 403, "TWO_FACTOR_REQUIRED");
      assert.equal((await me(member)).activeOrganization, null);
      await giveSecondFactor(member);
      const allowed = await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: id },
      });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.body.access, "member");
    });

    it("joins by invitation, without the organization becoming active", async () => {
      const { owner, id } = await requiringOrganization();
      for (const withFactor of [false, true]) {
        const invitee = await newUser(module, "invitee");
        if (withFactor) await giveSecondFactor(invitee);
        const invitation = await invite(module, owner, id, invitee.user.email);
        const accepted = await call(
          module,
          "PATCH",
          `/organizations/invitations/${invitation.id}`,
          {
            token: invitee.token,
            body: { action: "accept" },
          },
        );
        assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
        assert.equal(accepted.body.organization.requireTwoFactor, true);
        const body = await me(invitee);
        assert.equal(body.organizations[0].access, withFactor ? "member" : "twoFactorRequired");
        assert.equal(body.activeOrganization?.organization.id ?? null, withFactor ? id : null);
      }
    });
  });

  describe("an owner", () => {
    it("without a factor may turn the requirement off, and nothing else", async () => {
      const { owner, id } = await requiringOrganization();
      const admin = await newUser(module, "admin");
      await addMember(module, owner, id, admin, ["admin"]);
      await removeSecondFactors(owner);
      for (const body of [{ name: "Renamed" }, { requireTwoFactor: false, name: "Renamed" }]) {
        const refused = await call(module, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body,
        });
        assertError(refused, 403, "TWO_FACTOR_REQUIRED");
      }
      // An admin (organization:update too, not an owner) without a factor may not.
      const byAdmin = await call(module, "PATCH", `/organizations/${id}`, {
        token: admin.token,
        body: { requireTwoFactor: false },
      });
      assertError(byAdmin, 403, "TWO_FACTOR_REQUIRED");
      // Nor turn it on again once off.
      const off = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: false },
      });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.organization.requireTwoFactor, false);
      const [entry] = await auditEntries(id, owner);
      assert.equal(entry.actorUserId, owner.user.id);
      assert.deepEqual(entry.data.requireTwoFactor, { from: true, to: false });
      const again = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { requireTwoFactor: true },
      });
      assertError(again, 409, "TWO_FACTOR_NOT_ENABLED");
    });
  });

  describe("the OpenAPI document", () => {
    it("documents requireTwoFactor, access, twoFactorEnabled and the two codes", async () => {
      const response = await module.fetch(new Request("http://localhost/api/auth/openapi.json"));
      const document: any = await response.json();
      const resolve = (schema: any) =>
        schema.$ref ? document.components.schemas[schema.$ref.split("/").at(-1)] : schema;
      const json = (operation: any, status: string) =>
        resolve(operation.responses[status].content["application/json"].schema);
      const organizationPath = document.paths["/organizations/{organizationId}"];
      const body = resolve(organizationPath.patch.requestBody.content["application/json"].schema);
      assert.equal(body.properties.requireTwoFactor.type, "boolean");
      const entry = json(organizationPath.get, "200");
      assert.deepEqual(resolve(entry.properties.access).enum, ["member", "twoFactorRequired"]);
      assert.ok(entry.required.includes("access"));
      const organization = resolve(entry.properties.organization);
      assert.equal(organization.properties.requireTwoFactor.type, "boolean");
      assert.ok(organization.required.includes("requireTwoFactor"));
      const meUser = resolve(json(document.paths["/me"].get, "200").properties.user);
      assert.equal(meUser.properties.twoFactorEnabled.type, "boolean");
      assert.match(
        JSON.stringify(organizationPath.patch.responses["409"]),
        /TWO_FACTOR_NOT_ENABLED/,
      );
      for (
        const operation of [
          organizationPath.get,
          organizationPath.patch,
          organizationPath.delete,
          document.paths["/organizations/{organizationId}/members"].get,
          document.paths["/organizations/{organizationId}/audit-log"].get,
          document.paths["/organizations/active"].post,
        ]
      ) {
        assert.match(JSON.stringify(operation.responses["403"]), /TWO_FACTOR_REQUIRED/);
      }
    });
  });

  describe("recordSecondFactorLoss", () => {
    it("records memberSecondFactorLost in each requiring organization the user is a member of", async () => {
      const user = await newUser(module, "loser");
      await giveSecondFactor(user);
      const requiring = await requiringOrganization();
      const membership = await addMember(module, requiring.owner, requiring.id, user, ["admin"]);
      const notRequiring = await newUser(module, "owner");
      const open = await createOrganization(module, notRequiring);
      await addMember(module, notRequiring, open.id, user);
      const elsewhere = await requiringOrganization(); // requires one; the user is not a member
      const deleted = await requiringOrganization(); // requires one; deleted
      await addMember(module, deleted.owner, deleted.id, user);
      const gone = await call(module, "DELETE", `/organizations/${deleted.id}`, {
        token: deleted.owner.token,
      });
      assert.equal(gone.status, 204);
      const snapshots = {
        open: await auditEntries(open.id, notRequiring),
        elsewhere: await auditEntries(elsewhere.id, elsewhere.owner),
      };

      const notifications = createNotifications({
        db,
        namespace: "auth",
        tables,
        handlers: { memberSecondFactorLost: () => {} },
        secret: null,
        auditLogRetentionDays: 30,
      });
      const recorded = await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${tables.totpFactors} WHERE user_id = $1`, [user.user.id]);
        assert.equal(await refreshSecondFactorFlag(tx, tables, user.user.id), false);
        return await recordSecondFactorLoss(tx, tables, notifications, user.user.id);
      });
      assert.deepEqual(recorded, [requiring.id]);

      const [entry] = await auditEntries(requiring.id, requiring.owner);
      assert.equal(entry.action, "memberSecondFactorLost");
      assert.equal(entry.actorUserId, user.user.id);
      assert.deepEqual(entry.target, { type: "member", id: membership.id });
      assert.deepEqual(entry.data, { userId: user.user.id, roles: ["admin"] });
      assert.deepEqual(await auditEntries(open.id, notRequiring), snapshots.open);
      assert.deepEqual(await auditEntries(elsewhere.id, elsewhere.owner), snapshots.elsewhere);
      const inDeleted = await db.query(
        `SELECT 1 FROM ${tables.auditLog} WHERE organization_id = $1 AND action = $2`,
        [deleted.id, "memberSecondFactorLost"],
      );
      assert.equal(inDeleted.length, 0);
      // The event is delivered to the application's handler.
      await module.api.hooks!.drain();
      assert.equal(lost.length, 1);
      assert.equal(lost[0].member.id, membership.id);
      assert.equal(lost[0].actorUserId, user.user.id);
      // The member stays a member, kept out until they have a factor again.
      const refused = await call(module, "GET", `/organizations/${requiring.id}`, {
        token: user.token,
      });
      assertError(refused, 403, "TWO_FACTOR_REQUIRED");
      // Without the organizations feature there is nothing to record.
      assert.deepEqual(await recordSecondFactorLoss(db, tables, null, user.user.id), []);
    });
  });
});

// A factor removed while another transaction turns the requirement on (as PATCH does: the
// organization row locked FOR UPDATE, then updated): the loss waits for it, then is recorded.
// Needs two connections, so PostgreSQL.
describe("recordSecondFactorLoss racing the requirement being turned on (PostgreSQL)", {
  skip: !enabledAdapters().includes("postgres"),
}, () => {
  let database: TestDatabase;
  let pg: SqlAdapter;
  let module: AuthModule;

  before(async () => {
    database = await createTestDatabase();
    pg = postgresAdapter(database.url, { max: 5 });
    module = await organizationsModule(pg, { organizations: DIRECT_ADD });
  }, { timeout: 120_000 });

  after(async () => {
    await module?.close();
    await pg?.close();
    await database?.drop();
  }, { timeout: 60_000 });

  /** Waits until a backend of the database waits for a lock. */
  async function lockWaiter(): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const rows = await pg.query(
        `SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("no backend waits for a lock");
  }

  it("records the loss in the organization whose requirement committed meanwhile", async () => {
    const owner = await newUser(module, "owner");
    const { id } = await createOrganization(module, owner);
    const user = await newUser(module, "member");
    await addMember(module, owner, id, user);
    await pg.query(
      `INSERT INTO ${tables.totpFactors} (user_id, secret_ciphertext, enabled_at)
       VALUES ($1, 'sealed', now())`,
      [user.user.id],
    );
    assert.equal(await refreshSecondFactorFlag(pg, tables, user.user.id), true);

    let turnedOn!: () => void;
    const lockHeld = new Promise<void>((resolve) => turnedOn = resolve);
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => commit = resolve);
    const turningOn = pg.transaction(async (tx) => {
      await tx.query(`SELECT id FROM ${tables.organizations} WHERE id = $1 FOR UPDATE`, [id]);
      await tx.query(`UPDATE ${tables.organizations} SET require_two_factor = true WHERE id = $1`, [
        id,
      ]);
      turnedOn();
      await committing;
    });
    await lockHeld;
    const events = createNotifications({
      db: pg,
      namespace: "auth",
      tables,
      handlers: {},
      secret: null,
      auditLogRetentionDays: 30,
    });
    const losing = pg.transaction(async (tx) => {
      await tx.query(`DELETE FROM ${tables.totpFactors} WHERE user_id = $1`, [user.user.id]);
      assert.equal(await refreshSecondFactorFlag(tx, tables, user.user.id), false);
      return await recordSecondFactorLoss(tx, tables, events, user.user.id);
    });
    await lockWaiter();
    commit();
    await turningOn;
    assert.deepEqual(await losing, [id]);
    const entries = await pg.query<{ action: string }>(
      `SELECT action FROM ${tables.auditLog} WHERE organization_id = $1 AND action = $2`,
      [id, "memberSecondFactorLost"],
    );
    assert.equal(entries.length, 1);
  });
});
