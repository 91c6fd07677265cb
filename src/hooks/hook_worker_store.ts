/**
 * Internal: the SQL of the worker's side of durable hooks: claim due occurrences, renew a lease,
 * record each attempt's outcome (completions in batches), hand a finished ordering key's next
 * occurrence to the same worker, release what a stopping worker did not start.
 *
 * With the SQL functions of `withHookFunctions` in the namespace, a claim and a completion are
 * one round trip each (`SELECT * FROM hook_claim(…)`, `SELECT * FROM hook_complete(…)`): the
 * functions carry the planner settings the statements need and the ordering locks they take.
 * Without them (schemas that never appended it, databases not yet migrated) each is a short
 * transaction of its own: `BEGIN`, the settings, the statement(s), `COMMIT`.
 *
 * @module
 */

import type { SqlAdapter, SqlQuerier } from "../sql/adapter.ts";
import type { JsonValue } from "../schema/column.ts";
import { HOOK_ERROR_LOG_LENGTH } from "./hook_table.ts";
import type { HookQuerier } from "./hook_types.ts";
import { type HookTableProbe, lockOrderKeys } from "./hook_table_probe.ts";

/** The longest error text kept per occurrence. */
const MAX_ERROR_LENGTH = 8000;

/** An occurrence claimed by a worker for one attempt. */
export interface ClaimedOccurrence {
  id: string;
  name: string;
  key: string | null;
  payload: JsonValue;
  /** The number of this attempt; with the id it fences the finishing update. */
  attempt: number;
  lastError: string | null;
  /** The ordering key (`withHookOrdering`), or `null`. */
  orderKey: string | null;
}

/** Who claims: the hooks a worker runs, its lease and its id. */
export interface Claimant {
  names: readonly string[];
  leaseMs: number;
  workerId: string;
}

/** What a batch of completions did. */
export interface Completion {
  /** Whether each attempt, in the order given, still held its occurrence (and is now done). */
  held: boolean[];
  /**
   * The next occurrences of the finished attempts' ordering keys, claimed for the same worker in
   * the same round trip (hand-off); empty without a claimant or without `withHookFunctions`.
   */
  next: ClaimedOccurrence[];
}

interface ClaimRow {
  id: string;
  name: string;
  key: string | null;
  payload: JsonValue | null;
  attempts: number;
  last_error: string | null;
  order_key: string | null;
}

/** The worker statements of one namespace's hook table. */
export class HookWorkerStore {
  readonly #probe: HookTableProbe;
  readonly #table: string;

  constructor(probe: HookTableProbe) {
    this.#probe = probe;
    this.#table = probe.table;
  }

  /**
   * Claims up to `limit` due occurrences of the given hooks: pending ones whose time has come and
   * running ones whose lease expired. SKIP LOCKED lets concurrent workers claim disjoint sets.
   */
  async claim(db: SqlAdapter, claimant: Claimant, limit: number): Promise<ClaimedOccurrence[]> {
    const { names, leaseMs, workerId } = claimant;
    const ordering = await this.#probe.hasOrdering(db);
    if (await this.#probe.hasFunctions(db)) {
      const rows = await db.query<ClaimRow>(
        `SELECT * FROM ${this.#probe.fn("hook_claim")}($1::text[], $2::int4, $3::int8, $4::text,
           $5::boolean)`,
        [names, limit, leaseMs, workerId, ordering],
      );
      return toClaimed(rows);
    }
    const orderKey = ordering ? "o.order_key" : "NULL::text AS order_key";
    const rows = await withIndexPlans(db, (tx) =>
      tx.query<ClaimRow>(
        // Ordered by due_at alone, so the partial index on due_at serves it: the first due rows
        // come straight off the index however long the backlog (with `, id` PostgreSQL sorted
        // every pending row: 8 ms per claim at 20,000 waiting). `= ANY(ARRAY(…))` keeps the
        // update on the primary key in the generic plan of the prepared statement too.
        `UPDATE ${this.#table} AS o
       SET status = 'running', attempts = o.attempts + 1,
           due_at = clock_timestamp() + $3::int8 * interval '1 millisecond',
           leased_by = $4, updated_at = clock_timestamp()
       WHERE o.id = ANY(ARRAY(
         SELECT id FROM ${this.#table}
         WHERE status IN ('pending', 'running') AND due_at <= clock_timestamp()
           AND name = ANY($1::text[])
         ORDER BY due_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ))
       RETURNING o.id, o.name, o.key, o.payload, o.attempts, o.last_error, ${orderKey}`,
        [names, limit, leaseMs, workerId],
      ));
    return toClaimed(rows);
  }

  /** Extends the lease of a running attempt; `false` when the attempt no longer holds it. */
  async renew(db: HookQuerier, claimed: ClaimedOccurrence, leaseMs: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE ${this.#table}
       SET due_at = clock_timestamp() + $3::int8 * interval '1 millisecond'
       WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
      [claimed.id, claimed.attempt, leaseMs],
    );
    return rows.length > 0;
  }

  /**
   * Marks running attempts done, in one statement; answers, in the order given, whether each
   * attempt still held its occurrence. Fenced by the attempt number: a stale worker changes
   * nothing. With a claimant (and `withHookFunctions`), the next occurrence of each finished
   * ordering key, released by the trigger of `withHookOrdering` in the same transaction, is
   * claimed for that claimant at once: the key's chain goes on without another claim round.
   */
  async completeMany(
    db: SqlAdapter,
    claimed: readonly ClaimedOccurrence[],
    claimant?: Claimant,
  ): Promise<Completion> {
    if (await this.#probe.hasFunctions(db)) {
      return await this.#completeByFunction(db, claimed, claimant);
    }
    const orderKeys = claimed.flatMap((c) => c.orderKey === null ? [] : [c.orderKey]);
    if (orderKeys.length === 0) {
      const rows = await withIndexPlans(db, (tx) => this.#complete(tx, claimed));
      return { held: held(claimed, rows), next: [] };
    }
    // Ordered attempts: the trigger that hands each key on takes the key's lock. A transaction
    // holding several keys' locks must never wait for another one (an enqueueing transaction may
    // hold that one and wait for one of ours), so this one only tries them; the attempts whose
    // key is busy are completed one per transaction, each waiting for its key alone.
    const late: ClaimedOccurrence[] = [];
    const rows = await withIndexPlans(db, async (tx) => {
      const locked = await tx.query<{ key: string }>(
        `SELECT key FROM unnest($2::text[]) AS key
         WHERE pg_try_advisory_xact_lock(hashtext($1), hashtext(key))`,
        [this.#probe.namespace, orderKeys],
      );
      const lockedKeys = new Set(locked.map((r) => r.key));
      const now = claimed.filter((c) => c.orderKey === null || lockedKeys.has(c.orderKey));
      late.push(...claimed.filter((c) => c.orderKey !== null && !lockedKeys.has(c.orderKey)));
      return now.length > 0 ? await this.#complete(tx, now) : [];
    });
    for (const one of late) {
      rows.push(
        ...await withIndexPlans(db, async (tx) => {
          await lockOrderKeys(tx, this.#probe.namespace, [one.orderKey!]);
          return await this.#complete(tx, [one]);
        }),
      );
    }
    return { held: held(claimed, rows), next: [] };
  }

  /**
   * The completion through `hook_complete()`: one call for the batch, which waits for the key
   * lock when the batch has one ordering key and only tries them when it has several (the rule
   * of the transaction path); the attempts it answers `late` (their key busy) are completed one
   * call each, waiting for their key alone.
   */
  async #completeByFunction(
    db: SqlAdapter,
    claimed: readonly ClaimedOccurrence[],
    claimant: Claimant | undefined,
  ): Promise<Completion> {
    const done = new Set<string>();
    const next: ClaimedOccurrence[] = [];
    const call = async (batch: readonly ClaimedOccurrence[]): Promise<Set<string>> => {
      const rows = await db.query<ClaimRow & { outcome: "done" | "late" | "claimed" }>(
        `SELECT * FROM ${this.#probe.fn("hook_complete")}($1::int8[], $2::int4[], $3::text[],
           $4::text[], $5::int8, $6::text)`,
        [
          ...attemptParams(batch),
          batch.map((c) => c.orderKey),
          claimant?.names ?? [],
          claimant?.leaseMs ?? 0,
          claimant?.workerId ?? null,
        ],
      );
      const late = new Set<string>();
      for (const row of rows) {
        if (row.outcome === "done") done.add(String(row.id));
        else if (row.outcome === "late") late.add(String(row.id));
        else next.push(...toClaimed([row]));
      }
      return late;
    };
    const late = await call(claimed);
    // One call per late attempt: with a single key, the function waits for its lock.
    for (const one of claimed) if (late.has(one.id)) await call([one]);
    return { held: claimed.map((c) => done.has(c.id)), next: sortById(next) };
  }

  #complete(tx: SqlQuerier, claimed: readonly ClaimedOccurrence[]): Promise<{ id: string }[]> {
    return tx.query<{ id: string }>(
      `UPDATE ${this.#table} AS o
       SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
           finished_at = clock_timestamp()
       ${ATTEMPTS_STILL_HELD}
       RETURNING o.id`,
      attemptParams(claimed),
    );
  }

  /**
   * Hands claimed attempts that never started back: pending and due now, their attempt not
   * counted. Fenced like completion: a lease already taken over is left alone.
   */
  async release(db: SqlAdapter, claimed: readonly ClaimedOccurrence[]): Promise<void> {
    await withIndexPlans(db, (tx) =>
      tx.query(
        `UPDATE ${this.#table} AS o
         SET status = 'pending', attempts = o.attempts - 1, leased_by = NULL,
             due_at = clock_timestamp(), updated_at = clock_timestamp()
         ${ATTEMPTS_STILL_HELD}`,
        attemptParams(claimed),
      ));
  }

  /**
   * Records a failed attempt: pending again after `retryInMs`, or failed when it is `null`. The
   * final failure of an ordered attempt hands its key on (trigger): its key's lock is taken
   * first, before the row's, the order every writer of a key takes them in.
   */
  async fail(
    db: SqlAdapter,
    claimed: ClaimedOccurrence,
    error: string,
    retryInMs: number | null,
  ): Promise<boolean> {
    if (retryInMs === null && claimed.orderKey !== null) {
      return await db.transaction(async (tx) => {
        await lockOrderKeys(tx, this.#probe.namespace, [claimed.orderKey!]);
        return await this.#fail(tx, claimed, error, retryInMs);
      });
    }
    return await this.#fail(db, claimed, error, retryInMs);
  }

  async #fail(
    db: HookQuerier,
    claimed: ClaimedOccurrence,
    error: string,
    retryInMs: number | null,
  ): Promise<boolean> {
    const text = error.length > MAX_ERROR_LENGTH ? error.slice(0, MAX_ERROR_LENGTH) : error;
    const log = (await this.#probe.hasErrorLog(db)) ? `, errors = ${APPEND_ERROR}` : "";
    const rows = retryInMs === null
      ? await db.query(
        `UPDATE ${this.#table}
         SET status = 'failed', last_error = $3, leased_by = NULL${log},
             updated_at = clock_timestamp(), finished_at = clock_timestamp()
         WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
        [claimed.id, claimed.attempt, text],
      )
      : await db.query(
        `UPDATE ${this.#table}
         SET status = 'pending', last_error = $3, leased_by = NULL${log},
             due_at = clock_timestamp() + $4::int8 * interval '1 millisecond',
             updated_at = clock_timestamp()
         WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
        [claimed.id, claimed.attempt, text, retryInMs],
      );
    return rows.length > 0;
  }

  /**
   * Milliseconds until the next occurrence of the given hooks is due (0 if one is due now), by
   * the database's clock, or `null` when none is pending or running.
   */
  async nextDueIn(db: HookQuerier, names: readonly string[]): Promise<number | null> {
    const rows = await db.query<{ ms: number | null }>(
      `SELECT (EXTRACT(EPOCH FROM (min(due_at) - clock_timestamp())) * 1000)::float8 AS ms
       FROM ${this.#table}
       WHERE status IN ('pending', 'running') AND name = ANY($1::text[])`,
      [names],
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Math.max(0, Math.ceil(ms));
  }
}

/**
 * The `errors` column with the failed attempt `$3` (its text) appended, trimmed to the latest
 * {@link HOOK_ERROR_LOG_LENGTH} entries. Used in the SET of an update of the failing row, whose
 * `attempts` is the number of the attempt that failed.
 */
const APPEND_ERROR = `(SELECT COALESCE(jsonb_agg(e ORDER BY i), '[]'::jsonb)
         FROM jsonb_array_elements(COALESCE(errors, '[]'::jsonb) || jsonb_build_array(
           jsonb_build_object('attempt', attempts, 'at', clock_timestamp(), 'error', $3::text)))
           WITH ORDINALITY AS t(e, i)
         WHERE i > jsonb_array_length(COALESCE(errors, '[]'::jsonb)) + 1 - ${HOOK_ERROR_LOG_LENGTH})`;

/**
 * The rows of the claimed attempts `$1` (ids) / `$2` (attempt numbers) that are still theirs:
 * running, at that attempt (an occurrence taken over by another worker is not matched), found by
 * primary key, one index probe per held row. No `o.id = ANY($1)` besides the join: in the generic
 * plan of the prepared statement it made PostgreSQL join the bitmap scan of `ANY` with the
 * unnested list in a nested loop, comparing every pair — 1.8 s for a completion of 3,472 rows
 * (12 M rows removed by the join filter) against 62 ms by probing the primary key. The status
 * test is written `IS NOT DISTINCT FROM` (the same test on a NOT NULL column) because no index
 * can answer that form, so the status index is no alternative to the primary key (see
 * {@link withIndexPlans}). `hook_complete()` (`withHookFunctions`) has the same test.
 */
const ATTEMPTS_STILL_HELD = `FROM unnest($1::int8[], $2::int4[]) AS held(id, attempts)
       WHERE o.id = held.id AND o.attempts = held.attempts
         AND o.status IS NOT DISTINCT FROM 'running'`;

/**
 * Runs the worker's batch statements (claim, completion, release) in a transaction that turns off
 * sequential scans and sorts for itself, so that they read the indexes meant for them whatever
 * the table's statistics say: the claim walks the due index in order and stops after its limit,
 * the completion finds its rows by primary key. (The functions of `withHookFunctions` carry the
 * same settings in their definitions.)
 *
 * Why: the hook table is the one that grows in bursts. Without statistics (a new table, or one
 * grown faster than autovacuum analyzes it), or with a plan cached while it was small,
 * PostgreSQL guessed a handful of waiting rows. It read every waiting row and sorted them all for
 * each claim (16 ms per claim at 20,000 waiting, 0.1 ms in index order), and scanned the whole
 * table or every running row for each completion. In the benchmark's webhook scenario (22,000
 * deliveries) claims averaged 11.7 ms and completions 2.4 ms, 15 s of statement time in all, and
 * the backlog took 15 s to drain after the load; with these settings, 6 s.
 *
 * JIT compilation is turned off with them: a plan node that cannot avoid what is turned off (the
 * sort of `lockOrderKeys()`) is costed at PostgreSQL's "disabled" 10^10, far above
 * `jit_above_cost`, so every such statement was compiled by LLVM with inlining and optimization
 * first: 0.2 – 1.3 s of server CPU for a statement that runs in 0.1 ms. Under the webhook load,
 * every completion whose ordering key an ingest statement held went that way.
 */
function withIndexPlans<T>(db: SqlAdapter, run: (tx: SqlQuerier) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(INDEX_PLANS);
    return await run(tx);
  });
}

const INDEX_PLANS = "SELECT set_config('enable_seqscan', 'off', true), " +
  "set_config('enable_sort', 'off', true), set_config('jit', 'off', true)";

/** The parameters of {@link ATTEMPTS_STILL_HELD}. */
function attemptParams(claimed: readonly ClaimedOccurrence[]): [string[], number[]] {
  return [claimed.map((c) => c.id), claimed.map((c) => c.attempt)];
}

/** Whether each attempt, in the order given, is among the rows its completion updated. */
function held(claimed: readonly ClaimedOccurrence[], rows: readonly { id: string }[]): boolean[] {
  const completed = new Set(rows.map((row) => String(row.id)));
  return claimed.map((c) => completed.has(c.id));
}

function toClaimed(rows: readonly ClaimRow[]): ClaimedOccurrence[] {
  return sortById(rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    key: r.key,
    payload: r.payload ?? null,
    attempt: r.attempts,
    lastError: r.last_error,
    orderKey: r.order_key ?? null,
  })));
}

function sortById(claimed: ClaimedOccurrence[]): ClaimedOccurrence[] {
  return claimed.sort((a, b) => compareIds(a.id, b.id));
}

/** Orders decimal id strings numerically. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
