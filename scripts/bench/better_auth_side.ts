/**
 * The better-auth side of scenario 2 (see reference_better_auth_server.ts): cookie credentials
 * with the browser's Origin header, as its CSRF check expects.
 *
 * @module
 */
import postgres from "postgres";
import type { OrganizationSide, SideUser } from "./organization_side.ts";
import { BETTER_AUTH_ORIGIN } from "./reference_better_auth_server_config.ts";
import { startReference } from "./servers.ts";

export const betterAuthSide: OrganizationSide = {
  name: "better-auth",
  start: (context, databaseUrl) =>
    startReference(context, "reference_better_auth_server.ts", databaseUrl),
  async signUp(server, email) {
    const response = await fetch(`${server.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BETTER_AUTH_ORIGIN },
      body: JSON.stringify({ email, password: "correct horse battery", name: email }),
    });
    const body = await response.json();
    const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    if (!response.ok || !cookie) {
      throw new Error(`better-auth sign-up failed: ${JSON.stringify(body)}`);
    }
    return { id: body.user.id, headers: { cookie, origin: BETTER_AUTH_ORIGIN } };
  },
  async seedUsers(databaseUrl, prefix, count) {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ id: string }[]>`
        INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
        SELECT ${prefix} || '-' || i, ${prefix} || ' ' || i, ${prefix} || '-' || i || '@bench.test',
               false, now(), now()
        FROM generate_series(1, ${count}::int) AS i
        RETURNING id`;
      return rows.map((r) => r.id);
    } finally {
      await sql.end();
    }
  },
  createOrganization: (user: SideUser, name, slug) => ({
    method: "POST",
    path: "/api/auth/organization/create",
    headers: user.headers,
    body: JSON.stringify({ name, slug }),
  }),
  listOrganizations: (user) => ({
    method: "GET",
    path: "/api/auth/organization/list",
    headers: user.headers,
  }),
  addMember: (user, organizationId, userId) => ({
    method: "POST",
    path: "/api/auth/organization/add-member",
    headers: user.headers,
    body: JSON.stringify({ organizationId, userId, role: "member" }),
  }),
  getOrganization: (user, organizationId) => ({
    method: "GET",
    path: `/api/auth/organization/get-organization?organizationId=${
      encodeURIComponent(organizationId)
    }`,
    headers: user.headers,
  }),
  createdOrganizationId: (answer) => (answer as { id: string }).id,
  listedCount: (answer) => (answer as unknown[]).length,
};
