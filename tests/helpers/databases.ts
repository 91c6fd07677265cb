/**
 * Databases for tests: run a test file's adapter-facing tests against BOTH
 * PGlite (one in-memory instance per file) and the PostgreSQL server on
 * 127.0.0.1:5432 (a fresh `fragment_test_<random>` database per file, dropped
 * afterwards).
 *
 * Set `TEST_ADAPTERS=pglite` (or `postgres`) to run only one; set
 * `TEST_POSTGRES_ADMIN_URL` to use another server (default
 * `postgres://postgres@127.0.0.1:5432/postgres`).
 *
 * @example
 * ```ts ignore
 * import { describe, it } from "node:test";
 * import assert from "node:assert/strict";
 * import { forEachAdapter } from "../helpers/databases.ts";
 *
 * forEachAdapter((name, getAdapter) => {
 *   it(`${name}: selects`, async () => {
 *     const rows = await getAdapter().query<{ n: number }>("SELECT 1::int4 AS n");
 *     assert.deepEqual(rows, [{ n: 1 }]);
 *   });
 * });
 * ```
 *
 * @module
 */

import { after, before, describe } from "node:test";
import process from "node:process";
import postgres from "postgres";
import type { SqlAdapter } from "../../src/sql/adapter.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { postgresAdapter } from "../../src/sql/postgres_adapter.ts";

/** The adapters every adapter-facing test runs against. */
export type AdapterName = "pglite" | "postgres";

/** The maintenance database used to create and drop test databases. */
export const ADMIN_URL: string = process.env.TEST_POSTGRES_ADMIN_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/** A throw-away database on the PostgreSQL server. */
export interface TestDatabase {
  /** Its name, `fragment_test_<random>`. */
  name: string;
  /** A connection URL to it. */
  url: string;
  /** Drops it (terminating leftover connections). */
  drop(): Promise<void>;
}

/** Creates a fresh, empty database on the test server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `fragment_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop(): Promise<void> {
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}

/** Which adapters to run (all unless `TEST_ADAPTERS` restricts them). */
export function enabledAdapters(): AdapterName[] {
  const all: AdapterName[] = ["pglite", "postgres"];
  const only = process.env.TEST_ADAPTERS?.split(",").map((s) => s.trim()).filter(Boolean);
  return only && only.length > 0 ? all.filter((name) => only.includes(name)) : all;
}

/**
 * Declares `body` once per adapter, inside a `describe(name)`. The adapter is
 * opened in `before` and closed (its database dropped) in `after`; call
 * `getAdapter()` inside tests and hooks, not at declaration time. `getUrl()`
 * is the PostgreSQL database's URL (for child processes), `undefined` on PGlite.
 */
export function forEachAdapter(
  body: (name: AdapterName, getAdapter: () => SqlAdapter, getUrl: () => string | undefined) => void,
): void {
  for (const name of enabledAdapters()) {
    describe(name, () => {
      let adapter: SqlAdapter | undefined;
      let database: TestDatabase | undefined;
      before(async () => {
        if (name === "pglite") {
          adapter = pgliteAdapter();
        } else {
          database = await createTestDatabase();
          adapter = postgresAdapter(database.url, { max: 5 });
        }
        await adapter.connect();
      }, { timeout: 120_000 });
      after(async () => {
        await adapter?.close();
        await database?.drop();
      }, { timeout: 60_000 });
      body(
        name,
        () => {
          if (adapter === undefined) {
            throw new Error("getAdapter() called before the adapter opened");
          }
          return adapter;
        },
        () => database?.url,
      );
    });
  }
}
