import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type HookQuerier, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
// A transaction, or the adapter itself when nothing else is written.
const enqueueSend = (querier: HookQuerier) => hooks.enqueue(querier, { name: "send" });
await db.transaction((tx) => enqueueSend(tx));
await enqueueSend(db);
await db.close();
