// deno-lint-ignore-file no-explicit-any
// Finding 4, invitation takeover: whoever signs up with the invitee's address must not see or
// accept the invitation until they prove they read its mail; no answer but the inviter's creation
// answer carries an invitation token, and neither the invitations table nor the hook table keeps
// one in plain text; an invitation dies with its inviter's rights; email verification tokens are
// single-use, expiring, hashed at rest and bound to the address they were sent to.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { OrganizationEventPayloads } from "../../../src/auth/mod.ts";
import { type AuthTarget, request, serveAuth } from "../harness.ts";

interface Mail {
  user: { id: string; email: string };
  email: string;
  token: string;
  url: string;
}

interface Answer {
  status: number;
  text: string;
  body: any;
}

function sha256(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** A client of one target: JSON requests with a Bearer credential (or none). */
function client(target: AuthTarget) {
  async function send(method: string, path: string, token?: string, body?: unknown) {
    return await request(target, method, path, { token, body }) as Answer;
  }
  let count = 0;
  return {
    send,
    async signUp(label: string, email?: string) {
      const address = email ?? `${label}-${++count}-${crypto.randomUUID().slice(0, 6)}@example.com`;
      const answer = await send("POST", "/sign-up", undefined, {
        email: address,
        password: "correct horse battery",
      });
      assert.equal(answer.status, 200, answer.text);
      return { token: answer.body.token as string, user: answer.body.user };
    },
  };
}

describe("attack: invitation takeover (finding 4)", () => {
  let target: AuthTarget;
  let http: ReturnType<typeof client>;
  const mails: Mail[] = [];
  const delivered: OrganizationEventPayloads["invitationCreated"][] = [];

  before(async () => {
    target = await serveAuth({
      sendVerificationEmail: (mail: Mail) => {
        mails.push(mail);
      },
      organizations: {
        // The set-up makes admins by direct adds (the consent policy has its own attacks).
        canAddMember: () => true,
        hooks: { invitationCreated: (payload) => void delivered.push(payload) },
      },
    });
    http = client(target);
  });
  after(() => target.close());

  /** Signs up and verifies through the real route with the token of the captured mail. */
  async function verifiedUser(label: string, email?: string) {
    const user = await http.signUp(label, email);
    const mail = mails.findLast((m) => m.user.id === user.user.id);
    assert.ok(mail, "sign-up sends a verification mail");
    const answer = await http.send("POST", "/verify-email", undefined, { token: mail.token });
    assert.equal(answer.status, 200, answer.text);
    return user;
  }

  async function organizationOf(owner: { token: string }) {
    const answer = await http.send("POST", "/organizations", owner.token, {
      name: "Target",
      slug: `target-${crypto.randomUUID().slice(0, 8)}`,
    });
    assert.equal(answer.status, 201, answer.text);
    return answer.body.organization.id as string;
  }

  async function invite(
    actor: { token: string },
    organizationId: string,
    email: string,
    roles?: string[],
  ) {
    const answer = await http.send(
      "POST",
      `/organizations/${organizationId}/invitations`,
      actor.token,
      {
        email,
        ...(roles ? { roles } : {}),
      },
    );
    assert.ok(answer.status === 201 || answer.status === 200, answer.text);
    return answer.body.invitation as { id: string; token: string };
  }

  it("an account with the invitee's address but no proof of it neither sees nor accepts the invitation", async () => {
    const owner = await verifiedUser("owner");
    const organizationId = await organizationOf(owner);
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invitation = await invite(owner, organizationId, victim);
    // The attacker registers the victim's address first (the victim has no account yet).
    const attacker = await http.signUp("attacker", victim);
    assert.equal(attacker.user.emailVerified, false);
    const listed = await http.send("GET", "/organizations/invitations", attacker.token);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.invitations, []);
    const me = await http.send("GET", "/me", attacker.token);
    assert.deepEqual(me.body.invitations, []);
    // Even holding a leaked token (a forwarded mail), the unproven account cannot use it.
    for (const action of ["accept", "reject"]) {
      const answer = await http.send(
        "PATCH",
        `/organizations/invitations/${invitation.id}`,
        attacker.token,
        { action, token: invitation.token },
      );
      assert.equal(answer.status, 403, answer.text);
      assert.equal(answer.body.error.code, "EMAIL_NOT_VERIFIED");
    }
    const members = await http.send("GET", `/organizations/${organizationId}/members`, owner.token);
    assert.equal(members.body.members.length, 1, "nobody joined");
  });

  it("no answer but the inviter's creation answer carries the token, and no table keeps it in plain text", async () => {
    const owner = await verifiedUser("owner");
    const organizationId = await organizationOf(owner);
    const invitee = await verifiedUser("invitee");
    const invitation = await invite(owner, organizationId, invitee.user.email, ["admin"]);
    const token = invitation.token;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const reads = [
      await http.send("GET", `/organizations/${organizationId}/invitations`, owner.token),
      await http.send("GET", "/organizations/invitations", invitee.token),
      await http.send("GET", "/me", invitee.token),
      await http.send("GET", "/me", owner.token),
    ];
    assert.equal(reads[1].body.invitations.length, 1, "the verified invitee sees it");
    for (const read of reads) {
      assert.equal(read.status, 200);
      assert.ok(!read.text.includes(token), `a read leaks the token: ${read.text}`);
    }
    const accepted = await http.send(
      "PATCH",
      `/organizations/invitations/${invitation.id}`,
      invitee.token,
      { action: "accept", token },
    );
    assert.equal(accepted.status, 200, accepted.text);
    assert.ok(!accepted.text.includes(token));
    // At rest: the invitation keeps its SHA-256 only, and the event that mails it keeps the token
    // sealed, yet the application's handler still receives it.
    const [row] = await target.db.query<Record<string, unknown>>(
      `SELECT * FROM ${target.namespace}.invitations WHERE id = $1`,
      [invitation.id],
    );
    assert.equal(row.token_hash, sha256(token));
    assert.ok(!JSON.stringify(row).includes(token));
    const stored = await target.db.query<{ payload: unknown }>(
      `SELECT payload FROM ${target.namespace}.hook_occurrences WHERE name = 'invitationCreated'`,
    );
    assert.ok(stored.length > 0, "the event is recorded");
    for (const { payload } of stored) {
      assert.ok(!JSON.stringify(payload).includes(token), "the hook table keeps the token");
    }
    const page = await target.module.api.hooks!.list({ name: "invitationCreated" });
    assert.ok(!JSON.stringify(page).includes(token), "the hooks API shows the token");
    await target.module.api.hooks!.drain();
    const mine = delivered.find((p) => p.invitation.id === invitation.id);
    assert.equal(mine?.invitation.token, token, "the handler receives the token to mail it");
  });

  it("an invitation dies with its inviter's rights: removed admin, demoted admin, demoted owner", async () => {
    const owner = await verifiedUser("owner");
    const organizationId = await organizationOf(owner);
    const addAdmin = async () => {
      const admin = await verifiedUser("admin");
      const added = await http.send(
        "POST",
        `/organizations/${organizationId}/members`,
        owner.token,
        {
          userId: admin.user.id,
          roles: ["admin"],
        },
      );
      assert.equal(added.status, 201, added.text);
      return { ...admin, memberId: added.body.member.id as string };
    };
    const accept = async (invitee: { token: string }, invitation: { id: string; token: string }) =>
      await http.send("PATCH", `/organizations/invitations/${invitation.id}`, invitee.token, {
        action: "accept",
        token: invitation.token,
      });

    // An admin invites, then is removed: the invitation no longer grants anything.
    const removed = await addAdmin();
    const inviteeA = await verifiedUser("invitee");
    const fromRemoved = await invite(removed, organizationId, inviteeA.user.email);
    const gone = await http.send(
      "DELETE",
      `/organizations/${organizationId}/members/${removed.memberId}`,
      owner.token,
    );
    assert.ok(gone.status === 200 || gone.status === 204, gone.text);
    const refusedA = await accept(inviteeA, fromRemoved);
    assert.equal(refusedA.status, 409, refusedA.text);
    assert.equal(refusedA.body.error.code, "INVITATION_REVOKED");

    // An admin invites, then is demoted to member.
    const demoted = await addAdmin();
    const inviteeB = await verifiedUser("invitee");
    const fromDemoted = await invite(demoted, organizationId, inviteeB.user.email);
    const changed = await http.send(
      "PATCH",
      `/organizations/${organizationId}/members/${demoted.memberId}`,
      owner.token,
      { roles: ["member"] },
    );
    assert.equal(changed.status, 200, changed.text);
    const refusedB = await accept(inviteeB, fromDemoted);
    assert.equal(refusedB.status, 409, refusedB.text);
    assert.equal(refusedB.body.error.code, "INVITATION_REVOKED");

    // A co-owner invites as owner, then is demoted to admin: still a manager, no longer an owner.
    const coOwner = await addAdmin();
    await http.send(
      "PATCH",
      `/organizations/${organizationId}/members/${coOwner.memberId}`,
      owner.token,
      {
        roles: ["owner"],
      },
    );
    const inviteeC = await verifiedUser("invitee");
    const asOwner = await invite(coOwner, organizationId, inviteeC.user.email, ["owner"]);
    const asAdmin = await invite(coOwner, organizationId, (await verifiedUser("x")).user.email);
    await http.send(
      "PATCH",
      `/organizations/${organizationId}/members/${coOwner.memberId}`,
      owner.token,
      {
        roles: ["admin"],
      },
    );
    const refusedC = await accept(inviteeC, asOwner);
    assert.equal(refusedC.status, 409, refusedC.text);
    assert.equal(refusedC.body.error.code, "INVITATION_REVOKED");
    assert.ok(asAdmin.id, "an invitation below the inviter's remaining rights stays valid");

    const members = await http.send("GET", `/organizations/${organizationId}/members`, owner.token);
    const ids = members.body.members.map((m: any) => m.userId);
    for (const invitee of [inviteeA, inviteeB, inviteeC]) {
      assert.ok(!ids.includes(invitee.user.id), "a revoked invitation added a member");
    }
  });

  it("a verification token is single-use, hashed at rest, replaced by a resend and bound to its address", async () => {
    const user = await http.signUp("verify");
    const first = mails.findLast((m) => m.user.id === user.user.id)!;
    assert.equal(first.email, user.user.email);
    assert.ok(first.url.includes(encodeURIComponent(first.token)), first.url);
    const rows = await target.db.query<Record<string, unknown>>(
      `SELECT * FROM ${target.namespace}.email_verifications WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].token_hash, sha256(first.token));
    assert.ok(!JSON.stringify(rows).includes(first.token), "the token is stored in plain text");

    // A resend invalidates the first token.
    const resent = await http.send("POST", "/verify-email/resend", user.token, {});
    assert.equal(resent.status, 204, resent.text);
    const second = mails.findLast((m) => m.user.id === user.user.id)!;
    assert.notEqual(second.token, first.token);
    const stale = await http.send("POST", "/verify-email", undefined, { token: first.token });
    assert.equal(stale.status, 400, stale.text);
    assert.equal(stale.body.error.code, "INVALID_VERIFICATION_TOKEN");

    // The second works once, then never again.
    const ok = await http.send("POST", "/verify-email", undefined, { token: second.token });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.user.emailVerified, true);
    const again = await http.send("POST", "/verify-email", undefined, { token: second.token });
    assert.equal(again.status, 400, again.text);

    // Garbage of every shape is a 400, never a 5xx.
    for (const token of ["", "x", "a".repeat(43), "\u0000".repeat(43), "é".repeat(200), 42, null]) {
      const answer = await http.send("POST", "/verify-email", undefined, { token });
      assert.equal(answer.status, 400, `${JSON.stringify(token)}: ${answer.text}`);
    }
  });

  it("a verification token sent to an old address proves nothing after the address changed", async () => {
    const user = await http.signUp("moved");
    const mail = mails.findLast((m) => m.user.id === user.user.id)!;
    const moved = `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await target.db.query(`UPDATE ${target.namespace}.users SET email = $2 WHERE id = $1`, [
      user.user.id,
      moved,
    ]);
    const answer = await http.send("POST", "/verify-email", undefined, { token: mail.token });
    assert.equal(answer.status, 400, answer.text);
    const me = await http.send("GET", "/me", user.token);
    assert.equal(me.body.user.emailVerified, false);
  });

  it("an expired verification token is refused with 410", async () => {
    const user = await http.signUp("late");
    const mail = mails.findLast((m) => m.user.id === user.user.id)!;
    await target.db.query(
      `UPDATE ${target.namespace}.email_verifications SET expires_at = now() - interval '1 second'
       WHERE user_id = $1`,
      [user.user.id],
    );
    const answer = await http.send("POST", "/verify-email", undefined, { token: mail.token });
    assert.equal(answer.status, 410, answer.text);
    assert.equal(answer.body.error.code, "VERIFICATION_TOKEN_EXPIRED");
  });
});
