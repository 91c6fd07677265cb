// The invitee answers an invitation listed by GET /me without its token (the SPA's Accept and
// Reject buttons): their verified address is the proof. Anyone else, an unverified invitee, or a
// cancel without the token is refused.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { assertError, call, uniqueEmail } from "./helpers/http.ts";
import { createOrganization, invite, newUser, signUpAs } from "./helpers/organizations.ts";
import { accountModule } from "./helpers/account.ts";

let db: SqlAdapter;
let module: AuthModule;

before(async () => {
  db = pgliteAdapter();
  ({ module } = await accountModule(db));
});
after(() => db.close());

const answer = (token: string, invitationId: string, action: string) =>
  call(module, "PATCH", `/organizations/invitations/${invitationId}`, {
    token,
    body: { action },
  });

describe("answering an invitation without its token", () => {
  it("the verified invitee accepts the invitation /me lists, and becomes a member", async () => {
    const owner = await newUser(module, "owner");
    const organization = await createOrganization(module, owner);
    const email = uniqueEmail("bob");
    await invite(module, owner, organization.id, email);
    const bob = await signUpAs(module, email);
    const me = await call(module, "GET", "/me", { token: bob.token });
    assert.equal(me.body.invitations.length, 1);
    const listed = me.body.invitations[0];
    assert.ok(!("token" in listed.invitation), "no token in the list");
    const accepted = await answer(bob.token, listed.invitation.id, "accept");
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const after = await call(module, "GET", "/me", { token: bob.token });
    assert.deepEqual(
      after.body.organizations.map((e: { organization: { id: string } }) => e.organization.id),
      [organization.id],
    );
    assert.equal(after.body.invitations.length, 0);
  });

  it("the verified invitee rejects; an unverified invitee, another user and a tokenless cancel are refused", async () => {
    const owner = await newUser(module, "owner");
    const organization = await createOrganization(module, owner);
    const email = uniqueEmail("carol");
    const invitation = await invite(module, owner, organization.id, email);
    const carol = await signUpAs(module, email, { verified: false });
    assertError(await answer(carol.token, invitation.id, "accept"), 403, "EMAIL_NOT_VERIFIED");
    const stranger = await newUser(module, "stranger");
    assertError(await answer(stranger.token, invitation.id, "accept"), 404, "NOT_FOUND");
    assertError(await answer(owner.token, invitation.id, "accept"), 403, "FORBIDDEN");
    assertError(await answer(owner.token, invitation.id, "cancel"), 400, "VALIDATION_ERROR");
    const other = await invite(module, owner, organization.id, uniqueEmail("dave"));
    const dave = await signUpAs(module, other.email);
    const rejected = await answer(dave.token, other.id, "reject");
    assert.equal(rejected.status, 200);
    assert.equal(rejected.body.invitation.status, "rejected");
  });
});
