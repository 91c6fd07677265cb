import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
import { type HookTablesShape, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() })));
type Occurrence = RowOf<typeof mailer, keyof HookTablesShape>; // { id: string; name: string; … }
