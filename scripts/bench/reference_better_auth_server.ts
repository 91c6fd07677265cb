/**
 * Reference of scenario 2: better-auth with its organization plugin on PostgreSQL (its Kysely
 * adapter over a `pg` pool of 10, like our postgres.js pool), served by the same runtime server
 * as ours. Runs better-auth's own migrations at start.
 *
 * better-auth has no HTTP route to add a member (`addMember` is server-only); the bench mounts
 * `POST /api/auth/organization/add-member` calling `auth.api.addMember` with the caller's
 * headers, which resolves the session but, unlike our route, checks no permission.
 *
 * Usage: DATABASE_URL=… deno run -A scripts/bench/reference_better_auth_server.ts
 *
 * @module
 */
import process from "node:process";
import { betterAuth } from "better-auth";
import { organization } from "better-auth/plugins/organization";
import { getMigrations } from "better-auth/db/migration";
import { Hono } from "hono";
import pg from "pg";
import { listenForBench } from "./listen.ts";
import { BETTER_AUTH_ORIGIN } from "./reference_better_auth_server_config.ts";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const auth = betterAuth({
  database: pool,
  secret: "fragment-cli-benchmark-secret-0123456789abcdef",
  baseURL: "http://127.0.0.1",
  trustedOrigins: [BETTER_AUTH_ORIGIN],
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { level: "error" },
  plugins: [organization({ membershipLimit: 1_000_000 })],
});

const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const app = new Hono();
app.post("/api/auth/organization/add-member", async (c) => {
  const body = await c.req.json();
  const member = await auth.api.addMember({ body, headers: c.req.raw.headers });
  return c.json(member);
});
app.on(["GET", "POST"], "/api/auth/*", (c) => auth.handler(c.req.raw));
await listenForBench(app.fetch);
