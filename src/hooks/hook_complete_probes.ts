/**
 * Completions by primary-key probes, added to a module's schema by
 * {@link withHookCompletionProbes}: `hook_complete()` finds the rows of a batch of finished
 * attempts one primary-key probe each, whatever the planner thinks of the batch.
 *
 * @module
 */

import type { SchemaBuilder, TablesShape } from "../schema/schema.ts";
import { completeFunction, FUNCTIONS_BODIES } from "./hook_functions.ts";
import { handOffComplete, handOffVersion } from "./hook_hand_off.ts";
import { HOOK_TABLE, type HookTablesShape } from "./hook_table.ts";

/**
 * Replaces `hook_complete()` (of {@link withHookFunctions}, or of the hand-off when the schema has
 * `withHookHandOff` / `withHookHandOffLookup`) with one whose done update finds the held rows one
 * primary-key probe each and locks them (a `LATERAL` subquery, so no other join order is
 * possible), then updates them by id: one `sql` step (one version), with the same signature,
 * answers, locks and row updates.
 *
 * Before it, the done update of a batch without ordering keys joined the table with the unnested
 * batch (`UPDATE … FROM unnest(…)`). With the table's statistics taken while its occurrences were
 * pending (the usual case: a backlog), PostgreSQL expected no `running` row and planned a walk of
 * the whole primary key, each row compared with every attempt of the batch: 99 ms for 512
 * attempts in a table of 20,000 (7 ms by probes), and 1,535 ms for one completion of about 2,000
 * in a drain of 20,000 (`auto_explain`), most of that drain's time.
 *
 * Append it last, after `withHookFunctions` and the hand-off steps the schema has (it refuses a
 * schema without `withHookFunctions`).
 *
 * @param builder The schema builder, after `withHookFunctions` (and the hand-off steps).
 * @returns The builder with the step added.
 *
 * @example A module schema whose completions find their rows by primary-key probes
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import {
 *   withHookCompletionProbes,
 *   withHookFunctions,
 *   withHookTable,
 * } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookCompletionProbes(withHookFunctions(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   )));
 * console.log(schema.version); // 7
 * ```
 */
export function withHookCompletionProbes<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables> {
  const functions = builder.steps.some((step) =>
    step.kind === "sql" && typeof step.body === "function" && FUNCTIONS_BODIES.has(step.body)
  );
  if (!functions) {
    throw new TypeError(
      "withHookCompletionProbes() replaces the function of withHookFunctions(): append it after it",
    );
  }
  const handOff = handOffVersion(builder.steps);
  return builder.sql(({ namespace, qualify }) => {
    const done = probedDone(qualify(HOOK_TABLE));
    return [
      handOff === null
        ? completeFunction(namespace, qualify, "CREATE OR REPLACE", done)
        : handOffComplete(namespace, qualify, handOff === "lookup", done(false)),
    ];
  });
}

/**
 * The done update by probes, as a `RETURN QUERY` of the attempts marked done (`ordered`: only
 * those without a key or with a locked one, `v_locked`). The rows are locked by the probes, so
 * the update by id needs no recheck of the attempt (a row another worker claimed meanwhile fails
 * the probe's conditions, which a lock re-evaluates on the row's latest version).
 */
function probedDone(table: string): (ordered: boolean) => string {
  return (ordered) =>
    `RETURN QUERY UPDATE ${table} AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(ARRAY(SELECT x.id
        FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
        CROSS JOIN LATERAL (SELECT h.id FROM ${table} AS h
          WHERE h.id = held.id AND h.attempts = held.attempts
            AND h.status IS NOT DISTINCT FROM 'running' FOR UPDATE) AS x${
      ordered ? "\n        WHERE held.order_key IS NULL OR held.order_key = ANY(v_locked)" : ""
    }))
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;`;
}
