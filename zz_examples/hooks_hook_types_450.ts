import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { type DrainOptions, durableHooks, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
await hooks.enqueue(db, { name: "send", runAt: new Date(Date.now() + 100) });
// In a test: also wait for the occurrence due in 100 ms, for at most 5 seconds.
const options: DrainOptions = { waitForScheduled: true, timeoutMs: 5_000 };
console.log(await hooks.drain(options)); // { done: 1, retried: 0, failed: 0 }
await db.close();
