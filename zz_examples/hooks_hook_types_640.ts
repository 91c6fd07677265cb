import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type EnqueueSql, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
const hook: EnqueueSql = hooks.enqueueSql({ name: "send", key: "mail-1" }, { firstParam: 2 });
// $1 is the statement's own parameter, the hook's start at $2.
await db.query(
  `WITH mail AS (INSERT INTO mailer.mails (id) VALUES ($1) RETURNING id), hook AS (${hook.sql})
   SELECT id FROM hook`,
  [crypto.randomUUID(), ...hook.params],
);
hooks.wake(); // the statement sent no notification
await db.close();
