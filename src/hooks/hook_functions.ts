/**
 * The SQL functions the hook worker calls, added to a module's schema by
 * {@link withHookFunctions}: a claim and a completion in one round trip each, and the hand-off of
 * an ordering key to the worker that finished the key's previous occurrence.
 *
 * @module
 */

import type { SchemaBuilder, TablesShape } from "../schema/schema.ts";
import type { SqlStepBody } from "../schema/schema_step.ts";
import { HOOK_TABLE, type HookTablesShape, orderLockNamespace } from "./hook_table.ts";

/**
 * Adds the worker's SQL functions to a schema with the hook table (after `withHookTable`): one
 * `sql` step (one version) that creates `hook_claim()` and `hook_complete()` in the namespace.
 * Appended where the call stands, like any step; the first-party modules append it last.
 *
 * Without them a worker claims and completes in short transactions (`BEGIN`, its planner
 * settings, the statement, `COMMIT`: four round trips each); with them, one statement each, and
 * when an ordered occurrence (`withHookOrdering`) finishes, the completion also claims its key's
 * next occurrence for the same worker, which runs it without waiting for another claim round.
 * The worker finds the functions in the database by itself (a database not yet migrated to them
 * keeps working the other way). Works before or after `withHookOrdering` and `withHookErrorLog`.
 *
 * @param builder The schema builder, after `withHookTable`.
 * @returns The builder with the functions added.
 *
 * @example A module schema whose workers claim in one round trip
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { withHookFunctions, withHookTable } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("mailer", (s) =>
 *   withHookFunctions(
 *     withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })),
 *   ));
 * console.log(schema.version); // 6
 * ```
 */
export function withHookFunctions<Tables extends TablesShape & HookTablesShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables> {
  const body: FunctionsBody = ({ namespace, qualify }) => hookFunctions(namespace, qualify);
  FUNCTIONS_BODIES.add(body);
  return builder.sql(body);
}

type FunctionsBody = Extract<SqlStepBody, (context: never) => unknown>;

/** The step bodies of {@link withHookFunctions}, so a later step can tell it is there. */
export const FUNCTIONS_BODIES: WeakSet<FunctionsBody> = new WeakSet<FunctionsBody>();

/**
 * The settings both functions run with: see `withIndexPlans` in hook_worker_store.ts (JIT off
 * too: a plan costed with a disabled sort would otherwise be LLVM-compiled before each run).
 */
const INDEX_PLANS = "SET enable_seqscan = off SET enable_sort = off SET jit = off";

/** The lease of an occurrence a function claims (`p_lease_ms` from now). */
export const CLAIM_LEASE = "clock_timestamp() + p_lease_ms * interval '1 millisecond'";

/** The columns both functions answer (the claimed occurrence's; `order_key` or NULL). */
export const CLAIMED =
  "id int8, name text, key text, payload jsonb, attempts int4, last_error text, " +
  "order_key text";

/**
 * The two functions, for one namespace (its table and lock namespace written into their bodies,
 * so their statements are planned once per connection, like the ordering triggers').
 * PL/pgSQL plans a statement when it first runs it, so a branch that reads `order_key` works on a
 * table without ordering keys as long as it is not taken (`p_ordered`, no order keys given).
 */
function hookFunctions(namespace: string, qualify: (name: string) => string): string[] {
  const table = qualify(HOOK_TABLE);
  // The claim of hook_store's transaction path, statement for statement.
  const claim = (orderKey: string) =>
    `RETURN QUERY UPDATE ${table} AS o
      ${CLAIM_SET}
      WHERE o.id = ANY(ARRAY(
        SELECT h.id FROM ${table} AS h
        WHERE h.status IN ('pending', 'running') AND h.due_at <= clock_timestamp()
          AND h.name = ANY(p_names)
        ORDER BY h.due_at
        LIMIT p_limit
        FOR UPDATE SKIP LOCKED))
      RETURNING o.id, o.name, o.key, o.payload, o.attempts, o.last_error, ${orderKey};`;
  return [
    `CREATE FUNCTION ${qualify("hook_claim")}(p_names text[], p_limit int4, p_lease_ms int8,
  p_worker text, p_ordered boolean) RETURNS TABLE (${CLAIMED})
LANGUAGE plpgsql ${INDEX_PLANS} AS $fn$
#variable_conflict use_column
BEGIN
  IF p_ordered THEN
    ${claim("o.order_key")}
  ELSE
    ${claim("NULL::text")}
  END IF;
END
$fn$`,
    completeFunction(namespace, qualify, "CREATE", { done: joinDone(table) }),
  ];
}

/** The fields a claim sets, in the claim and in the hand-off of a completion. */
const CLAIM_SET = `SET status = 'running', attempts = o.attempts + 1, due_at = ${CLAIM_LEASE},
        leased_by = p_worker, updated_at = clock_timestamp()`;

/** The parts in which the versions of {@link completeFunction} differ. */
export interface FunctionsCompleteParts {
  /** The done update, a `RETURN QUERY` (`ordered`: the attempts of keys not locked left out). */
  done: (ordered: boolean) => string;
  /** Variables declared besides the function's own (each line starting with a newline). */
  declare?: string;
  /** Statements run first (each line indented, ending with a newline). */
  prepare?: string;
  /**
   * How the hand-off's claim tests a row's key and status (the pending occurrence of a locked
   * key, `v_locked`); `h.order_key = ANY(v_locked) AND h.status = 'pending'` by default.
   */
  nextPending?: string;
}

/**
 * The `hook_complete()` of {@link withHookFunctions}, for one namespace, created with `create`
 * (`CREATE` in its own step, `CREATE OR REPLACE` in a later one), with its differing `parts`.
 *
 * Completes the attempts (p_ids, p_attempts) still held, in one statement. With ordering keys
 * (p_order_keys, one per attempt, NULL for none), it first takes the keys' locks, which the
 * trigger that releases each key's next occurrence takes too: waiting for the lock when the
 * batch has one key, only trying them when it has several (a transaction holding several
 * keys must never wait for another: an enqueuing one may hold it and wait for one of ours);
 * the attempts of keys it could not lock are answered 'late', for a call of their own. Then,
 * for a claimant (p_names not empty), it claims the pending occurrence each locked key now
 * has (the one the trigger released), due now, of those hooks: the hand-off.
 */
export function completeFunction(
  namespace: string,
  qualify: (name: string) => string,
  create: "CREATE" | "CREATE OR REPLACE",
  parts: FunctionsCompleteParts,
): string {
  const table = qualify(HOOK_TABLE);
  const lockNamespace = orderLockNamespace(namespace);
  const prepare = parts.prepare ?? "";
  return `${create} FUNCTION ${qualify("hook_complete")}(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, ${CLAIMED})
LANGUAGE plpgsql ${INDEX_PLANS} AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];${parts.declare ?? ""}
BEGIN
${prepare}  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    ${parts.done(false)}
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(${lockNamespace}, hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(${lockNamespace}, hashtext(k));
  END IF;
  ${parts.done(true)}
  RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
  WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  IF cardinality(p_names) > 0 AND cardinality(v_locked) > 0 THEN
    RETURN QUERY UPDATE ${table} AS o
      ${CLAIM_SET}
      WHERE o.id = ANY(ARRAY(
        SELECT h.id FROM ${table} AS h
        WHERE ${parts.nextPending ?? "h.order_key = ANY(v_locked) AND h.status = 'pending'"}
          AND h.due_at <= clock_timestamp() AND h.name = ANY(p_names)
        FOR UPDATE SKIP LOCKED))
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
END
$fn$`;
}

/** The done update of {@link withHookFunctions}'s step (landed: its text must not change). */
function joinDone(table: string): (ordered: boolean) => string {
  return (ordered) =>
    `RETURN QUERY UPDATE ${table} AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'${
      ordered ? "\n        AND (held.order_key IS NULL OR held.order_key = ANY(v_locked))" : ""
    }
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;`;
}
