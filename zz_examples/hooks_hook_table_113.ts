import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
import { type HookErrorLogShape, withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";

const mailer = defineSchema("mailer", (s) =>
  withHookErrorLog(withHookTable(s.createTable("mails", { id: column.uuid().primaryKey() }))));
type Errors = HookErrorLogShape["hook_occurrences"]["errors"]["type"]; // JsonValue
type Row = RowOf<typeof mailer, "hook_occurrences">; // … & { errors: JsonValue }
