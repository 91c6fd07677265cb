/**
 * Bench app for scenario 8 (hashing flood): the auth module at the DEFAULT password cost (scrypt
 * N = 2^17), behind a pretend proxy (`trustProxy: "x-forwarded-for"`) so the bench can speak from
 * many client addresses, with rate limits off: the flood is the kind rate limits do not stop
 * (many addresses), and what is measured is the hashing queue alone.
 *
 * Usage: fragment-cli serve scripts/bench/flood_app.ts (PGlite under the working directory)
 *
 * @module
 */
import { databaseFromEnv } from "../../mod.ts";
import { auth, type AuthModule } from "../../src/auth/mod.ts";

/** The module under test. */
export const authModule: AuthModule = auth({
  database: databaseFromEnv(),
  trustProxy: "x-forwarded-for",
  rateLimit: false,
});
