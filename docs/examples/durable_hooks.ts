// The durable hooks example of docs/hooks.md. Type-checked and run by
// tests/db/hooks_docs_example.test.ts.
import {
  column,
  defineSchema,
  type DurableHooks,
  durableHooks,
  migrate,
  type SqlAdapter,
  withHookTable,
} from "../../src/db/mod.ts";

// 1. The module's schema includes the hook table, in the module's own namespace.
export const mailerSchema = defineSchema("mailer", (s) =>
  withHookTable(
    s.createTable("signups", {
      email: column.text().primaryKey(),
      created_at: column.timestamptz().defaultNow(),
    }),
  ));

// 2. The hooks: a name and a handler each. Handlers run outside any transaction.
export function mailerHooks(db: SqlAdapter, sent: string[]): DurableHooks {
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
export async function signUp(db: SqlAdapter, hooks: DurableHooks, email: string): Promise<boolean> {
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
export async function signUpInOneStatement(
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

// 4. Run it: migrate, sign up twice with one address, process what is due.
export async function runMailer(db: SqlAdapter): Promise<string[]> {
  await migrate(db, mailerSchema);
  const sent: string[] = [];
  const hooks = mailerHooks(db, sent);
  await signUp(db, hooks, "ada@example.com");
  await signUp(db, hooks, "ada@example.com"); // a duplicate: no second occurrence
  await signUpInOneStatement(db, hooks, "grace@example.com");
  await signUpInOneStatement(db, hooks, "grace@example.com"); // a duplicate again
  await hooks.drain(); // in a server, serve() runs hooks.start() instead
  return sent;
}
