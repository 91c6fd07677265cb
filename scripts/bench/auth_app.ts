/**
 * Bench app for scenarios 2–4: the auth module (organizations on) on `DATABASE_URL`, plus a tiny
 * `bench` module whose `GET /api/bench/stats` reads the SAME adapter's counters, so the bench can
 * count the SQL round trips of a request from outside the process.
 *
 * Usage: DATABASE_URL=… fragment-cli serve scripts/bench/auth_app.ts --migrate
 *
 * @module
 */
import { createModule, databaseFromEnv, type ModuleInstance, route } from "../../mod.ts";
import { auth, type AuthModule } from "../../src/auth/mod.ts";

const database = databaseFromEnv();

/** The module under test. */
export const authModule: AuthModule = auth({ database });

/** `GET /api/bench/stats` → `{queries, transactions}` of the auth module's adapter. */
export const benchStats: ModuleInstance = createModule({
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
