import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type DrainResult, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({
  adapter: db,
  namespace: "mailer",
  hooks: { send: () => {} },
});
await hooks.enqueue(db, { name: "send" });
const result: DrainResult = await hooks.drain();
console.log(result); // { done: 1, retried: 0, failed: 0 }
await db.close();
