import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type EnqueueResult, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
const first: EnqueueResult = await hooks.enqueue(db, { name: "send", key: "mail-1" });
const again: EnqueueResult = await hooks.enqueue(db, { name: "send", key: "mail-1" });
console.log(again.duplicate, again.id === first.id); // true true
await db.close();
