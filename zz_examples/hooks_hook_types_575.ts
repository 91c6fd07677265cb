import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type EnqueueSqlOptions, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
// One occurrence per inserted mail, with the new row's id in its payload; one round trip.
const options: EnqueueSqlOptions = {
  from: "inserted",
  firstParam: 1,
  payloadSql: "jsonb_build_object('mailId', inserted.id)",
  keySql: "inserted.id::text",
};
const hook = hooks.enqueueSql({ name: "send" }, options);
await db.query(
  `WITH inserted AS (INSERT INTO mailer.mails (id) VALUES (gen_random_uuid()) RETURNING id),
     enqueued AS (${hook.sql})
   SELECT count(*) FROM enqueued`,
  hook.params,
);
hooks.wake();
await db.close();
