import { column, defineSchema } from "@app/fragment-cli/schema";
import { withHookErrorLog, withHookTable } from "@app/fragment-cli/hooks";

const schema = defineSchema("mailer", (s) =>
  withHookErrorLog(
    withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
  ));
console.log(schema.version); // 6
