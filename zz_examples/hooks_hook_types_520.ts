import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { durableHooks, type RequeueOptions, withHookTable } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
// After fixing the mail provider's credentials: every failed "send" gets a fresh budget.
const options: RequeueOptions = { name: "send" };
console.log(await hooks.requeue(options), "requeued"); // 0 requeued
await db.close();
