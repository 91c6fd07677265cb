import { column, defineSchema } from "@app/fragment-cli/schema";
import { withHookOrdering, withHookTable } from "@app/fragment-cli/hooks";

const schema = defineSchema("mailer", (s) =>
  withHookOrdering(
    withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
  ));
console.log(schema.version); // 8
