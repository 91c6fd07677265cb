// Choosing an adapter. Type-checked by tests/db/adapters_docs_examples.test.ts.
import {
  databaseFromEnv,
  pgliteAdapter,
  postgresAdapter,
  type SqlAdapter,
} from "../../src/db/mod.ts";

// The default of every example: PostgreSQL when DATABASE_URL is set, else PGlite in ./.data/pglite.
export function fromEnvironment(): SqlAdapter {
  return databaseFromEnv();
}

// An in-memory PGlite database: tests, demos.
export function inMemory(): SqlAdapter {
  return pgliteAdapter();
}

// PGlite persisted in a directory (created on first use, locked while open).
export function onDisk(dataDir: string): SqlAdapter {
  return pgliteAdapter({ dataDir });
}

// A PostgreSQL server through a postgres.js pool.
export function server(url: string): SqlAdapter {
  return postgresAdapter(url, { max: 10, connectTimeout: 5 });
}
