import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { durableHooks, withHookTable } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

// The hook table lives in the module's own schema, beside its tables.
const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("users", { email: column.text().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({
  adapter: db,
  namespace: "mailer",
  hooks: { sendWelcome: (payload) => console.log("welcome", payload) },
});
await db.transaction(async (tx) => {
  await tx.query("INSERT INTO mailer.users (email) VALUES ($1)", ["ada@example.com"]);
  await hooks.enqueue(tx, { name: "sendWelcome", payload: { to: "ada@example.com" } });
});
await hooks.drain(); // prints: welcome { to: "ada@example.com" }
await db.close();
