import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { type DurableHooks, durableHooks, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks: DurableHooks = durableHooks({
  adapter: db,
  namespace: "mailer",
  hooks: { send: (payload) => console.log("send", payload) },
});
await db.transaction((tx) => hooks.enqueue(tx, { name: "send", payload: { to: "ada@example.com" } }));
await hooks.drain(); // in a test; a server calls hooks.start() instead
await db.close();
