/**
 * Reference of scenario 1: a bare Hono handler that does only `INSERT … ON CONFLICT DO NOTHING`
 * of the raw JSON with postgres.js (pool of 10, like our adapter), on the same runtime server.
 *
 * Usage: DATABASE_URL=… deno run -A scripts/bench/reference_webhook_server.ts
 *
 * @module
 */
import process from "node:process";
import { Hono } from "hono";
import postgres from "postgres";
import { listenForBench } from "./listen.ts";

const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
await sql`CREATE TABLE IF NOT EXISTS updates (update_id bigint PRIMARY KEY, payload jsonb NOT NULL)`;

const app = new Hono();
app.post("/webhook", async (c) => {
  const raw = await c.req.text();
  const { update_id: updateId } = JSON.parse(raw);
  const inserted = await sql`
    INSERT INTO updates (update_id, payload) VALUES (${updateId}, ${raw}::jsonb)
    ON CONFLICT DO NOTHING`;
  return c.json(inserted.count === 1 ? { ok: true } : { ok: true, duplicate: true });
});
await listenForBench(app.fetch);
