/**
 * Completions that find their rows by id only, added to a module's schema by
 * {@link withHookCompletionById}: no statement of `hook_complete()` joins the hook table with the
 * batch, so no statistics can turn a completion into a scan of the table.
 *
 * @module
 */

import type { SchemaBuilder, TablesShape } from "../schema/schema.ts";
import { completeFunction, FUNCTIONS_BODIES } from "./hook_functions.ts";
import { handOffComplete, type HandOffParts, handOffVersion } from "./hook_hand_off.ts";
import { HOOK_TABLE, type HookTablesShape } from "./hook_table.ts";

/**
 * Replaces `hook_complete()` (of {@link withHookFunctions}, or of the hand-off when the schema has
 * `withHookHandOff` / `withHookHandOffLookup`) with one whose statements find the hook table's
 * rows by id only: one `sql` step (one version), with the same signature, answers, locks and row
 * updates.
 *
 * The done update reads the rows of the batch by the primary key (`id = ANY(p_ids)`, one index
 * scan) and tests each row's attempt number against the batch's, looked up by id in a `jsonb`
 * object built once per call; the hand-off's updates of the keys' next occurrences read them by
 * `id = ANY(…)` too. Each statement reads one table and none joins it with anything, so PostgreSQL
 * has no way to the rows but the primary key (sequential scans are off in the function).
 *
 * Before it, those statements joined the table with the unnested batch (`UPDATE … FROM
 * unnest(…)`). With statistics taken while no occurrence was running (after a backlog was
 * enqueued, or with the table holding done occurrences only), PostgreSQL expected the join to find
 * one row and could read the whole primary key instead of probing it: 1,535 ms for one completion
 * of about 2,000 attempts in a table of 20,000, and a cost that grows with the done occurrences the
 * table keeps. The done update by id costs what the well-planned join did.
 *
 * Append it last, after `withHookFunctions` and the hand-off steps the schema has (it refuses a
 * schema without `withHookFunctions`); a hand-off step appended after it would bring the joins
 * back.
 *
 * @param builder The schema builder, after `withHookFunctions` (and the hand-off steps).
 * @returns The builder with the step added.
 *
 * @example A module schema whose completions find their rows by id
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import {
 *   withHookCompletionById,
 *   withHookFunctions,
 *   withHookTable,
 * } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookCompletionById(withHookFunctions(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   )));
 * console.log(schema.version); // 7
 * ```
 */
export function withHookCompletionById<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables> {
  const functions = builder.steps.some((step) =>
    step.kind === "sql" && typeof step.body === "function" && FUNCTIONS_BODIES.has(step.body)
  );
  if (!functions) {
    throw new TypeError(
      "withHookCompletionById() replaces the function of withHookFunctions(): append it after it",
    );
  }
  const handOff = handOffVersion(builder.steps);
  return builder.sql(({ namespace, qualify }) => {
    const table = qualify(HOOK_TABLE);
    return [
      handOff === null
        ? completeFunction(namespace, qualify, "CREATE OR REPLACE", {
          declare: HELD_DECLARE,
          prepare: HELD_PREPARE,
          done: (ordered) => `RETURN QUERY ${doneById(table, ordered)}\n      ${RETURNING_DONE}`,
          nextPending: NEXT_PENDING,
        })
        : handOffComplete(namespace, qualify, handOff === "lookup", HAND_OFF_BY_ID),
    ];
  });
}

/** The attempt number of each held id (`{"<id>": <attempt>}`), built once per call. */
const HELD_DECLARE = "\n  v_held jsonb;";
const HELD_PREPARE = "  v_held := jsonb_object(p_ids::text[], p_attempts::text[]);\n";

/** What the done update of a batch without ordering keys answers per row. */
const RETURNING_DONE =
  `RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;`;

/**
 * The update that marks the held attempts done, by id (`ordered`: only those without a key or
 * with a locked one, `v_locked`; when every key was locked, the usual case, no row's key is
 * compared with the locked ones). A row taken over by another claim since (a later attempt
 * number) is left alone; PostgreSQL re-evaluates the test on the row's latest version when it
 * waits for a concurrent update of it.
 */
function doneById(table: string, ordered: boolean): string {
  return `UPDATE ${table} AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(p_ids) AND o.status IS NOT DISTINCT FROM 'running'
        AND o.attempts = (v_held ->> o.id::text)::int4${
    ordered
      ? `
        AND (cardinality(v_locked) = cardinality(v_keys) OR o.order_key IS NULL
          OR o.order_key = ANY(v_locked))`
      : ""
  }`;
}

/**
 * The pending occurrences of the locked keys, for the claim of `withHookFunctions`' completion:
 * by the ordering index only. With `h.status = 'pending'` the partial index of due occurrences
 * (`status IN ('pending', 'running')`) answered it too, and PostgreSQL read all of it (its
 * `due_at <= clock_timestamp()` is no index condition): every pending and running occurrence, per
 * call.
 * The first test names the ordering index's statuses, which the due index's do not include; the
 * second is written in a form no index answers.
 */
const NEXT_PENDING = `h.order_key = ANY(v_locked) AND h.status IN ('pending', 'running', 'blocked')
          AND h.status IS NOT DISTINCT FROM 'pending'`;

/** The hand-off's statements by id. */
const HAND_OFF_BY_ID: Partial<HandOffParts> = {
  declare: HELD_DECLARE,
  prepare: HELD_PREPARE,
  unordered: (table) => `RETURN QUERY ${doneById(table, false)}\n      ${RETURNING_DONE}`,
  finish: (table) =>
    `  WITH finished AS (${doneById(table, true)}
    RETURNING o.id, o.order_key)
  SELECT array_agg(f.id), array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_done, v_finished FROM finished AS f;
`,
  next: () => "WHERE o.id = ANY(v_next)",
};
