import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type HookOccurrenceInput, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { remind: () => {} } });
const reminder: HookOccurrenceInput = {
  name: "remind",
  key: "trial-end:user-42", // enqueued once, however often this runs
  payload: { userId: 42 },
  runAt: new Date(Date.now() + 7 * 24 * 3600_000),
};
await db.transaction((tx) => hooks.enqueue(tx, reminder));
await db.close();
