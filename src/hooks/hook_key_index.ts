/**
 * The `(name, key)` uniqueness of the hook table kept for keyed occurrences only, added to a
 * module's schema by {@link withHookPartialKeyIndex}.
 *
 * @module
 */

import type { SchemaBuilder, TablesShape } from "../schema/schema.ts";
import { enqueueOrderedFunction, handOffVersion } from "./hook_hand_off.ts";
import {
  hasHookTable,
  HOOK_TABLE,
  type HookTablesShape,
  KEY_CONFLICT,
  orderLockNamespace,
} from "./hook_table.ts";

/**
 * Replaces the hook table's unique index on `(name, key)` with one on the occurrences that have a
 * key (`WHERE key IS NOT NULL`): two steps that add the partial index and drop the full one, plus
 * one that creates `hook_enqueue_ordered()` again with the new conflict target when the schema has
 * {@link withHookHandOff}.
 *
 * Uniqueness is unchanged: `NULL` keys never collided. What changes is the cost of every row
 * version an occurrence without a key writes (its insert, its claim, its completion): the full
 * index held an entry for each, which no statement ever looked up. A claim and a completion of 512
 * unkeyed occurrences write a row version each, so the entry was one of the seven index entries
 * per occurrence and step.
 *
 * Append it after every other hook step of the schema (it creates the ordered enqueue function of
 * the hand-off again, so a hand-off step appended after it would bring the old one back).
 *
 * @param builder The schema builder, after `withHookTable` and the module's other hook steps.
 * @returns The builder with the steps added.
 *
 * @example A module schema whose unkeyed occurrences write no key index entry
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { withHookPartialKeyIndex, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookPartialKeyIndex(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   ));
 * console.log(schema.version); // 7
 * ```
 */
export function withHookPartialKeyIndex<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables> {
  if (!hasHookTable(builder)) {
    throw new TypeError("withHookPartialKeyIndex() needs the hook table: append it after it");
  }
  const handOff = handOffVersion(builder.steps) !== null;
  const indexed = builder
    .addIndex(HOOK_TABLE, "hook_occurrences_keyed_idx", ["name", "key"], {
      unique: true,
      where: "key IS NOT NULL",
    })
    .dropIndex("hook_occurrences_name_key_idx");
  if (!handOff) return indexed;
  return indexed.sql(({ namespace, qualify }) => [
    enqueueOrderedFunction(
      qualify(HOOK_TABLE),
      qualify,
      orderLockNamespace(namespace),
      "CREATE OR REPLACE",
      KEY_CONFLICT,
    ),
  ]);
}
