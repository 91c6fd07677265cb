import { column, defineSchema } from "@app/fragment-cli/schema";
import { migrate } from "@app/fragment-cli/migrate";
import { pgliteAdapter } from "@app/fragment-cli/sql";
import { durableHooks, type ListHookOptions, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
const db = pgliteAdapter();
await migrate(db, mailer);
const hooks = durableHooks({ adapter: db, namespace: "mailer", hooks: { send: () => {} } });
const options: ListHookOptions = { status: "failed", name: "send", pageSize: 50 };
const page = await hooks.list(options);
const next = page.hasNextPage ? await hooks.list({ ...options, cursor: page.cursor }) : undefined;
await db.close();
