import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import {
  hookAdmin,
  type HookAttemptError,
  withHookErrorLog,
  withHookTable,
} from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const mailer = defineSchema("mailer", (s) =>
  withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
const db = pgliteAdapter();
await migrate(db, mailer);
const occurrence = await hookAdmin({ adapter: db, namespace: "mailer" }).get("1");
const errors: HookAttemptError[] = occurrence?.errors ?? [];
for (const { attempt, at, error } of errors) console.log(attempt, at.toISOString(), error);
await db.close();
