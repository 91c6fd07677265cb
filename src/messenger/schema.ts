/**
 * The versioned schema of the messenger module.
 *
 * @module
 */

import { column, defineSchema, type Schema } from "../schema/mod.ts";
import {
  withHookCompletionById,
  withHookErrorLog,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookTable,
} from "../hooks/mod.ts";
import type { HookErrorLogShape, HookOrderingShape, HookTablesShape } from "../hooks/mod.ts";

/**
 * The tables of {@link messengerSchema} (`Schema<MessengerTables>`), for `RowOf`.
 *
 * @example The type of a row of `updates`
 * ```ts
 * import type { RowOf, Schema } from "@app/fragment-cli";
 * import type { MessengerTables } from "@app/fragment-cli/messenger";
 *
 * type UpdateRow = RowOf<Schema<MessengerTables>, "updates">;
 * const row: Pick<UpdateRow, "update_id" | "kind"> = { update_id: "1", kind: "message" };
 * ```
 */
export type MessengerTables = HookTablesShape & HookErrorLogShape & HookOrderingShape & {
  updates: {
    update_id: { type: string; nullable: false; hasDefault: false };
    kind: { type: string; nullable: false; hasDefault: false };
    raw: { type: string; nullable: false; hasDefault: false };
    received_at: { type: Date; nullable: false; hasDefault: true };
  };
};

/**
 * The messenger schema: `updates` (one row per accepted `update_id`, the request body kept
 * verbatim in `raw`: unknown fields, key order, whitespace and 64-bit integers unchanged) and the
 * durable hook table that processes them, with its error log (v6) and ordering keys (v7–9: the
 * updates of one chat are processed in order), the hook worker's SQL functions (v10) and the direct
 * hand-off of a chat to its next update (v11), found by the ordering index (v12), and a completion
 * that finds its rows by id only (v13). Versions 1 … 13; append-only.
 *
 * The body is kept as `text`, not `jsonb`: `jsonb` would reorder keys, drop duplicates and refuse
 * `\u0000` escapes. Query it as JSON with `raw::jsonb` when needed.
 *
 * @example Read the stored updates with SQL
 * ```ts ignore
 * import { messengerSchema } from "@app/fragment-cli/messenger";
 *
 * console.log(messengerSchema.version); // 13
 * // SELECT update_id, raw::jsonb -> 'message' ->> 'text' FROM messenger.updates;
 * ```
 */
export const messengerSchema: Schema<MessengerTables> = defineSchema(
  "messenger",
  (s) =>
    // v13: the completion finds the hook table's rows by id only, whatever the statistics say
    // (withHookCompletionById).
    withHookCompletionById(
      // v12: the completion finds a chat's next update by the ordering index and marks attempts done
      // by primary-key probes (withHookHandOffLookup).
      withHookHandOffLookup(
        // v11: a finished chat's next update goes from blocked to running for the completing worker
        // in the completion's statement (one row version less per update, no per-row trigger).
        withHookHandOff(
          // v10: the hook worker's SQL functions (a claim and a completion in one round trip each).
          withHookFunctions(
            // v7–9: ordering keys of the processing hooks (one chat's updates are processed in order).
            withHookOrdering(
              // v6: the error log of the processing hooks (every failed attempt's error, with its time).
              withHookErrorLog(withHookTable(s.createTable("updates", {
                update_id: column.bigint().primaryKey(),
                kind: column.text(),
                raw: column.text(),
                received_at: column.timestamptz().defaultNow(),
              }))),
            ),
          ),
        ),
      ),
    ),
);
