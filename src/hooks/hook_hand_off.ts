/**
 * The direct hand-off of ordering keys, added to a module's schema by {@link withHookHandOff}: a
 * completion that finishes an ordered occurrence takes its key's next occurrence from `blocked`
 * straight to `running` for the completing worker, in the completion's own statement.
 *
 * @module
 */

import type { SchemaBuilder, TablesShape } from "../schema/schema.ts";
import type { SqlStepBody } from "../schema/schema_step.ts";
import { CLAIM_LEASE, CLAIMED } from "./hook_functions.ts";
import {
  HOOK_TABLE,
  type HookOrderingShape,
  type HookTablesShape,
  orderLockNamespace,
} from "./hook_table.ts";

/**
 * The setting `hook_complete()` turns on for its own statements: the ordering trigger that
 * releases a finished key's next occurrence (`hook_order_finished`) is skipped while it is on,
 * since the function releases (and hands on) the next occurrences itself.
 */
const HAND_OFF_SETTING = "fragment.hook_hand_off";

/**
 * Replaces the completion function of {@link withHookFunctions} so that the next occurrence of a
 * finished ordering key goes from `blocked` to `running` (claimed for the completing worker) in
 * one row update, and the key's lock is taken once per key and batch instead of once per row:
 * one `sql` step (one version) that replaces `hook_complete()` and has the ordering trigger
 * `hook_order_finished` skip the completions the function makes.
 *
 * Before it, each ordered step wrote three versions of the occurrence's row after its insert (the
 * trigger's release to `pending`, the hand-off's claim to `running`, `done`), each with an entry
 * in every index of the table, and ran the trigger's PL/pgSQL (a lock and an update) once per
 * finished row; now two (claimed `running` straight from `blocked`, `done`). The next occurrence
 * of a key whose hook the worker does not run, or that is not due yet, becomes `pending` as
 * before. Failures, cancellations, deletions and the transaction path of a database without the
 * functions keep the trigger.
 *
 * Append it after {@link withHookFunctions} and `withHookOrdering` (it refuses a schema whose hook
 * table has no ordering keys); the first-party modules append it last.
 *
 * @param builder The schema builder, after `withHookOrdering` and `withHookFunctions`.
 * @returns The builder with the step added.
 *
 * @example A module schema whose ordered hooks hand their key on directly
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import {
 *   withHookFunctions,
 *   withHookHandOff,
 *   withHookOrdering,
 *   withHookTable,
 * } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("chats", (s) =>
 *   withHookHandOff(withHookFunctions(withHookOrdering(
 *     withHookTable(s.createTable("chats", { id: column.text().primaryKey() })),
 *   ))));
 * console.log(schema.version); // 10
 * ```
 */
export function withHookHandOff<Tables extends TablesShape & HookTablesShape & HookOrderingShape>(
  builder: SchemaBuilder<Tables>,
): SchemaBuilder<Tables> {
  const ordered = builder.steps.some((step) =>
    step.kind === "addColumn" && step.table === HOOK_TABLE && step.column.name === "order_key"
  );
  if (!ordered) {
    throw new TypeError(
      "withHookHandOff() needs the hook table's ordering keys: append it after withHookOrdering()",
    );
  }
  const body: HandOffBody = ({ namespace, qualify, quote }) => handOff(namespace, qualify, quote);
  HAND_OFF_BODIES.add(body);
  return builder.sql(body);
}

/** The step bodies of {@link withHookHandOff}, so {@link withHookHandOffLookup} can find one. */
const HAND_OFF_BODIES = new WeakSet<HandOffBody>();

type HandOffBody = Extract<SqlStepBody, (context: never) => unknown>;

/**
 * Replaces the completion function of {@link withHookHandOff} with one that finds a finished
 * key's next occurrence by a walk of the ordering index that stops at the key's first blocked
 * occurrence: one sql step (one version) that replaces `hook_complete()`, with the same
 * signature, answers, locks and row updates.
 *
 * Before it, the lookup read every unfinished occurrence of the key (the ordering index, then
 * the rows, to find the smallest id among the blocked ones), so a step of a deep key cost as
 * much as the key had occurrences left: on 20 keys of 500 occurrences, about 0.09 ms per key and
 * step at the start, most of a completion's time. Now one or two index entries per key. The new
 * function also finds the held rows one primary-key probe each (the join of the previous one was
 * planned as a walk of the whole primary key, each row compared with every attempt of the batch:
 * 45 – 58 ms for 267 attempts on 2,000 keys) and only looks for `late` answers when a key's lock
 * was busy.
 *
 * Append it after {@link withHookHandOff} (it refuses a schema without it).
 *
 * @param builder The schema builder, after `withHookHandOff`.
 * @returns The builder with the step added.
 *
 * @example A module schema whose ordered hooks hand their key on with the index walk
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import {
 *   withHookFunctions,
 *   withHookHandOff,
 *   withHookHandOffLookup,
 *   withHookOrdering,
 *   withHookTable,
 * } from "@app/fragment-cli/hooks";
 *
 * const schema = defineSchema("chats", (s) =>
 *   withHookHandOffLookup(withHookHandOff(withHookFunctions(withHookOrdering(
 *     withHookTable(s.createTable("chats", { id: column.text().primaryKey() })),
 *   )))));
 * console.log(schema.version); // 11
 * ```
 */
export function withHookHandOffLookup<
  Tables extends TablesShape & HookTablesShape & HookOrderingShape,
>(builder: SchemaBuilder<Tables>): SchemaBuilder<Tables> {
  if (
    !builder.steps.some((step) =>
      step.kind === "sql" && typeof step.body === "function" && HAND_OFF_BODIES.has(step.body)
    )
  ) {
    throw new TypeError(
      "withHookHandOffLookup() replaces the function of withHookHandOff(): append it after it",
    );
  }
  const body: HandOffBody = ({ namespace, qualify }) => [handOffComplete(namespace, qualify, true)];
  LOOKUP_BODIES.add(body);
  return builder.sql(body);
}

/** The step bodies of {@link withHookHandOffLookup}, so a later step can tell it is there. */
const LOOKUP_BODIES = new WeakSet<HandOffBody>();

/**
 * Which `hook_complete()` of this file a schema's steps end with: the index walk's
 * ({@link withHookHandOffLookup}), the first hand-off's ({@link withHookHandOff}), or `null` (none
 * of them: the one of `withHookFunctions`, or no function).
 */
export function handOffVersion(
  steps: readonly { kind: string; body?: unknown }[],
): "lookup" | "first" | null {
  const has = (bodies: WeakSet<HandOffBody>) =>
    steps.some((step) =>
      step.kind === "sql" && typeof step.body === "function" &&
      bodies.has(step.body as HandOffBody)
    );
  return has(LOOKUP_BODIES) ? "lookup" : has(HAND_OFF_BODIES) ? "first" : null;
}

/**
 * The hand-off's `hook_complete()`, for one namespace: the index walk's (`lookup`) or the first
 * one's, with `replaced` (when given) instead of the statements that join the table with the batch.
 */
export function handOffComplete(
  namespace: string,
  qualify: (name: string) => string,
  lookup: boolean,
  replaced?: Partial<HandOffParts>,
): string {
  return completeFunction(namespace, qualify, {
    ...(lookup
      ? { lookup: WALK_LOOKUP, finish: WALK_FINISH, late: WALK_LATE }
      : { lookup: FIRST_LOOKUP, finish: FIRST_FINISH, late: FIRST_LATE }),
    ...replaced,
  });
}

/** The statuses of an occurrence that holds its key (or waits for it), as the triggers name them. */
const UNFINISHED = "('pending', 'running', 'blocked')";

function handOff(
  namespace: string,
  qualify: (name: string) => string,
  quote: (name: string) => string,
): string[] {
  const table = qualify(HOOK_TABLE);
  const lockNamespace = orderLockNamespace(namespace);
  return [
    // The same signature, answers and locking rule as before (see withHookFunctions): the
    // attempts still held become done; those of keys it could not lock are answered 'late'.
    // Then each finished key's oldest blocked occurrence (the trigger's choice) is claimed for
    // the claimant when it is due and of its hooks, else made pending, in one update each way.
    // Both find their rows by primary key only: their other tests are written in forms no index
    // answers (on a table without statistics PostgreSQL otherwise read every blocked row through
    // the status and name indexes, milliseconds per call under the webhook load).
    handOffComplete(namespace, qualify, false),
    enqueueOrderedFunction(table, qualify, lockNamespace, "CREATE", "(name, key)"),
    `DROP TRIGGER ${quote("hook_order_enqueued")} ON ${table}`,
    // As withHookOrdering created it, except while hook_enqueue_ordered() runs.
    `CREATE TRIGGER ${quote("hook_order_enqueued")} BEFORE INSERT ON ${table} FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending'
      AND current_setting('${HAND_OFF_SETTING}', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION ${qualify("hook_order_enter")}()`,
    `DROP TRIGGER ${quote("hook_order_finished")} ON ${table}`,
    // As withHookOrdering created it, except while hook_complete() runs (it releases the keys).
    `CREATE TRIGGER ${quote("hook_order_finished")} AFTER UPDATE OF status ON ${table} FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running')
      AND NEW.status IN ('done', 'failed', 'cancelled')
      AND current_setting('${HAND_OFF_SETTING}', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION ${qualify("hook_order_leave")}()`,
  ];
}

/**
 * `hook_enqueue_ordered()`, created by {@link withHookHandOff} and created again with the
 * partial `(name, key)` index's conflict target by `withHookPartialKeyIndex`.
 *
 * Enqueues a batch of occurrences of hook p_name, in the order given: each ordering key's
 * lock taken once (in lock-id order, waiting: the order every writer of several keys takes
 * them in), then, in a statement of its own (a fresh snapshot, which sees every finish
 * committed before the locks were granted), the keys that have an unfinished occurrence;
 * the batch's occurrences of those keys, and all but the first of each other key, are
 * stored blocked. The ordering trigger is skipped meanwhile (it would take the lock and look
 * again per row). An occurrence not inserted ((name, key) existed) may have been the one its
 * key's later ones of the batch were blocked behind: such a key with blocked occurrences and
 * none pending or running has its oldest released. Answers how many were inserted. Its
 * lookups go by the ordering-key index, one probe per key (LATERAL … LIMIT 1, no sequential
 * scans: on a table without statistics PostgreSQL read the whole table, then every
 * unfinished occurrence into a hash, for the busy keys: 2.5 – 3 ms per call under load).
 */
export function enqueueOrderedFunction(
  table: string,
  qualify: (name: string) => string,
  lockNamespace: string,
  create: "CREATE" | "CREATE OR REPLACE",
  conflict: string,
): string {
  return `${create} FUNCTION ${qualify("hook_enqueue_ordered")}(p_name text, p_keys text[],
  p_payloads jsonb[], p_due_at timestamptz, p_order_keys text[]) RETURNS int8
LANGUAGE plpgsql SET enable_seqscan = off SET jit = off SET ${HAND_OFF_SETTING} = 'on' AS $fn$
DECLARE
  v_busy text[];
  v_count int8;
BEGIN
  IF cardinality(p_keys) IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(${lockNamespace}, l.id)
  FROM (SELECT DISTINCT hashtext(k) AS id FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS l
  ORDER BY l.id;
  SELECT COALESCE(array_agg(b.k), '{}') INTO v_busy
  FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS b(k)
  CROSS JOIN LATERAL (SELECT 1 FROM ${table} AS h
    WHERE h.order_key = b.k AND h.status IN ${UNFINISHED} LIMIT 1) AS busy;
  WITH inserted AS (
    INSERT INTO ${table} (name, key, payload, due_at, order_key, status)
    SELECT p_name, i.key, i.payload, COALESCE(p_due_at, now()), i.order_key,
      CASE WHEN i.order_key IS NOT NULL AND (i.order_key = ANY(v_busy)
          OR row_number() OVER (PARTITION BY i.order_key ORDER BY i.n) > 1)
        THEN 'blocked' ELSE 'pending' END
    FROM unnest(p_keys, p_payloads, p_order_keys) WITH ORDINALITY AS i(key, payload, order_key, n)
    ORDER BY i.n
    ON CONFLICT ${conflict} DO NOTHING RETURNING 1)
  SELECT count(*) INTO v_count FROM inserted;
  IF v_count < cardinality(p_keys) THEN
    UPDATE ${table} AS o SET status = 'pending', updated_at = clock_timestamp()
    WHERE o.id IN (
      SELECT (SELECT h.id FROM ${table} AS h
              WHERE h.order_key = k.k AND h.status IN ${UNFINISHED} AND h.status = 'blocked'
              ORDER BY h.order_key, h.id LIMIT 1)
      FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS k(k)
      WHERE NOT EXISTS (SELECT 1 FROM ${table} AS h
                        WHERE h.order_key = k.k AND h.status IN ('pending', 'running')));
  END IF;
  RETURN v_count;
END
$fn$`;
}

/** The update that marks the held attempts done, with `filter` appended to its WHERE. */
function doneUpdate(table: string): (filter: string) => string {
  return (filter) =>
    `UPDATE ${table} AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'${filter}`;
}

/**
 * The parts in which the versions of the hand-off's `hook_complete()` differ; the optional ones
 * are the statements of the steps that landed when not given.
 */
export interface HandOffParts {
  /** Marks the held attempts done (those of locked keys): sets `v_done` and `v_finished`. */
  finish: (table: string) => string;
  /** Answers `late` for the attempts of keys whose lock was busy. */
  late: string;
  /** Sets `v_next` to the oldest blocked occurrence of each finished key. */
  lookup: (table: string) => string;
  /** Variables declared besides the function's own (each line starting with a newline). */
  declare?: string;
  /** Statements run first (each line indented, ending with a newline). */
  prepare?: string;
  /** The done update of a batch without ordering keys, a `RETURN QUERY`. */
  unordered?: (table: string) => string;
  /**
   * How the claim and the update to pending find the rows of the next occurrences (`v_next`):
   * the `FROM` and `WHERE` of an `UPDATE … AS o` (a further line starts with `indent`).
   */
  next?: (indent: string) => string;
}

/** The `hook_complete()` of the hand-off, for one namespace, with its differing `parts`. */
function completeFunction(
  namespace: string,
  qualify: (name: string) => string,
  parts: HandOffParts,
): string {
  const table = qualify(HOOK_TABLE);
  const lockNamespace = orderLockNamespace(namespace);
  const done = doneUpdate(table);
  const finish = parts.finish(table);
  const late = parts.late;
  const lookup = parts.lookup(table);
  const prepare = parts.prepare ?? "";
  const unordered = parts.unordered?.(table) ?? `RETURN QUERY ${done("")}
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;`;
  // The next occurrences' rows in the claim and in the update to pending.
  const next = parts.next ??
    ((indent: string) => `FROM unnest(v_next) AS n(id)\n${indent}WHERE o.id = n.id`);
  return `CREATE OR REPLACE FUNCTION ${qualify("hook_complete")}(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, ${CLAIMED})
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off
SET ${HAND_OFF_SETTING} = 'on' AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];
  v_done int8[];
  v_finished text[];
  v_next int8[];${parts.declare ?? ""}
BEGIN
${prepare}  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    ${unordered}
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(${lockNamespace}, hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(${lockNamespace}, hashtext(k));
  END IF;
${finish}  RETURN QUERY SELECT 'done'::text, d.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(v_done) AS d(id);
${late}  IF v_finished IS NULL THEN
    RETURN;
  END IF;
${lookup}  IF v_next IS NULL THEN
    RETURN;
  END IF;
  IF cardinality(p_names) > 0 THEN
    RETURN QUERY UPDATE ${table} AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = ${CLAIM_LEASE},
        leased_by = p_worker, updated_at = clock_timestamp()
      ${next("      ")} AND o.status IS NOT DISTINCT FROM 'blocked'
        AND o.due_at <= clock_timestamp() AND (o.name = ANY(p_names)) IS TRUE
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
  UPDATE ${table} AS o SET status = 'pending', updated_at = clock_timestamp()
  ${next("  ")} AND o.status IS NOT DISTINCT FROM 'blocked';
END
$fn$`;
}

/** The late answers of {@link withHookHandOff}'s step (landed: its text must not change). */
const FIRST_LATE =
  `  RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
  WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
`;

/**
 * The late answers of {@link withHookHandOffLookup}: none to look for when every key was locked
 * (the usual case). Each attempt's key compared with every locked key cost 68 ms for a batch of
 * 993 keys on the loaded machine.
 */
const WALK_LATE = `  IF cardinality(v_locked) < cardinality(v_keys) THEN
    RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
      NULL::text, NULL::text
    FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
    WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  END IF;
`;

/** The done update of {@link withHookHandOff}'s step (landed: its text must not change). */
const FIRST_FINISH = (table: string): string =>
  `  WITH finished AS (${
    doneUpdate(table)("\n        AND (held.order_key IS NULL OR held.order_key = ANY(v_locked))")
  }
    RETURNING o.id, o.order_key)
  SELECT array_agg(f.id), array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_done, v_finished FROM finished AS f;
`;

/**
 * The done update of {@link withHookHandOffLookup}: the held rows are found and locked one primary
 * key probe per attempt (a LATERAL subquery, so no other join order is possible), then updated by
 * id. The join of {@link FIRST_FINISH} was planned the other way round on ordered batches: a walk
 * of the whole primary key, each row compared with every attempt of the batch (auto_explain, 2,000
 * keys: 528 rows × 267 attempts, 45 – 58 ms for a completion of 267; a full index walk of the table
 * per call on 20 keys).
 */
const WALK_FINISH = (table: string): string =>
  `  SELECT array_agg(x.id) INTO v_done
  FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
  CROSS JOIN LATERAL (SELECT o.id FROM ${table} AS o
    WHERE o.id = held.id AND o.attempts = held.attempts
      AND o.status IS NOT DISTINCT FROM 'running' FOR UPDATE) AS x
  WHERE cardinality(v_locked) = cardinality(v_keys) OR held.order_key IS NULL
    OR held.order_key = ANY(v_locked);
  WITH finished AS (UPDATE ${table} AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(v_done)
    RETURNING o.order_key)
  SELECT array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_finished FROM finished AS f;
`;

/** The lookup of {@link withHookHandOff}'s step (landed: its text must not change). */
const FIRST_LOOKUP = (table: string): string =>
  `  -- Each key's oldest blocked occurrence, among the key's unfinished ones (the ordering index;
  -- OFFSET 0 keeps min() from becoming a walk of the primary key in id order, which read every
  -- finished occurrence older than the key's next one: thousands per key on deep chains).
  SELECT array_agg(n.id) INTO v_next FROM unnest(v_finished) AS f(k)
  CROSS JOIN LATERAL (SELECT min(b.id) AS id FROM (
    SELECT h.id FROM ${table} AS h
    WHERE h.order_key = f.k AND h.status IN ${UNFINISHED} AND h.status = 'blocked' OFFSET 0) AS b
  ) AS n
  WHERE n.id IS NOT NULL;
`;

/**
 * The lookup of {@link withHookHandOffLookup}: per key, a walk of the ordering index in
 * `(order_key, id)` order that stops at the key's first blocked occurrence (the one after the
 * finished occurrence it replaces). The key is compared by a range (`>=` and `<=`), not `=`:
 * with `=` PostgreSQL treats the key as a constant, so the primary key's id order also answers
 * `ORDER BY order_key, id`, and it walked it through every finished occurrence; with the range
 * only the ordering index gives that order (sorts are off).
 */
const WALK_LOOKUP = (table: string): string =>
  `  -- Each key's oldest blocked occurrence: a walk of the ordering index from the key's start,
  -- stopped at the first blocked one (the key compared by a range: see withHookHandOffLookup).
  SELECT array_agg(n.id) INTO v_next FROM unnest(v_finished) AS f(k)
  CROSS JOIN LATERAL (SELECT h.id FROM ${table} AS h
    WHERE h.order_key >= f.k AND h.order_key <= f.k
      AND h.status IN ${UNFINISHED} AND h.status = 'blocked'
    ORDER BY h.order_key, h.id LIMIT 1) AS n;
`;
