import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { type HookAdmin, hookAdmin, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
async function report(admin: HookAdmin): Promise<string> {
  const { pending, failed } = await admin.counts();
  return `${admin.namespace}: ${pending} pending, ${failed} failed`;
}
console.log(await report(hookAdmin({ adapter: db, namespace: "mailer" }))); // mailer: 0 pending, 0 failed
await db.close();
