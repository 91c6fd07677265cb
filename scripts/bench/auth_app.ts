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
import { auth, type AuthModule, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { benchStatsModule } from "./bench_stats_module.ts";

const database = databaseFromEnv();

/**
 * The module under test. Passwords are hashed at better-auth's scrypt cost (N = 2^14) instead of
 * ours (N = 2^17, ~0.3 s and 128 MiB each): no scenario measures sign-up or sign-in, and the
 * set-up signs up a few users per scenario on both sides.
 */
export const authModule: AuthModule = auth({
  database,
  passwordHasher: scryptPasswordHasher({ params: { ln: 14 } }),
  // The bench trusts every address: each sign-up is verified at once through the real route, so
  // `GET /me` lists the invitations of scenario 3 (they reach verified addresses only), and no
  // verification link is printed.
  sendVerificationEmail: async ({ token }) => {
    const response = await authModule.fetch(
      new Request("http://localhost/api/auth/verify-email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      }),
    );
    if (!response.ok) throw new Error(`bench verification failed: ${await response.text()}`);
  },
  // As the better-auth side is set up: owners add members directly (there, a server call), one
  // owner creates thousands of organizations, and members are counted against a limit so high
  // it is never reached.
  organizations: {
    canAddMember: () => true,
    organizationLimit: false,
    membershipLimit: 1_000_000,
  },
});

/** `GET /api/bench/stats`: the auth adapter's counters. */
export const benchStats: ModuleInstance = benchStatsModule(database);
