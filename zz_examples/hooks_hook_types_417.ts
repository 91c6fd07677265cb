import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type HookOccurrencePage, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
let cursor: string | null = null;
do {
  const page: HookOccurrencePage = await hooks.list({ status: "pending", cursor });
  for (const occurrence of page.occurrences) console.log(occurrence.id, occurrence.name);
  cursor = page.cursor;
} while (cursor !== null);
await db.close();
