// Runs the admin script of docs/auth.md (docs/examples/auth_admin_script.ts) on PGlite and
// PostgreSQL: an organization for an existing user and an invitation, with no HTTP.
import { it } from "node:test";
import assert from "node:assert/strict";
import { provisionTeam } from "../../docs/examples/auth_admin_script.ts";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { migrate } from "../../src/db/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { call, uniqueEmail } from "./helpers/http.ts";

forEachAdapter((name, getAdapter) => {
  it(`${name}: docs/examples/auth_admin_script.ts creates an organization for a user and invites someone`, async () => {
    const db = getAdapter();
    await migrate(db, authSchema);
    const site = auth({
      database: db,
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      autoStart: false,
    });
    const owner = await site.api.createUser({
      email: uniqueEmail("owner"),
      password: "correct horse",
    });
    const inviteeEmail = uniqueEmail("invitee");

    const { organization, invitation, mailed } = await provisionTeam(db, owner.id, inviteeEmail);

    assert.equal(organization.name, "Acme Research");
    assert.equal(organization.slug, "acme-research");
    assert.equal(invitation.status, "pending");
    assert.deepEqual(invitation.roles, ["admin"]);
    assert.deepEqual(mailed, [
      `${inviteeEmail}: join Acme Research with ${invitation.token}`,
    ]);
    // What the script did is what the routes show: the owner signs in and sees both.
    const signedIn = await call(site, "POST", "/sign-in", {
      body: { email: owner.email, password: "correct horse" },
    });
    const me = await call(site, "GET", "/me", { token: signedIn.body.token });
    assert.deepEqual(
      me.body.organizations.map((entry: { member: { roles: string[] } }) => entry.member.roles),
      [["owner"]],
    );
    const invitations = await call(
      site,
      "GET",
      `/organizations/${organization.id}/invitations`,
      { token: signedIn.body.token },
    );
    assert.deepEqual(
      invitations.body.invitations.map((i: { email: string }) => i.email),
      [inviteeEmail],
    );
    await site.close();
  });
});
