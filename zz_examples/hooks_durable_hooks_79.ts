import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { durableHooks, withHookTable } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({
  adapter: db,
  namespace: "mailer",
  hooks: {
    sendWelcome: async (payload, { id, attempt }) => {
      console.log(`occurrence ${id}, attempt ${attempt}:`, payload);
    },
  },
});
await db.transaction(async (tx) => {
  await tx.query(`INSERT INTO mailer.mails DEFAULT VALUES`);
  await hooks.enqueue(tx, { name: "sendWelcome", key: "user-42", payload: { userId: 42 } });
});
await hooks.drain(); // or hooks.start() for a long-running worker
await db.close();
