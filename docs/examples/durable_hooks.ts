// The durable hooks example of docs/hooks.md. A program that checks what it shows, on an
// in-memory PGlite or, when DATABASE_URL is set, on that (empty) PostgreSQL database:
// `deno run -A docs/examples/durable_hooks.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import {
  column,
  defineSchema,
  type DurableHooks,
  durableHooks,
  migrate,
  pgliteAdapter,
  postgresAdapter,
  type SqlAdapter,
  withHookTable,
} from "@app/fragment-cli";

// 1. The module's schema includes the hook table, in the module's own namespace.
const mailerSchema = defineSchema("mailer", (s) =>
  withHookTable(
    s.createTable("signups", {
      email: column.text().primaryKey(),
      created_at: column.timestamptz().defaultNow(),
    }),
  ));

// 2. The hooks: a name and a handler each. Handlers run outside any transaction.
function mailerHooks(db: SqlAdapter, sent: string[]): DurableHooks {
  return durableHooks({
    adapter: db,
    namespace: "mailer",
    hooks: {
      sendWelcome: async (payload, { id, attempt }) => {
        const { email } = payload as { email: string };
        // At-least-once: a real mailer would pass `id` as an idempotency key.
        sent.push(`${email} (occurrence ${id}, attempt ${attempt})`);
        await Promise.resolve();
      },
    },
    maxAttempts: 5,
  });
}

// 3. Enqueue inside the transaction that writes the data: both commit, or neither.
async function signUp(db: SqlAdapter, hooks: DurableHooks, email: string): Promise<boolean> {
  const { duplicate } = await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO mailer.signups (email) VALUES ($1) ON CONFLICT (email) DO NOTHING`,
      [email],
    );
    return await hooks.enqueue(tx, { name: "sendWelcome", key: email, payload: { email } });
  });
  hooks.wake(); // committed: a started worker picks it up now
  return !duplicate;
}

// 3b. The same in one statement: the row and its occurrence, the payload computed from the row.
async function signUpInOneStatement(
  db: SqlAdapter,
  hooks: DurableHooks,
  email: string,
): Promise<boolean> {
  const hook = hooks.enqueueSql(
    { name: "sendWelcome", key: email },
    { from: "inserted", firstParam: 2, payloadSql: "jsonb_build_object('email', inserted.email)" },
  );
  const [{ stored }] = await db.query<{ stored: number }>(
    `WITH inserted AS (
       INSERT INTO mailer.signups (email) VALUES ($1) ON CONFLICT (email) DO NOTHING
       RETURNING email
     ), hook AS (${hook.sql})
     SELECT count(*)::int AS stored FROM inserted`,
    [email, ...hook.params],
  );
  hooks.wake();
  return stored === 1;
}

// 4. Run it: migrate, sign up twice with each address, process what is due.
const url = process.env.DATABASE_URL;
const db = url ? postgresAdapter(url) : pgliteAdapter();
await migrate(db, mailerSchema);
const sent: string[] = [];
const hooks = mailerHooks(db, sent);
assert.equal(await signUp(db, hooks, "ada@example.com"), true);
assert.equal(await signUp(db, hooks, "ada@example.com"), false); // a duplicate: no second occurrence
assert.equal(await signUpInOneStatement(db, hooks, "grace@example.com"), true);
assert.equal(await signUpInOneStatement(db, hooks, "grace@example.com"), false); // again
await hooks.drain(); // in a server, serve() runs hooks.start() instead
// One welcome mail per address, each at its first attempt.
assert.equal(sent.length, 2);
assert.match(sent[0], /^ada@example\.com \(occurrence \d+, attempt 1\)$/);
assert.match(sent[1], /^grace@example\.com \(occurrence \d+, attempt 1\)$/);

await db.query("DROP SCHEMA mailer CASCADE");
await db.query("DROP SCHEMA fragment_internal CASCADE");
await db.close();
