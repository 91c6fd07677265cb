/**
 * A tiny module for bench apps: `GET /api/bench/stats` reads an adapter's counters, so the bench
 * can count SQL round trips of a server from outside its process.
 *
 * @module
 */
import { createModule, type ModuleInstance, route, type SqlAdapter } from "../../mod.ts";

/** `GET /api/bench/stats` → `{queries, transactions}` of `database`. */
export function benchStatsModule(database: SqlAdapter): ModuleInstance {
  return createModule({
    name: "bench",
    routes: [
      route({
        method: "GET",
        path: "/stats",
        handler: () => ({
          queries: database.stats.queries,
          transactions: database.stats.transactions,
        }),
      }),
    ],
  });
}
