/**
 * The embedded-by-default database choice every example uses.
 *
 * @module
 */

import process from "node:process";
import type { SqlAdapter } from "./adapter.ts";
import { pgliteAdapter } from "./pglite_adapter.ts";
import { postgresAdapter } from "./postgres_adapter.ts";

/** The data directory used when `DATABASE_URL` is not set. */
export const DEFAULT_PGLITE_DIR = "./.data/pglite";

/**
 * Chooses the database from the environment: when `DATABASE_URL` is set (and
 * not empty), a postgres.js pool on that URL (with `DIRECT_DATABASE_URL`, when set, as its
 * `directUrl`: the server itself, for migrations and LISTEN, when `DATABASE_URL` goes through a
 * connection pooler); otherwise PGlite in
 * `./.data/pglite` (relative to the working directory, created on first use).
 * Nothing connects until the first query (or `connect()`).
 *
 * @param env The environment to read.
 * @default env `process.env`
 * @returns The adapter.
 *
 * @example The usual set-up
 * ```ts
 * import { databaseFromEnv } from "@app/fragment-cli/sql";
 *
 * const db = databaseFromEnv(); // PGlite in ./.data/pglite unless DATABASE_URL is set
 * console.log(db.kind, db.target);
 * await db.close();
 * ```
 */
export function databaseFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SqlAdapter {
  const url = env.DATABASE_URL?.trim();
  const directUrl = env.DIRECT_DATABASE_URL?.trim();
  if (url) return postgresAdapter(url, directUrl ? { directUrl } : {});
  return pgliteAdapter({ dataDir: DEFAULT_PGLITE_DIR });
}
