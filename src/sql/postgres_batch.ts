/**
 * Internal: `batch()` of the PostgreSQL adapter — a transaction whose statements are sent together
 * on a connection reserved from the pool.
 *
 * `BEGIN` and the statements go out in one write (postgres.js pipelines the statements of a
 * reserved connection and coalesces what is issued in one turn); `COMMIT`, or `ROLLBACK` when one
 * failed, goes once every statement has answered. Two round trips whatever the number of
 * statements, where `transaction()` takes one for `BEGIN`, one per awaited step and one for
 * `COMMIT`.
 *
 * `COMMIT` is not sent with the statements, although that would save the second round trip: when
 * a prepared statement has gone stale (a table changed under it, `cached plan must not change
 * result type`), postgres.js runs it again by itself, after everything already sent. Behind a
 * `COMMIT` sent along, that second run would land after the transaction, outside it: committed
 * alone while the batch reports a failure. Sent afterwards, the `COMMIT` waits for it, and the
 * second run fails inside the aborted transaction like the first.
 *
 * @module
 */

import type { SqlStatement } from "./adapter.ts";
import { mapDriverError, serializeJson, toParam } from "./driver_support.ts";
import type { Sql } from "./postgres_pool.ts";

/** What {@link runPostgresBatch} needs of the adapter. */
export interface PostgresBatchContext {
  /** The ready pool. */
  sql: Sql;
  /** Whether parameterized statements run as prepared statements. */
  prepare: boolean;
  /** The redacted URL, for errors. */
  target: string;
}

/** A statement of the batch with its parameters converted, checked before anything is sent. */
interface Checked {
  text: string;
  values: unknown[];
}

/** How the statements sent together ended. */
interface Answers {
  results: PromiseSettledResult<unknown>[];
  /** The error of a connection lost meanwhile (statements queued behind it never answer). */
  lost?: unknown;
}

/** Most parameters one statement can carry (the protocol counts them in 16 bits). */
const MAX_PARAMETERS = 65_534;

/**
 * Runs `statements` in one transaction on a connection reserved from the pool (see the module
 * documentation). Rejects with the mapped error of the first statement that failed, after rolling
 * the transaction back; the connection returns to the pool idle, unless it was lost.
 */
export async function runPostgresBatch(
  context: PostgresBatchContext,
  statements: readonly SqlStatement[],
): Promise<unknown[][]> {
  const checked = statements.map(checkStatement);
  const { target } = context;
  let conn: Sql;
  try {
    conn = await context.sql.reserve();
  } catch (error) {
    throw mapDriverError(error, target);
  }
  let alive = true;
  try {
    const sent = await answers([
      conn.unsafe("BEGIN"),
      ...checked.map((item) =>
        conn.unsafe(item.text, item.values, { prepare: context.prepare && item.values.length > 0 })
      ),
    ]);
    if ("lost" in sent) {
      alive = false;
      throw mapDriverError(sent.lost, target);
    }
    const failure = sent.results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    const end = await answers([conn.unsafe(failure ? "ROLLBACK" : "COMMIT")]);
    if ("lost" in end) {
      alive = false;
      // Without an answer to COMMIT nobody knows whether it committed, as for any transaction.
      throw mapDriverError(end.lost, target);
    }
    const [ended] = end.results;
    if (failure) throw mapDriverError(failure.reason, target);
    if (ended.status === "rejected") throw mapDriverError(ended.reason, target);
    return sent.results.slice(1).map((r) => Array.from((r as PromiseFulfilledResult<[]>).value));
  } finally {
    // A connection postgres.js has closed must not be handed back: it would be used as an open
    // one, and postgres.js would write on its closed socket.
    if (alive) conn.release();
  }
}

/**
 * Waits for every query to answer, or for the first to fail with the connection lost: the
 * queries queued behind it on the reserved connection are then never sent nor answered. Handlers
 * are attached to every query (in order, which is the order postgres.js sends them in), so none
 * can reject unhandled.
 */
function answers(queries: readonly PromiseLike<unknown>[]): Promise<Answers> {
  return new Promise((resolve) => {
    const results: PromiseSettledResult<unknown>[] = new Array(queries.length);
    let left = queries.length;
    queries.forEach((query, i) =>
      query.then(
        (value) => {
          results[i] = { status: "fulfilled", value };
          if (--left === 0) resolve({ results });
        },
        (reason) => {
          results[i] = { status: "rejected", reason };
          if (!isServerError(reason)) resolve({ results, lost: reason });
          else if (--left === 0) resolve({ results });
        },
      )
    );
  });
}

/**
 * Converts a statement's parameters as `query()` does, and refuses before anything is sent what
 * postgres.js would fail on while writing: a statement it could not send would leave the ones
 * after it answered out of order.
 */
function checkStatement(statement: SqlStatement, index: number): Checked {
  if (typeof statement !== "object" || statement === null || typeof statement.sql !== "string") {
    throw new TypeError(`batch(): statement ${index + 1} is not { sql, params }`);
  }
  const params = statement.params ?? [];
  if (params.length > MAX_PARAMETERS) {
    throw new TypeError(
      `batch(): statement ${index + 1} has ${params.length} parameters (at most ${MAX_PARAMETERS})`,
    );
  }
  const values = params.map((value, i) => {
    const param = toParam(value, i);
    if (typeof param === "object" && param !== null && !(param instanceof Uint8Array)) {
      try {
        serializeJson(param);
      } catch (error) {
        throw new TypeError(
          `batch(): parameter $${i + 1} of statement ${index + 1} cannot be sent: ${
            (error as Error).message
          }`,
        );
      }
    }
    return param;
  });
  return { text: statement.sql, values };
}

/** Whether PostgreSQL answered with an error: the connection is still there. */
function isServerError(error: unknown): boolean {
  const e = error as { name?: unknown; severity?: unknown } | null;
  return typeof e === "object" && e !== null && e.name === "PostgresError" &&
    e.severity !== "FATAL" && e.severity !== "PANIC";
}
