/**
 * The reference of scenario 6's start on an existing PGlite directory: PGlite opened on
 * `./.data/pglite` (the directory `serve` made and migrated), a `Deno.serve` listener, and a
 * handler that stores each POSTed body in `messenger.updates` with one `INSERT … ON CONFLICT DO
 * NOTHING` and answers 200. No module, no migration check, no worker: the floor of a server on
 * PGlite on the same runtime and directory.
 *
 * Usage: `deno run -A scripts/bench/bare_pglite_server.ts <port>`.
 *
 * @module
 */
import { PGlite } from "@electric-sql/pglite";
import process from "node:process";

const port = Number(process.argv[2]);
const db = await PGlite.create("./.data/pglite");
Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
  const raw = await request.text();
  const update = JSON.parse(raw) as { update_id: number };
  await db.query(
    `INSERT INTO messenger.updates (update_id, kind, raw) VALUES ($1, 'message', $2)
     ON CONFLICT (update_id) DO NOTHING`,
    [update.update_id, raw],
  );
  return Response.json({ ok: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => db.close().finally(() => process.exit(0)));
}
