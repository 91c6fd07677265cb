// deno-lint-ignore-file no-explicit-any
// Invitations over HTTP on PGlite and PostgreSQL: create and re-send (token rotation), the
// organization's list and the invitee's pending list, accept / reject / cancel with the token,
// who may do which, 409 for non-pending, 410 for expired (marked so, also by the scheduled
// durable hook).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, uniqueEmail } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
  signUpAs,
  type TestUser,
} from "./helpers/organizations.ts";
import { verifyEmail } from "./helpers/verification.ts";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;

  before(async () => {
    db = getAdapter();
    module = await organizationsModule(db, { organizations: DIRECT_ADD });
  });

  function respond(user: TestUser, invitationId: string, action: string, token: string) {
    return call(module, "PATCH", `/organizations/invitations/${invitationId}`, {
      token: user.token,
      body: { action, token },
    });
  }

  async function statusOf(invitationId: string, namespace = "auth"): Promise<string> {
    const [row] = await db.query<{ status: string }>(
      `SELECT status FROM ${namespace}.invitations WHERE id = $1`,
      [invitationId],
    );
    return row.status;
  }

  describe(`${name}: POST /organizations/:id/invitations`, () => {
    it("creates a pending invitation with a 256-bit token and a 7-day expiry", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const email = uniqueEmail("invitee");
      const result = await call(module, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email: ` ${email.toUpperCase()} ` },
      });
      assert.equal(result.status, 201);
      const invitation = result.body.invitation;
      assert.deepEqual(Object.keys(invitation).sort(), [
        "createdAt",
        "email",
        "expiresAt",
        "id",
        "inviterId",
        "organizationId",
        "respondedAt",
        "roles",
        "status",
        "token",
      ]);
      assert.equal(invitation.email, email);
      assert.deepEqual(invitation.roles, ["member"]);
      assert.equal(invitation.status, "pending");
      assert.equal(invitation.inviterId, owner.user.id);
      assert.equal(invitation.organizationId, id);
      assert.equal(invitation.respondedAt, null);
      assert.match(invitation.token, /^[A-Za-z0-9_-]{43}$/, "32 random bytes, base64url");
      const [row] = await db.query<{ days: number }>(
        `SELECT extract(epoch FROM expires_at - created_at)::float8 / 86400 AS days
         FROM auth.invitations WHERE id = $1`,
        [invitation.id],
      );
      assert.equal(row.days, 7);
    });

    it("re-inviting a pending email rotates its token (same invitation, old token dead)", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const first = await invite(module, owner, id, invitee.user.email);
      const again = await call(module, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email: invitee.user.email, roles: ["admin"] },
      });
      assert.equal(again.status, 200);
      assert.equal(again.body.invitation.id, first.id);
      assert.notEqual(again.body.invitation.token, first.token);
      assert.deepEqual(again.body.invitation.roles, ["admin"]);
      assertError(
        await respond(invitee, first.id, "accept", first.token),
        403,
        "INVALID_INVITATION_TOKEN",
      );
      const accepted = await respond(invitee, first.id, "accept", again.body.invitation.token);
      assert.equal(accepted.status, 200);
      assert.deepEqual(accepted.body.member.roles, ["admin"]);
    });

    it("refuses the email of a member (409), owner invitations from admins (403), unknown roles (400)", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const member = await newUser(module);
      const { id } = await createOrganization(module, owner);
      await addMember(module, owner, id, admin, ["admin"]);
      await addMember(module, owner, id, member);
      const path = `/organizations/${id}/invitations`;
      assertError(
        await call(module, "POST", path, {
          token: admin.token,
          body: { email: member.user.email.toUpperCase() },
        }),
        409,
        "ALREADY_MEMBER",
      );
      assertError(
        await call(module, "POST", path, {
          token: admin.token,
          body: { email: uniqueEmail(), roles: ["owner"] },
        }),
        403,
        "FORBIDDEN",
      );
      assertError(
        await call(module, "POST", path, {
          token: owner.token,
          body: { email: uniqueEmail(), roles: ["root"] },
        }),
        400,
        "VALIDATION_ERROR",
      );
      assertError(
        await call(module, "POST", path, { token: owner.token, body: { email: "not-an-email" } }),
        400,
        "VALIDATION_ERROR",
      );
      const asOwner = await invite(module, owner, id, uniqueEmail(), ["owner"]);
      assert.deepEqual(asOwner.roles, ["owner"]);
    });
  });

  describe(`${name}: listing invitations`, () => {
    it("lists an organization's invitations of every status, without tokens, for owners and admins", async () => {
      const owner = await newUser(module);
      const a = await newUser(module);
      const b = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const ia = await invite(module, owner, id, a.user.email);
      const ib = await invite(module, owner, id, b.user.email);
      const ic = await invite(module, owner, id, uniqueEmail());
      await respond(a, ia.id, "accept", ia.token);
      await respond(b, ib.id, "reject", ib.token);
      const result = await call(module, "GET", `/organizations/${id}/invitations`, {
        token: owner.token,
      });
      assert.equal(result.status, 200);
      assert.deepEqual(Object.keys(result.body).sort(), ["cursor", "hasNextPage", "invitations"]);
      assert.deepEqual(
        result.body.invitations.map((i: any) => [i.id, i.status, "token" in i]),
        [[ia.id, "accepted", false], [ib.id, "rejected", false], [ic.id, "pending", false]],
      );
      assert.ok(result.body.invitations[0].respondedAt);
      const page = await call(module, "GET", `/organizations/${id}/invitations?pageSize=2`, {
        token: owner.token,
      });
      assert.equal(page.body.invitations.length, 2);
      assert.equal(page.body.hasNextPage, true);
    });

    it("lists the caller's pending, unexpired invitations with their organizations, without tokens", async () => {
      const invitee = await newUser(module, "pending");
      const owner = await newUser(module);
      const orgs = [];
      for (let i = 0; i < 4; i++) orgs.push(await createOrganization(module, owner));
      const live = await invite(module, owner, orgs[0].id, invitee.user.email);
      const expired = await invite(module, owner, orgs[1].id, invitee.user.email);
      const rejected = await invite(module, owner, orgs[2].id, invitee.user.email);
      await invite(module, owner, orgs[3].id, uniqueEmail("someone-else"));
      const second = await invite(module, owner, orgs[3].id, invitee.user.email);
      await db.query(
        "UPDATE auth.invitations SET expires_at = now() - interval '1 second' WHERE id = $1",
        [expired.id],
      );
      await respond(invitee, rejected.id, "reject", rejected.token);
      const result = await call(module, "GET", "/organizations/invitations", {
        token: invitee.token,
      });
      assert.equal(result.status, 200);
      assert.deepEqual(
        result.body.invitations.map((
          e: any,
        ) => [e.invitation.id, "token" in e.invitation, e.organization.id]),
        [[live.id, false, orgs[0].id], [second.id, false, orgs[3].id]],
      );
      const me = await call(module, "GET", "/me", { token: invitee.token });
      assert.deepEqual(me.body.invitations.map((e: any) => e.invitation.id), [live.id, second.id]);
      assert.ok(me.body.invitations.every((e: any) => !("token" in e.invitation)));
      const firstPage = await call(module, "GET", "/organizations/invitations?pageSize=1", {
        token: invitee.token,
      });
      assert.equal(firstPage.body.invitations.length, 1);
      assert.equal(firstPage.body.hasNextPage, true);
    });
  });

  describe(`${name}: PATCH /organizations/invitations/:id`, () => {
    it("accept creates the membership with the invitation's roles, once", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const invitation = await invite(module, owner, id, invitee.user.email, ["admin", "member"]);
      const accepted = await respond(invitee, invitation.id, "accept", invitation.token);
      assert.equal(accepted.status, 200);
      assert.deepEqual(Object.keys(accepted.body).sort(), ["invitation", "member", "organization"]);
      assert.equal(accepted.body.invitation.status, "accepted");
      assert.ok(accepted.body.invitation.respondedAt);
      assert.ok(!("token" in accepted.body.invitation));
      assert.deepEqual(accepted.body.member.roles, ["admin", "member"]);
      assert.equal(accepted.body.member.userId, invitee.user.id);
      assert.equal(accepted.body.organization.id, id);
      // The credential had no active organization: it now works in the one it joined.
      const active = await call(module, "GET", "/organizations/active", { token: invitee.token });
      assert.equal(active.body.organization.id, id);
      assertError(
        await respond(invitee, invitation.id, "accept", invitation.token),
        409,
        "INVITATION_NOT_PENDING",
      );
      assertError(
        await respond(invitee, invitation.id, "reject", invitation.token),
        409,
        "INVITATION_NOT_PENDING",
      );
      assertError(
        await respond(owner, invitation.id, "cancel", invitation.token),
        409,
        "INVITATION_NOT_PENDING",
      );
      const [{ n }] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auth.members WHERE organization_id = $1 AND user_id = $2",
        [id, invitee.user.id],
      );
      assert.equal(n, 1);
    });

    it("needs the caller's email to match and the right token", async () => {
      const owner = await newUser(module);
      const member = await newUser(module);
      const invitee = await newUser(module);
      const stranger = await newUser(module);
      const { id } = await createOrganization(module, owner);
      await addMember(module, owner, id, member);
      const invitation = await invite(module, owner, id, invitee.user.email);
      assertError(
        await respond(stranger, invitation.id, "accept", invitation.token),
        404,
        "NOT_FOUND",
      );
      assertError(
        await respond(member, invitation.id, "accept", invitation.token),
        403,
        "FORBIDDEN",
      );
      assertError(
        await respond(owner, invitation.id, "reject", invitation.token),
        403,
        "FORBIDDEN",
      );
      const wrong = invitation.token.slice(0, -1) + (invitation.token.endsWith("A") ? "B" : "A");
      for (const action of ["accept", "reject", "cancel"]) {
        const actor = action === "cancel" ? owner : invitee;
        assertError(
          await respond(actor, invitation.id, action, wrong),
          403,
          "INVALID_INVITATION_TOKEN",
        );
        assertError(
          await respond(actor, invitation.id, action, "short"),
          403,
          "INVALID_INVITATION_TOKEN",
        );
      }
      const noToken = await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: owner.token,
        body: { action: "cancel" },
      });
      assertError(noToken, 400, "VALIDATION_ERROR");
      assertError(
        await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
          token: invitee.token,
          body: { action: "approve", token: invitation.token },
        }),
        400,
        "VALIDATION_ERROR",
      );
      assertError(
        await respond(invitee, crypto.randomUUID(), "accept", invitation.token),
        404,
        "NOT_FOUND",
      );
      assert.equal(await statusOf(invitation.id), "pending");
    });

    it("reject ends the invitation without a membership", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const invitation = await invite(module, owner, id, invitee.user.email);
      const rejected = await respond(invitee, invitation.id, "reject", invitation.token);
      assert.equal(rejected.status, 200);
      assert.deepEqual(Object.keys(rejected.body), ["invitation"]);
      assert.equal(rejected.body.invitation.status, "rejected");
      assertError(
        await call(module, "GET", `/organizations/${id}`, { token: invitee.token }),
        404,
        "NOT_FOUND",
      );
      assertError(
        await respond(invitee, invitation.id, "accept", invitation.token),
        409,
        "INVITATION_NOT_PENDING",
      );
    });

    it("cancel is for the inviter (while a member) and owners/admins, not for other members", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const member = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const adminMember = await addMember(module, owner, id, admin, ["admin"]);
      await addMember(module, owner, id, member);
      const invitation = await invite(module, admin, id, invitee.user.email);
      assertError(
        await respond(member, invitation.id, "cancel", invitation.token),
        403,
        "FORBIDDEN",
      );
      assertError(
        await respond(invitee, invitation.id, "cancel", invitation.token),
        403,
        "FORBIDDEN",
      );
      // Demoted to a plain member, the inviter may still cancel their own invitation.
      await call(module, "PATCH", `/organizations/${id}/members/${adminMember.id}`, {
        token: owner.token,
        body: { roles: ["member"] },
      });
      const canceled = await respond(admin, invitation.id, "cancel", invitation.token);
      assert.equal(canceled.status, 200);
      assert.equal(canceled.body.invitation.status, "canceled");
      assertError(
        await respond(invitee, invitation.id, "accept", invitation.token),
        409,
        "INVITATION_NOT_PENDING",
      );
      const byOwner = await invite(module, admin, id, uniqueEmail()).catch(() => null);
      assert.equal(byOwner, null, "a plain member can no longer invite");
      const other = await invite(module, owner, id, uniqueEmail());
      assert.equal((await respond(owner, other.id, "cancel", other.token)).status, 200);
    });

    it("answers 410 for an expired invitation and marks it expired for good", async () => {
      const owner = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const invitation = await invite(module, owner, id, invitee.user.email);
      await db.query(
        "UPDATE auth.invitations SET expires_at = now() - interval '1 second' WHERE id = $1",
        [invitation.id],
      );
      assert.equal(await statusOf(invitation.id), "pending");
      assertError(
        await respond(invitee, invitation.id, "accept", invitation.token),
        410,
        "INVITATION_EXPIRED",
      );
      assert.equal(await statusOf(invitation.id), "expired");
      for (const action of ["accept", "reject"]) {
        assertError(
          await respond(invitee, invitation.id, action, invitation.token),
          410,
          "INVITATION_EXPIRED",
        );
      }
      assertError(
        await respond(owner, invitation.id, "cancel", invitation.token),
        410,
        "INVITATION_EXPIRED",
      );
      const list = await call(module, "GET", `/organizations/${id}/invitations`, {
        token: owner.token,
      });
      assert.equal(list.body.invitations[0].status, "expired");
      // A new invitation of the same email is a new one, not a rotation of the expired one.
      const fresh = await call(module, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email: invitee.user.email },
      });
      assert.equal(fresh.status, 201);
      assert.notEqual(fresh.body.invitation.id, invitation.id);
    });
  });

  describe(`${name}: expiry by the scheduled durable hook`, () => {
    it("marks a pending invitation expired when its expiry comes, and notifies", async () => {
      const expiredEvents: any[] = [];
      // Its own namespace: drain() runs every due occurrence of the namespace.
      const shortLived = await organizationsModule(db, {
        namespace: "auth_expiry",
        organizations: {
          hooks: { invitationExpired: (payload) => void expiredEvents.push(payload) },
        },
      });
      const owner = await newUser(shortLived);
      const { id } = await createOrganization(shortLived, owner);
      const invitation = await invite(shortLived, owner, id, uniqueEmail());
      assert.equal(await statusOf(invitation.id, "auth_expiry"), "pending");
      const hooks = shortLived.api.hooks!;
      assert.deepEqual(await hooks.drain(), { done: 0, retried: 0, failed: 0 }, "not yet due");
      // The expiry comes: the database's clock decides it, so the invitation's expiry and the
      // check scheduled at it are moved into the past instead of waiting a week.
      await db.query(
        `UPDATE auth_expiry.invitations SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [invitation.id],
      );
      await db.query(
        `UPDATE auth_expiry.hook_occurrences SET due_at = now() - interval '1 second'
          WHERE status = 'pending' AND payload->>'invitationId' = $1`,
        [invitation.id],
      );
      // The check marks it expired, then the invitationExpired event is delivered.
      assert.deepEqual(await hooks.drain(), { done: 2, retried: 0, failed: 0 });
      assert.equal(await statusOf(invitation.id, "auth_expiry"), "expired");
      assert.deepEqual(expiredEvents.map((e) => [e.invitation.id, e.invitation.status]), [
        [invitation.id, "expired"],
      ]);
      assert.ok(!("token" in expiredEvents[0].invitation));
    });
  });

  describe(`${name}: invitations reach verified addresses only`, () => {
    it("an unverified invitee sees none and may not answer (403 EMAIL_NOT_VERIFIED) until verified", async () => {
      const owner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const email = uniqueEmail("unverified");
      const invitation = await invite(module, owner, id, email);
      const invitee = await signUpAs(module, email, { verified: false });
      const listed = await call(module, "GET", "/organizations/invitations", {
        token: invitee.token,
      });
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body, { invitations: [], cursor: null, hasNextPage: false });
      // The same pager as for everyone: bad paging input is refused the same way.
      assertError(
        await call(module, "GET", "/organizations/invitations?cursor=forged", {
          token: invitee.token,
        }),
        400,
        "INVALID_CURSOR",
      );
      const me = await call(module, "GET", "/me", { token: invitee.token });
      assert.deepEqual(me.body.invitations, []);
      for (const action of ["accept", "reject"]) {
        assertError(
          await respond(invitee, invitation.id, action, invitation.token),
          403,
          "EMAIL_NOT_VERIFIED",
        );
      }
      assert.equal(await statusOf(invitation.id), "pending");
      await verifyEmail(module, invitee.user.id);
      const after = await call(module, "GET", "/organizations/invitations", {
        token: invitee.token,
      });
      assert.deepEqual(after.body.invitations.map((e: any) => e.invitation.id), [invitation.id]);
      const accepted = await respond(invitee, invitation.id, "accept", invitation.token);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    });

    it("canceling stays with the inviter and managers, whatever the invitee's verification", async () => {
      const owner = await newUser(module, "owner", { verified: false });
      const { id } = await createOrganization(module, owner);
      const invitation = await invite(module, owner, id, uniqueEmail("cancel"));
      const canceled = await respond(owner, invitation.id, "cancel", invitation.token);
      assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    });
  });

  describe(`${name}: the inviter's rights at acceptance`, () => {
    it("409 INVITATION_REVOKED once the inviter is no manager; the invitation stays pending, a re-send revives it", async () => {
      const owner = await newUser(module);
      const admin = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const adminMember = await addMember(module, owner, id, admin, ["admin"]);
      const invitation = await invite(module, admin, id, invitee.user.email);
      const removed = await call(
        module,
        "DELETE",
        `/organizations/${id}/members/${adminMember.id}`,
        {
          token: owner.token,
        },
      );
      assert.ok(removed.status < 300, JSON.stringify(removed.body));
      assertError(
        await respond(invitee, invitation.id, "accept", invitation.token),
        409,
        "INVITATION_REVOKED",
      );
      assert.equal(await statusOf(invitation.id), "pending");
      // A current owner re-sending it makes it theirs (new token, new inviter): valid again.
      const resent = await invite(module, owner, id, invitee.user.email);
      assert.equal(resent.id, invitation.id, "the same invitation, now the owner's");
      const accepted = await respond(invitee, resent.id, "accept", resent.token);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    });

    it("an owner invitation needs its inviter to still be an owner; a member invitation survives owner → admin", async () => {
      const owner = await newUser(module);
      const coOwner = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const coMember = await addMember(module, owner, id, coOwner, ["owner"]);
      const future = await newUser(module);
      const plain = await newUser(module);
      const asOwner = await invite(module, coOwner, id, future.user.email, ["owner"]);
      const asMember = await invite(module, coOwner, id, plain.user.email);
      const demoted = await call(module, "PATCH", `/organizations/${id}/members/${coMember.id}`, {
        token: owner.token,
        body: { roles: ["admin"] },
      });
      assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
      assertError(
        await respond(future, asOwner.id, "accept", asOwner.token),
        409,
        "INVITATION_REVOKED",
      );
      const rejected = await respond(future, asOwner.id, "reject", asOwner.token);
      assert.equal(rejected.status, 200, "rejecting needs no rights of the inviter");
      const accepted = await respond(plain, asMember.id, "accept", asMember.token);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    });
  });
});
