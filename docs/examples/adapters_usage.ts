// Using the SQL adapter interface. Type-checked and run by tests/db/adapters_docs_examples.test.ts.
import { type SqlAdapter, SqlError } from "../../src/db/mod.ts";

export async function usage(db: SqlAdapter): Promise<string[]> {
  const log: string[] = [];

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
  log.push(`${account.id} ${account.balance} ${account.settings.theme}`);

  // A transaction: committed when the callback resolves, rolled back when it throws.
  // Nested tx.transaction() is a SAVEPOINT: only its own work is undone on failure.
  await db.transaction(async (tx) => {
    await tx.query("UPDATE account SET balance = balance - 1 WHERE id = $1", [account.id]);
    try {
      await tx.transaction(async (sp) => {
        await sp.query(
          "INSERT INTO account (id, email, balance, settings) VALUES (2, $1, 0, '{}')",
          [
            "ada@example.com", // duplicate email: fails
          ],
        );
      });
    } catch (error) {
      // PostgreSQL errors keep their SQLSTATE.
      if (error instanceof SqlError && error.code === "23505") log.push("duplicate email");
      else throw error;
    }
  });

  // LISTEN/NOTIFY.
  const received = new Promise<string>((resolve) => {
    db.listen("account_events", resolve).then((unlisten) => {
      db.query("SELECT pg_notify($1, $2)", ["account_events", "balance changed"]).then(() =>
        setTimeout(() => unlisten(), 50)
      );
    });
  });
  log.push(await received);
  return log;
}
