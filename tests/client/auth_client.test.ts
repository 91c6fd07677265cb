// The typed client against the auth module served over real HTTP (PGlite): the cookie flow (a
// cookie-keeping fetch, as a browser has), the Bearer flow, the whole organizations API, and the
// error results. Every answer is also parsed with the route's response schema.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as responses from "../helpers/auth_responses.ts";
import { createAuthClient } from "../../src/client/mod.ts";
import { DIRECT_ADD } from "../auth/helpers/organizations.ts";
import { type Mailbox, withMailbox } from "../auth/helpers/verification.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

const PASSWORD = "correct horse battery";
const mailbox: Mailbox = new Map();
let target: AuthTarget;
let emails = 0;

function email(tag: string): string {
  return `client-${tag}-${++emails}@example.com`;
}

/** The token of the latest verification mail of a user. */
function mailedToken(userId: string): string {
  const mail = mailbox.get(userId)?.at(-1);
  assert.ok(mail, "a verification mail");
  return mail.token;
}

before(async () => {
  target = await serveAuth(withMailbox({ organizations: DIRECT_ADD }, mailbox));
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

describe("typed auth client", () => {
  it("signs up, reads /me and /session, signs out with the cookie", async () => {
    const jar = cookieJar();
    const client = createAuthClient({ baseUrl: `${target.url}/`, fetch: jar.fetch });
    const address = email("cookie");
    const signedUp = expectData(
      await client.signUp({ email: ` ${address.toUpperCase()} `, password: PASSWORD }),
      responses.credentialResponse,
    );
    assert.equal(signedUp.user.email, address);
    assert.ok(jar.cookies.has("service_auth"), "the cookie was set");

    const me = expectData(await client.me(), responses.meResponse);
    assert.equal(me.user.id, signedUp.user.id);
    assert.deepEqual(me.organizations, []);
    assert.equal(me.activeOrganization, null);
    const session = expectData(await client.session(), responses.sessionResponse);
    assert.equal(session.expiresAt, signedUp.expiresAt);

    const verified = expectData(
      await client.verifyEmail({ token: mailedToken(signedUp.user.id) }),
      responses.verifyEmailResponse,
    );
    assert.equal(verified.user.emailVerified, true);
    expectError(await client.resendVerificationEmail(), 409, "EMAIL_ALREADY_VERIFIED");

    assert.deepEqual(await client.signOut(), { data: null, error: null });
    assert.ok(!jar.cookies.has("service_auth"), "the cookie was cleared");
    const after = expectError(await client.me(), 401, "UNAUTHENTICATED");
    assert.match(after.message, /.+/);
  });

  it("signs in with the Bearer token and no cookie", async () => {
    const address = email("bearer");
    let token: string | null = null;
    const client = createAuthClient({ baseUrl: target.url, token: () => token });
    expectError(await client.me(), 401, "UNAUTHENTICATED");
    expectData(
      await client.signUp({ email: address, password: PASSWORD }),
      responses.credentialResponse,
    );
    const answer = await client.signIn({ email: address, password: PASSWORD });
    assert.ok(answer.data && "token" in answer.data, "no second factor: the credential");
    const signedIn = expectData({ data: answer.data, error: null }, responses.credentialResponse);
    token = signedIn.token;
    assert.equal(expectData(await client.me(), responses.meResponse).user.email, address);
    const fixed = createAuthClient({ baseUrl: target.url, token: signedIn.token });
    expectData(await fixed.session(), responses.sessionResponse);
    assert.deepEqual(await client.signOut(), { data: null, error: null });
    expectError(await fixed.session(), 401, "UNAUTHENTICATED");
  });

  it("answers typed errors: codes, issues, Retry-After, network failures", async () => {
    const client = createAuthClient({ baseUrl: target.url });
    const address = email("errors");
    expectData(
      await client.signUp({ email: address, password: PASSWORD }),
      responses.credentialResponse,
    );
    expectError(await client.signUp({ email: address, password: PASSWORD }), 409, "EMAIL_TAKEN");
    expectError(
      await client.signIn({ email: address, password: "wrong password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    const invalid = expectError(
      await client.signUp({ email: "not an address", password: "short" }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(invalid.issues?.map((issue) => issue.path).sort(), [
      "body.email",
      "body.password",
    ]);

    const limited = await serveAuth({ rateLimit: { window: 60, max: 1, perAccount: false } });
    try {
      const strict = createAuthClient({ baseUrl: limited.url });
      await strict.signIn({ email: address, password: PASSWORD });
      const refused = expectError(
        await strict.signIn({ email: address, password: PASSWORD }),
        429,
        "RATE_LIMITED",
      );
      assert.ok(refused.retryAfter !== undefined && refused.retryAfter > 0, "retryAfter");
    } finally {
      await limited.close();
    }

    const closed = await serveAuth();
    await closed.close();
    const offline = createAuthClient({ baseUrl: closed.url });
    expectError(await offline.me(), 0, "NETWORK_ERROR");

    const elsewhere = createAuthClient({ baseUrl: `${target.origin}/api/nothing-here` });
    expectError(await elsewhere.me(), 404, "NOT_FOUND");
  });

  it("drives the organizations API: organizations, active organization, members, invitations", async () => {
    const ownerJar = cookieJar();
    const owner = createAuthClient({ baseUrl: target.url, fetch: ownerJar.fetch });
    const ownerUser = expectData(
      await owner.signUp({ email: email("owner"), password: PASSWORD }),
      responses.credentialResponse,
    ).user;

    const created = expectData(
      await owner.organizations.create({ name: "Acme Tools", metadata: { plan: "pro" } }),
      responses.createdOrganizationResponse,
    );
    const organizationId = created.organization.id;
    assert.equal(created.organization.slug, "acme-tools");
    assert.deepEqual(created.member.roles, ["owner"]);

    const page = expectData(
      await owner.organizations.list({ pageSize: 1 }),
      responses.organizationPageResponse,
    );
    assert.deepEqual(page.organizations.map((entry) => entry.organization.id), [organizationId]);
    assert.equal(page.hasNextPage, false);
    expectError(await owner.organizations.list({ pageSize: 0 }), 400, "INVALID_PAGE_SIZE");
    expectError(await owner.organizations.list({ cursor: "forged" }), 400, "INVALID_CURSOR");

    const fetched = expectData(
      await owner.organizations.get(organizationId),
      responses.organizationEntryResponse,
    );
    assert.equal(fetched.organization.name, "Acme Tools");
    expectError(await owner.organizations.get("../me"), 404, "NOT_FOUND");
    const updated = expectData(
      await owner.organizations.update(organizationId, { name: "Acme", logoUrl: null }),
      responses.updatedOrganizationResponse,
    );
    assert.equal(updated.organization.name, "Acme");

    const active = expectData(
      await owner.organizations.getActive(),
      responses.activeOrganizationResponse,
    );
    assert.equal(active?.organization.id, organizationId);
    assert.equal(
      expectData(await owner.organizations.setActive(null), responses.activeOrganizationResponse),
      null,
    );
    assert.equal(
      expectData(
        await owner.organizations.setActive(organizationId),
        responses.activeOrganizationResponse,
      )?.organization.id,
      organizationId,
    );

    // A second user, on the Bearer flow, invited then accepting.
    const guestAddress = email("guest");
    let guestToken: string | null = null;
    const guest = createAuthClient({ baseUrl: target.url, token: () => guestToken });
    const guestSignUp = expectData(
      await guest.signUp({ email: guestAddress, password: PASSWORD }),
      responses.credentialResponse,
    );
    guestToken = guestSignUp.token;
    expectData(
      await guest.verifyEmail({ token: mailedToken(guestSignUp.user.id) }),
      responses.verifyEmailResponse,
    );

    const invitation = expectData(
      await owner.invitations.create(organizationId, { email: guestAddress, roles: ["admin"] }),
      responses.createdInvitationResponse,
    ).invitation;
    assert.equal(typeof invitation.token, "string");
    const listed = expectData(
      await owner.invitations.list(organizationId),
      responses.invitationPageResponse,
    );
    assert.deepEqual(listed.invitations.map((i) => i.id), [invitation.id]);
    const mine = expectData(
      await guest.invitations.listMine(),
      responses.pendingInvitationPageResponse,
    );
    assert.deepEqual(mine.invitations.map((entry) => entry.organization.id), [organizationId]);
    expectError(
      await guest.invitations.accept(invitation.id, { token: "wrong" }),
      403,
      "INVALID_INVITATION_TOKEN",
    );
    const accepted = expectData(
      await guest.invitations.accept(invitation.id, { token: invitation.token }),
      responses.acceptedInvitationResponse,
    );
    assert.deepEqual(accepted.member.roles, ["admin"]);
    assert.equal(accepted.invitation.status, "accepted");

    // Members: list, change roles, add directly (canAddMember allows it here), remove.
    const members = expectData(
      await owner.members.list(organizationId, { pageSize: 10 }),
      responses.memberPageResponse,
    );
    assert.equal(members.members.length, 2);
    const changed = expectData(
      await owner.members.updateRoles(organizationId, accepted.member.id, { roles: ["member"] }),
      responses.memberEntryResponse,
    );
    assert.deepEqual(changed.member.roles, ["member"]);
    expectError(
      await owner.members.updateRoles(organizationId, accepted.member.id, { roles: ["emperor"] }),
      400,
      "VALIDATION_ERROR",
    );
    const third = createAuthClient({ baseUrl: target.url });
    const thirdUser = expectData(
      await third.signUp({ email: email("third"), password: PASSWORD }),
      responses.credentialResponse,
    ).user;
    const added = expectData(
      await owner.members.add(organizationId, { userId: thirdUser.id }),
      responses.memberEntryResponse,
    );
    assert.equal(added.member.userId, thirdUser.id);
    assert.deepEqual(await owner.members.remove(organizationId, added.member.id), {
      data: null,
      error: null,
    });
    expectError(
      await owner.members.remove(organizationId, created.member.id),
      409,
      "LAST_OWNER",
    );

    // Reject and cancel answer the invitation.
    const second = expectData(
      await owner.invitations.create(organizationId, { email: email("declines") }),
      responses.createdInvitationResponse,
    ).invitation;
    const canceled = expectData(
      await owner.invitations.cancel(second.id, { token: second.token }),
      responses.respondedInvitationResponse,
    );
    assert.equal(canceled.invitation.status, "canceled");
    const declinerAddress = email("rejects");
    let declinerToken: string | null = null;
    const decliner = createAuthClient({ baseUrl: target.url, token: () => declinerToken });
    const declinerSignUp = expectData(
      await decliner.signUp({ email: declinerAddress, password: PASSWORD }),
      responses.credentialResponse,
    );
    declinerToken = declinerSignUp.token;
    await decliner.verifyEmail({ token: mailedToken(declinerSignUp.user.id) });
    const toDecline = expectData(
      await owner.invitations.create(organizationId, { email: declinerAddress }),
      responses.createdInvitationResponse,
    ).invitation;
    const rejected = expectData(
      await decliner.invitations.reject(toDecline.id, { token: toDecline.token }),
      responses.respondedInvitationResponse,
    );
    assert.equal(rejected.invitation.status, "rejected");
    expectError(
      await owner.invitations.create(organizationId, { email: guestAddress }),
      409,
      "ALREADY_MEMBER",
    );

    // The guest's /me lists the organization; the owner deletes it.
    const guestMe = expectData(await guest.me(), responses.meResponse);
    assert.deepEqual(guestMe.organizations.map((e) => e.organization.id), [organizationId]);
    assert.deepEqual(await owner.organizations.delete(organizationId), { data: null, error: null });
    expectError(await owner.organizations.get(organizationId), 404, "NOT_FOUND");
    assert.equal(ownerUser.emailVerified, false);
  });
});
