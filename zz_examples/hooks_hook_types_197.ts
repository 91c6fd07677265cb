import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type HookOccurrence, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
const { id } = await hooks.enqueue(db, { name: "send", payload: { to: "ada@example.com" } });
const occurrence: HookOccurrence | null = await hooks.get(id);
console.log(occurrence?.status, occurrence?.attempts); // pending 0
await db.close();
