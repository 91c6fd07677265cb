// The admin script of docs/auth.md ("Server-side API"): `authModule.api` with no HTTP creates an
// organization for an existing user and invites someone, with the same rules and events as the
// routes. A program that checks what it shows, on an in-memory PGlite or, when DATABASE_URL is
// set, on that (empty) PostgreSQL database: `deno run -A docs/examples/auth_admin_script.ts`
// (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import { auth, migrate, pgliteAdapter, postgresAdapter } from "@app/fragment-cli";
import { authSchema, scryptPasswordHasher } from "@app/fragment-cli/auth";

const url = process.env.DATABASE_URL;
const database = url ? postgresAdapter(url) : pgliteAdapter();

// 1. The site, and the existing user the script works for. A cheap scrypt cost keeps this program
// fast; an application keeps the default.
await migrate(database, authSchema); // `fragment-cli db migrate app.ts` does the same
const site = auth({
  database,
  passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
  autoStart: false,
});
const existing = await site.api.createUser({ email: "ada@example.com", password: "correct horse" });

// 2. The script: an organization for that user, and an invitation, with no server running.
const mailed: string[] = [];
const authModule = auth({
  database,
  organizations: {
    hooks: {
      // Runs after the invitation committed, with retries: send the mail here.
      invitationCreated: ({ invitation, organization }) => {
        mailed.push(`${invitation.email}: join ${organization.name} with ${invitation.token}`);
      },
    },
  },
});
const owner = { userId: existing.id }; // the actor: the user becomes the organization's owner
const { organization } = await authModule.api.createOrganization(owner, {
  name: "Acme Research",
  metadata: { plan: "enterprise" },
});
// Refused like over HTTP if the owner could not invite (403 FORBIDDEN), or if the address already
// belongs to a member (409 ALREADY_MEMBER).
const { invitation } = await authModule.api.createInvitation(owner, {
  organizationId: organization.id,
  email: "grace@example.com",
  roles: ["admin"],
});
await authModule.api.hooks?.drain(); // a script exits at once: deliver the events now
await authModule.close();

// 3. What the script did.
assert.equal(organization.name, "Acme Research");
assert.equal(organization.slug, "acme-research");
assert.equal(invitation.status, "pending");
assert.deepEqual(invitation.roles, ["admin"]);
assert.deepEqual(mailed, [`grace@example.com: join Acme Research with ${invitation.token}`]);

// 4. It is what the routes show: the owner signs in and sees both.
async function request(method: string, path: string, init: { token?: string; body?: unknown }) {
  const headers = new Headers();
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body) headers.set("content-type", "application/json");
  const response = await site.fetch(
    new Request(`http://localhost${site.mountRoute}${path}`, {
      method,
      headers,
      body: init.body ? JSON.stringify(init.body) : undefined,
    }),
  );
  assert.equal(response.status, 200, `${method} ${path}`);
  return await response.json();
}
const { token } = await request("POST", "/sign-in", {
  body: { email: "ada@example.com", password: "correct horse" },
});
const me = await request("GET", "/me", { token });
assert.deepEqual(
  me.organizations.map((entry: { member: { roles: string[] } }) => entry.member.roles),
  [["owner"]],
);
const listed = await request("GET", `/organizations/${organization.id}/invitations`, { token });
assert.deepEqual(listed.invitations.map((i: { email: string }) => i.email), [
  "grace@example.com",
]);
await site.close();

await database.query("DROP SCHEMA auth CASCADE");
await database.query("DROP SCHEMA IF EXISTS fragment_internal CASCADE");
await database.close();
