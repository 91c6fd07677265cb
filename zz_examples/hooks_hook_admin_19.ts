import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { hookAdmin, type HookChangeResult, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const admin = hookAdmin({ adapter: db, namespace: "mailer" });
const result: HookChangeResult = await admin.cancel(["1", "2"]);
if (result.unknown.length > 0) console.log("no such occurrence:", result.unknown); // ["1", "2"]
await db.close();
