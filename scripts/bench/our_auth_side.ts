/**
 * Our side of scenario 2 (and the client of scenarios 3–4): the auth module served by
 * `fragment-cli serve scripts/bench/auth_app.ts`, Bearer credentials.
 *
 * @module
 */
import postgres from "postgres";
import type { OrganizationSide, SideUser } from "./organization_side.ts";
import { startOurServe } from "./servers.ts";

/** The bench app serving the auth module and its counters. */
export const AUTH_APP = "scripts/bench/auth_app.ts";
/** Where the auth module is mounted. */
export const AUTH_MOUNT = "/api/auth";

export const ourAuthSide: OrganizationSide = {
  name: "ours",
  start: (context, databaseUrl) => startOurServe(context, [AUTH_APP], { databaseUrl }),
  async signUp(server, email) {
    const response = await fetch(`${server.origin}${AUTH_MOUNT}/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "correct horse battery" }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`sign-up failed: ${JSON.stringify(body)}`);
    return { id: body.user.id, headers: { authorization: `Bearer ${body.token}` } };
  },
  seedUsers: (databaseUrl, prefix, count) => seedOurUsers(databaseUrl, prefix, count),
  createOrganization: (user: SideUser, name, slug) => ({
    method: "POST",
    path: `${AUTH_MOUNT}/organizations`,
    headers: user.headers,
    body: JSON.stringify({ name, slug }),
  }),
  // pageSize 50: the whole list in one answer, as better-auth's unpaginated list gives it.
  listOrganizations: (user) => ({
    method: "GET",
    path: `${AUTH_MOUNT}/organizations?pageSize=50`,
    headers: user.headers,
  }),
  addMember: (user, organizationId, userId) => ({
    method: "POST",
    path: `${AUTH_MOUNT}/organizations/${organizationId}/members`,
    headers: user.headers,
    body: JSON.stringify({ userId, roles: ["member"] }),
  }),
  getOrganization: (user, organizationId) => ({
    method: "GET",
    path: `${AUTH_MOUNT}/organizations/${organizationId}`,
    headers: user.headers,
  }),
  createdOrganizationId: (answer) => (answer as { organization: { id: string } }).organization.id,
  listedCount: (answer) => (answer as { organizations: unknown[] }).organizations.length,
};

/**
 * Inserts users into `auth.users` without a password round (a hash nobody can match), in one
 * statement; returns their ids in insertion order.
 */
export async function seedOurUsers(
  databaseUrl: string,
  prefix: string,
  count: number,
): Promise<string[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ id: string }[]>`
      INSERT INTO auth.users (email, password_hash)
      SELECT ${prefix} || '-' || i || '@bench.test', 'seeded-without-password'
      FROM generate_series(1, ${count}::int) AS i
      ORDER BY i
      RETURNING id`;
    return rows.map((r) => r.id);
  } finally {
    await sql.end();
  }
}
