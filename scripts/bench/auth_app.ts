/**
 * Bench app for scenarios 2–4: the auth module (organizations on) on `DATABASE_URL`, plus the
 * `bench` module whose `GET /api/bench/stats` reads the SAME adapter's counters, so the bench can
 * count the SQL round trips of a request from outside the process.
 *
 * Usage: DATABASE_URL=… fragment-cli serve scripts/bench/auth_app.ts --migrate
 *
 * @module
 */
import { databaseFromEnv, type ModuleInstance } from "../../mod.ts";
import { auth, type AuthModule } from "../../src/auth/mod.ts";
import { benchStatsModule } from "./bench_stats_module.ts";

const database = databaseFromEnv();

/** The module under test. */
export const authModule: AuthModule = auth({ database });

/** `GET /api/bench/stats`: the auth adapter's counters. */
export const benchStats: ModuleInstance = benchStatsModule(database);
