// Choosing an adapter (docs/adapters.md). A program that checks what it shows:
// `deno run -A docs/examples/adapters_choose.ts` (or `node …`, `bun …`); tests/docs/examples.test.ts
// runs every example this way on Deno, Node and Bun.
import assert from "node:assert/strict";
import process from "node:process";
import {
  databaseFromEnv,
  pgliteAdapter,
  postgresAdapter,
  type SqlAdapter,
} from "@app/fragment-cli";

// The default of every example: PostgreSQL when DATABASE_URL is set, else PGlite in ./.data/pglite.
function fromEnvironment(): SqlAdapter {
  return databaseFromEnv();
}

// An in-memory PGlite database: tests, demos.
function inMemory(): SqlAdapter {
  return pgliteAdapter();
}

// PGlite persisted in a directory (created on first use, locked while open).
function onDisk(dataDir: string): SqlAdapter {
  return pgliteAdapter({ dataDir });
}

// A PostgreSQL server through a postgres.js pool.
function server(url: string): SqlAdapter {
  return postgresAdapter(url, { max: 10, connectTimeout: 5 });
}

// Creating an adapter opens nothing (a module file may create its database at import time): none
// of these touches a disk or a network.
const environment = fromEnvironment();
const pooled = server("postgres://user:secret@127.0.0.1:5432/app");
const disk = onDisk("./.data/example");
assert.equal(environment.kind, process.env.DATABASE_URL ? "postgres" : "pglite");
assert.equal(pooled.kind, "postgres");
assert.equal(disk.kind, "pglite");
// `target` says where the data lives, for logs: never the password.
assert.equal(pooled.target.includes("secret"), false);

// connect() fails fast at start-up; an in-memory database needs nothing.
const memory = inMemory();
await memory.connect();
assert.deepEqual(await memory.query("SELECT 1::int4 AS one"), [{ one: 1 }]);
for (const db of [memory, environment, pooled, disk]) await db.close();
