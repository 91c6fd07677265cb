import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { hookAdmin, type OccurrenceWithErrors, withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
const db = pgliteAdapter();
await migrate(db, mailer);
const admin = hookAdmin({ adapter: db, namespace: "mailer" });
const occurrence: OccurrenceWithErrors | null = await admin.get("1");
console.log(occurrence?.errors.at(-1)?.error ?? "no error logged");
await db.close();
