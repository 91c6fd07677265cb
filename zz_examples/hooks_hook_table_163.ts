import { column, defineSchema, type RowOf } from "@app/fragment-cli/schema";
import { type HookOrderingShape, withHookOrdering, withHookTable } from "@app/fragment-cli/hooks";

const chats = defineSchema("chats", (s) =>
  withHookOrdering(withHookTable(s.createTable("chats", { id: column.text().primaryKey() }))));
type OrderKey = HookOrderingShape["hook_occurrences"]["order_key"]["type"]; // string
const key: RowOf<typeof chats, "hook_occurrences">["order_key"] = null; // nullable
