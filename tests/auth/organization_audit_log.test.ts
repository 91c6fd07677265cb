// deno-lint-ignore-file no-explicit-any
// The audit log of organizations (issue 32) over HTTP on PGlite and PostgreSQL: an entry for
// every change (the organization events and ownership transfers), newest first and keyset-paged,
// never holding a token; `audit:read`, another organization's log (404); an entry exists exactly
// when its change committed (a change rolled back at commit leaves none; concurrent changes
// leave one entry per committed change); the retention purge by the scheduled hook.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { AUDIT_LOG_PURGE_HOOK, auditLogPurgeHook } from "../../src/auth/organizations/audit_log.ts";
import { authTableNames } from "../../src/auth/tables.ts";
import { durableHooks } from "../../src/hooks/mod.ts";
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

const NAMESPACE = "auth_audit";
const TABLE = `"${NAMESPACE}"."organization_audit_log"`;

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;

  before(async () => {
    module = await organizationsModule(getAdapter(), {
      namespace: NAMESPACE,
      organizations: { canAddMember: () => true },
    });
  });

  async function auditLog(
    organizationId: string,
    user: TestUser,
    query = "pageSize=100",
  ): Promise<any> {
    const result = await call(
      module,
      "GET",
      `/organizations/${organizationId}/audit-log?${query}`,
      {
        token: user.token,
      },
    );
    assert.equal(result.status, 200, JSON.stringify(result.body));
    return result.body;
  }

  describe(`${name}: GET /organizations/:organizationId/audit-log`, () => {
    it("records every change, newest first, with its actor and target, and no token", async () => {
      const owner = await newUser(module, "owner");
      const { id } = await createOrganization(module, owner);
      const base = `/organizations/${id}`;
      await call(module, "PATCH", base, { token: owner.token, body: { name: "Renamed" } });
      const invitee = await newUser(module, "invitee");
      const invitation = await invite(module, owner, id, invitee.user.email);
      const accepted = await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: invitee.token,
        body: { action: "accept", token: invitation.token },
      });
      assert.equal(accepted.status, 200);
      const memberId = accepted.body.member.id;
      await call(module, "PATCH", `${base}/members/${memberId}`, {
        token: owner.token,
        body: { roles: ["admin"] },
      });
      const rejected = await invite(module, owner, id, "nope@example.com");
      const canceled = await call(module, "PATCH", `/organizations/invitations/${rejected.id}`, {
        token: owner.token,
        body: { action: "cancel", token: rejected.token },
      });
      assert.equal(canceled.status, 200);
      const added = await newUser(module, "added");
      const direct = await addMember(module, owner, id, added);
      await call(module, "DELETE", `${base}/members/${direct.id}`, { token: owner.token });
      const transfer = await call(module, "POST", `${base}/transfer-ownership`, {
        token: owner.token,
        body: { memberId },
      });
      assert.equal(transfer.status, 200, JSON.stringify(transfer.body));

      const page = await auditLog(id, invitee);
      assert.equal(page.hasNextPage, false);
      assert.equal(page.cursor, null);
      const actions = page.entries.map((entry: any) => entry.action);
      assert.deepEqual(actions, [
        "ownershipTransferred",
        "memberRemoved",
        "memberAdded",
        "invitationCanceled",
        "invitationCreated",
        "memberRolesChanged",
        "invitationAccepted",
        "memberAdded",
        "invitationCreated",
        "organizationUpdated",
        "organizationCreated",
      ]);
      const [transferred, removed, directAdd] = page.entries;
      assert.deepEqual(Object.keys(transferred).sort(), [
        "action",
        "actorUserId",
        "createdAt",
        "data",
        "id",
        "target",
      ]);
      assert.equal(transferred.actorUserId, owner.user.id);
      assert.deepEqual(transferred.target, { type: "member", id: memberId });
      assert.deepEqual(transferred.data.roles, ["owner", "admin"]);
      assert.deepEqual(transferred.data.previousOwnerRoles, ["admin"]);
      assert.deepEqual(removed.target, { type: "member", id: direct.id });
      assert.deepEqual(directAdd.data, { userId: added.user.id, roles: ["member"], via: "added" });
      assert.equal(directAdd.actorUserId, owner.user.id);
      const created = page.entries.at(-1);
      assert.deepEqual(created.target, { type: "organization", id });
      const times = page.entries.map((entry: any) => Date.parse(entry.createdAt));
      assert.deepEqual([...times].sort((a, b) => b - a), times, "newest first");
      // The order does not hang on the clock: PGlite's advances by milliseconds, so entries often
      // share a time. With every time made equal the log keeps the order of writing.
      await getAdapter().query(
        `UPDATE ${TABLE} SET created_at = '2026-01-01T00:00:00Z' WHERE organization_id = $1`,
        [id],
      );
      const tied = await auditLog(id, invitee);
      assert.deepEqual(tied.entries.map((entry: any) => entry.action), actions);
      const firstTwo = await auditLog(id, invitee, "pageSize=2");
      const nextTwo = await auditLog(id, invitee, `pageSize=2&cursor=${firstTwo.cursor}`);
      assert.deepEqual(
        [...firstTwo.entries, ...nextTwo.entries].map((entry: any) => entry.action),
        actions.slice(0, 4),
      );
      // No token anywhere: neither in the answer nor in the table.
      const text = JSON.stringify(page);
      for (const secret of [invitation.token, rejected.token, owner.token, invitee.token]) {
        assert.ok(!text.includes(secret));
      }
      const rows = await getAdapter().query<{ t: string }>(`SELECT data::text AS t FROM ${TABLE}`);
      for (const row of rows) {
        assert.ok(!row.t.includes(invitation.token) && !row.t.includes(rejected.token));
        assert.doesNotMatch(row.t, /"token"/);
      }
    });

    it("pages with cursors, and answers 400 for a bad page size or cursor", async () => {
      const owner = await newUser(module, "pager");
      const { id } = await createOrganization(module, owner);
      for (let i = 0; i < 4; i++) {
        await call(module, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body: { name: `Name ${i}` },
        });
      }
      const seen: string[] = [];
      let query = "pageSize=2";
      for (;;) {
        const page = await auditLog(id, owner, query);
        seen.push(...page.entries.map((entry: any) => entry.data.name ?? entry.action));
        if (!page.hasNextPage) break;
        query = `pageSize=2&cursor=${encodeURIComponent(page.cursor)}`;
      }
      assert.deepEqual(seen, ["Name 3", "Name 2", "Name 1", "Name 0", "Test organization"]);
      const bad = (q: string) =>
        call(module, "GET", `/organizations/${id}/audit-log?${q}`, { token: owner.token });
      assertError(await bad("pageSize=0"), 400, "INVALID_PAGE_SIZE");
      assertError(await bad("cursor=forged"), 400, "INVALID_CURSOR");
      // A cursor of another organization's log does not page this one.
      const other = await createOrganization(module, owner);
      await call(module, "PATCH", `/organizations/${other.id}`, {
        token: owner.token,
        body: { name: "Other" },
      });
      const otherPage = await auditLog(other.id, owner, "pageSize=1");
      assertError(
        await bad(`cursor=${encodeURIComponent(otherPage.cursor)}`),
        400,
        "INVALID_CURSOR",
      );
    });

    it("needs audit:read (403 for a member) and hides other organizations (404)", async () => {
      const owner = await newUser(module, "o1");
      const { id } = await createOrganization(module, owner);
      const member = await newUser(module, "m1");
      await addMember(module, owner, id, member);
      assertError(
        await call(module, "GET", `/organizations/${id}/audit-log`, { token: member.token }),
        403,
        "FORBIDDEN",
      );
      const stranger = await newUser(module, "o2");
      await createOrganization(module, stranger);
      assertError(
        await call(module, "GET", `/organizations/${id}/audit-log`, { token: stranger.token }),
        404,
        "NOT_FOUND",
      );
      assertError(
        await call(module, "GET", `/organizations/not-a-uuid/audit-log`, { token: owner.token }),
        404,
        "NOT_FOUND",
      );
      assertError(
        await call(module, "GET", `/organizations/${id}/audit-log`),
        401,
        "UNAUTHENTICATED",
      );
    });

    it("writes no entry for a change rolled back at commit", async () => {
      const db = getAdapter();
      const owner = await newUser(module, "rollback");
      const { id } = await createOrganization(module, owner);
      // A deferred constraint trigger fails the commit of any rename to "boom": the update, its
      // event and its audit entry were all written when the transaction is rolled back.
      await db.query(`CREATE OR REPLACE FUNCTION "${NAMESPACE}".refuse_boom() RETURNS trigger
        LANGUAGE plpgsql AS $$ BEGIN
          IF NEW.name = 'boom' THEN RAISE EXCEPTION 'boom refused at commit'; END IF;
          RETURN NEW;
        END $$`);
      await db.query(`CREATE CONSTRAINT TRIGGER refuse_boom
        AFTER UPDATE ON "${NAMESPACE}".organizations DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION "${NAMESPACE}".refuse_boom()`);
      try {
        const before = await auditLog(id, owner);
        const failed = await call(module, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body: { name: "boom" },
        });
        assert.equal(failed.status, 500);
        assert.deepEqual(await auditLog(id, owner), before, "no entry for the rolled-back change");
        const entry = await call(module, "GET", `/organizations/${id}`, { token: owner.token });
        assert.equal(entry.body.organization.name, "Test organization");
      } finally {
        await db.query(`DROP TRIGGER refuse_boom ON "${NAMESPACE}".organizations`);
      }
    });

    it("concurrent changes leave exactly one entry per committed change", async () => {
      const owner = await newUser(module, "racer");
      const { id } = await createOrganization(module, owner);
      const second = await newUser(module, "racer2");
      const secondMember = await addMember(module, owner, id, second, ["owner"]);
      const ownerMemberId = (await call(module, "GET", `/organizations/${id}`, {
        token: owner.token,
      })).body.member.id;
      const members: any[] = [];
      for (let i = 0; i < 4; i++) {
        members.push(await addMember(module, owner, id, await newUser(module, `racer-m${i}`)));
      }
      const start = (await auditLog(id, owner)).entries.length;
      // The two owners demote each other (one must stay), while renames, role changes and
      // invitations run alongside.
      const results = await Promise.all([
        call(module, "PATCH", `/organizations/${id}/members/${secondMember.id}`, {
          token: owner.token,
          body: { roles: ["member"] },
        }),
        call(module, "PATCH", `/organizations/${id}/members/${ownerMemberId}`, {
          token: second.token,
          body: { roles: ["member"] },
        }),
        ...members.map((member, i) =>
          call(module, "PATCH", `/organizations/${id}/members/${member.id}`, {
            token: i % 2 ? owner.token : second.token,
            body: { roles: ["admin"] },
          })
        ),
        ...[0, 1, 2].map((i) =>
          call(module, "PATCH", `/organizations/${id}`, {
            token: owner.token,
            body: { name: `Race ${i}` },
          })
        ),
        ...[0, 1, 2].map((i) =>
          call(module, "POST", `/organizations/${id}/invitations`, {
            token: owner.token,
            body: { email: `race-${i}@example.com` },
          })
        ),
      ]);
      const committed = results.filter((result) => result.status < 300).length;
      const statuses = results.map((result) => result.status);
      const demotions = statuses.slice(0, 2);
      assert.equal(demotions.filter((s) => s === 200).length, 1, `one demotion: ${statuses}`);
      assert.ok(demotions.includes(409) || demotions.includes(403), `${statuses}`);
      // The first demotion succeeded: `owner` demoted `second` and stays owner (and vice versa).
      const remaining = results[0].status === 200 ? owner : second;
      const all = (await auditLog(id, remaining)).entries;
      assert.equal(all.length - start, committed, `one entry per committed change: ${statuses}`);
      const expected = results.filter((r) => r.status < 300).length;
      assert.equal(all.slice(0, expected).length, expected);
      const owners = (await call(module, "GET", `/organizations/${id}/members`, {
        token: remaining.token,
      })).body.members.filter((m: any) => m.roles.includes("owner"));
      assert.equal(owners.length, 1);
    });
  });

  describe(`${name}: organizations.auditLogRetentionDays`, () => {
    it("the scheduled purge deletes the entries older than the retention only", async () => {
      const db = getAdapter();
      const purging = await organizationsModule(db, {
        namespace: NAMESPACE,
        organizations: { auditLogRetentionDays: 30 },
      });
      const owner = await newUser(purging, "purge");
      const { id } = await createOrganization(purging, owner);
      for (const name of ["Old", "Recent"]) {
        await call(purging, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body: { name },
        });
      }
      await db.query(
        `UPDATE ${TABLE} SET created_at = now() - interval '31 days'
         WHERE organization_id = $1 AND (data->>'name' = 'Old' OR action = 'organizationCreated')`,
        [id],
      );
      await db.query(
        `UPDATE ${TABLE} SET created_at = now() - interval '29 days'
         WHERE organization_id = $1 AND data->>'name' = 'Recent'`,
        [id],
      );
      // Registered on the module's worker.
      assert.ok(purging.api.hooks!.names.includes(AUDIT_LOG_PURGE_HOOK));
      // The hook's schedule, run by a worker whose clock reads 20 s past a daily slot (03:17
      // UTC): the slot comes due, its occurrence is inserted and runs the purge.
      const worker = durableHooks({
        adapter: db,
        namespace: NAMESPACE,
        hooks: { [AUDIT_LOG_PURGE_HOOK]: auditLogPurgeHook(db, authTableNames(NAMESPACE), 30) },
        now: () => new Date("2026-01-05T03:17:20.000Z"), // in the past: the slot is due
      });
      assert.equal((await worker.drain()).done, 1);
      assert.ok(await worker.find(AUDIT_LOG_PURGE_HOOK, "cron:2026-01-05T03:17Z"));
      const left = await db.query<{ action: string; name: string | null }>(
        `SELECT action, data->>'name' AS name FROM ${TABLE} WHERE organization_id = $1
         ORDER BY created_at`,
        [id],
      );
      assert.deepEqual(left, [{ action: "organizationUpdated", name: "Recent" }]);
      await purging.close();
    });
  });
});
