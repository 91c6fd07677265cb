// Using the SQL adapter interface (docs/adapters.md). A program that checks what it shows, on an
// in-memory PGlite or, when DATABASE_URL is set, on that (empty) PostgreSQL database:
// `deno run -A docs/examples/adapters_usage.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import { pgliteAdapter, postgresAdapter, SqlError } from "@app/fragment-cli";

const url = process.env.DATABASE_URL;
const db = url ? postgresAdapter(url) : pgliteAdapter();

// One statement, $n placeholders, plain JavaScript values.
await db.query(`CREATE TABLE account (
  id int8 PRIMARY KEY, email text UNIQUE NOT NULL, balance numeric NOT NULL,
  settings jsonb NOT NULL, avatar bytea, created_at timestamptz NOT NULL DEFAULT now())`);
await db.query(
  "INSERT INTO account (id, email, balance, settings, avatar) VALUES ($1, $2, $3, $4, $5)",
  [9007199254740993n, "ada@example.com", "10.50", { theme: "dark" }, new Uint8Array([1, 2])],
);

// Rows come back with the same mapping on PGlite and PostgreSQL.
const [account] = await db.query<{
  id: string; // int8 → string, never a lossy number
  balance: string; // numeric → string
  settings: { theme: string }; // jsonb → parsed
  avatar: Uint8Array | null; // bytea → Uint8Array
  created_at: Date; // timestamptz → Date
}>("SELECT id, balance, settings, avatar, created_at FROM account WHERE email = $1", [
  "ada@example.com",
]);
assert.equal(account.id, "9007199254740993");
assert.equal(account.balance, "10.50");
assert.deepEqual(account.settings, { theme: "dark" });
assert.deepEqual(account.avatar, new Uint8Array([1, 2])); // a plain Uint8Array, not a Buffer
assert.ok(account.created_at instanceof Date);

// A transaction: committed when the callback resolves, rolled back when it throws.
// Nested tx.transaction() is a SAVEPOINT: only its own work is undone on failure.
let duplicate = false;
await db.transaction(async (tx) => {
  await tx.query("UPDATE account SET balance = balance - 1 WHERE id = $1", [account.id]);
  try {
    await tx.transaction(async (sp) => {
      await sp.query("INSERT INTO account (id, email, balance, settings) VALUES (2, $1, 0, '{}')", [
        "ada@example.com", // duplicate email: fails
      ]);
    });
  } catch (error) {
    // PostgreSQL errors keep their SQLSTATE.
    if (error instanceof SqlError && error.code === "23505") duplicate = true;
    else throw error;
  }
});
assert.equal(duplicate, true);
// The savepoint's insert was undone, the transaction's update committed.
assert.deepEqual(await db.query("SELECT id, balance FROM account"), [
  { id: "9007199254740993", balance: "9.50" },
]);

// LISTEN/NOTIFY.
const received = Promise.withResolvers<string>();
const unlisten = await db.listen("account_events", received.resolve);
await db.query("SELECT pg_notify($1, $2)", ["account_events", "balance changed"]);
assert.equal(await received.promise, "balance changed");
await unlisten();

await db.query("DROP TABLE account");
await db.close();
