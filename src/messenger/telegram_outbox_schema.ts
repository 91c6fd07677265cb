/**
 * The schema of the Telegram outbox: its durable hook table only (each occurrence is one Bot API
 * call: the method and its parameters, never the token), in its own namespace.
 *
 * @module
 */

import { defineSchema, type Schema } from "../schema/mod.ts";
import {
  type HookErrorLogShape,
  type HookOrderingShape,
  type HookTablesShape,
  withHookCompletionById,
  withHookErrorLog,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookPartialKeyIndex,
  withHookTable,
} from "../hooks/mod.ts";

/**
 * The tables of {@link telegramOutboxSchema}: the hook table.
 *
 * @example
 * ```ts
 * import type { TelegramOutboxTables } from "@app/fragment-cli/messenger";
 *
 * type Hooks = keyof TelegramOutboxTables; // "hook_occurrences"
 * ```
 */
export type TelegramOutboxTables = HookTablesShape & HookErrorLogShape & HookOrderingShape;

/**
 * The Telegram outbox's schema (namespace `telegram_outbox` unless the outbox is given another):
 * the durable hook table (v1–4), its error log (v5), ordering keys (v6–8: one chat's calls in
 * order), the worker's SQL functions (v9) and the direct hand-off of a chat's next call to the
 * worker that finished the one before (v10), found by the ordering index (v11), and a completion
 * that finds its rows by id only (v12), and the `(name, key)` index for keyed calls only (v13–15).
 * Append-only.
 *
 * @example
 * ```ts ignore
 * import { telegramOutboxSchema } from "@app/fragment-cli/messenger";
 *
 * console.log(telegramOutboxSchema.version); // 15
 * ```
 */
export const telegramOutboxSchema: Schema<TelegramOutboxTables> = defineSchema(
  "telegram_outbox",
  (s) =>
    // v13–15: the (name, key) index holds keyed occurrences only (withHookPartialKeyIndex).
    withHookPartialKeyIndex(
      // v12: the completion finds the hook table's rows by id only (withHookCompletionById).
      withHookCompletionById(withHookHandOffLookup(
        withHookHandOff(withHookFunctions(withHookOrdering(withHookErrorLog(withHookTable(s))))),
      )),
    ),
);
