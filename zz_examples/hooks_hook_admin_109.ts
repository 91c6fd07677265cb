import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { hookAdmin, withHookTable } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const admin = hookAdmin({ adapter: db, namespace: "mailer" });
const failed = await admin.list({ status: "failed" });
console.log(failed.map((o) => `${o.id} ${o.name}: ${o.lastError}`));
await admin.retryFailed();
await db.close();
