/**
 * Bench app for scenarios 1 and 7: the messenger module on `DATABASE_URL` (PGlite in the working
 * directory without it) with a no-op message handler, so every new update is stored and its
 * durable hook enqueued and run, as in an application. `GET /api/bench/stats` reads the adapter's
 * counters (SQL statements per delivery).
 *
 * Usage: DATABASE_URL=… fragment-cli serve scripts/bench/webhook_app.ts --migrate
 *
 * @module
 */
import { databaseFromEnv, type ModuleInstance } from "../../mod.ts";
import { messenger, type MessengerModule } from "../../src/messenger/mod.ts";
import { benchStatsModule } from "./bench_stats_module.ts";
import { WEBHOOK_SECRET } from "./webhook_plan.ts";

const database = databaseFromEnv();

/** The module under test. */
export const messengerModule: MessengerModule = messenger({
  database,
  webhookSecret: WEBHOOK_SECRET,
  onMessage: () => {},
});

/** `GET /api/bench/stats`: the messenger adapter's counters. */
export const benchStats: ModuleInstance = benchStatsModule(database);
