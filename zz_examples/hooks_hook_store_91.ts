import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { hookAdmin, type HookCounts, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const counts: HookCounts = await hookAdmin({ adapter: db, namespace: "mailer" }).counts();
if ((counts.oldestPendingAgeSeconds ?? 0) > 300) console.warn("mailer hooks are falling behind");
await db.close();
