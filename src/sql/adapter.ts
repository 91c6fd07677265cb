/**
 * The SQL adapter interface every database-facing part of fragment-cli talks to.
 *
 * Two implementations ship: {@link https://pglite.dev PGlite} (embedded, the default)
 * and postgres.js (a PostgreSQL server). Both map values identically:
 *
 * | PostgreSQL type              | JavaScript value                  |
 * |------------------------------|-----------------------------------|
 * | `int2`, `int4`, `float4/8`   | `number`                          |
 * | `int8`, `numeric`            | `string` (never a lossy number)   |
 * | `bool`                       | `boolean`                         |
 * | `timestamptz`                | `Date`                            |
 * | `json`, `jsonb`              | the parsed value                  |
 * | `bytea`                      | `Uint8Array`                      |
 * | `text`, `varchar`, `uuid`    | `string`                          |
 * | `NULL`                       | `null`                            |
 *
 * Parameters use `$1, $2, …` placeholders and take plain JavaScript values:
 * strings, numbers, booleans, `bigint`, `Date`, `Uint8Array`, `null`, and
 * objects or arrays for `json`/`jsonb` parameters.
 *
 * @module
 */

/** Anything that runs one parameterized SQL statement and returns its rows. */
export interface SqlQuerier {
  /**
   * Runs one statement with `$1, $2, …` placeholders bound to `params`.
   *
   * @param sql One SQL statement.
   * @param params The values of the placeholders, in order.
   * @returns The rows, mapped as described in the module documentation.
   * @throws {SqlError} When PostgreSQL rejects the statement (`code` is the SQLSTATE).
   * @throws {DatabaseUnavailableError} When the database cannot be reached.
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * A running transaction. It is valid only while the callback that received it
 * runs; using it afterwards throws {@link TransactionMisuseError}.
 */
export interface SqlTransaction extends SqlQuerier {
  /**
   * Runs `fn` inside a SAVEPOINT of this transaction: if `fn` throws, only the
   * work done inside it is rolled back and the error is rethrown.
   *
   * @param fn The work to run inside the savepoint.
   * @returns What `fn` returned.
   */
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

/** Counters an adapter keeps for diagnostics and benchmarks. */
export interface SqlAdapterStats {
  /** Statements run through `query()` (on the adapter and its transactions). */
  readonly queries: number;
  /** Transactions started (savepoints excluded). */
  readonly transactions: number;
}

/** A connection (pool) to one PostgreSQL database. */
export interface SqlAdapter extends SqlQuerier {
  /** Which implementation this is. */
  readonly kind: "pglite" | "postgres";
  /**
   * Where the data lives, safe to print: a directory, `memory://`, or a
   * connection URL without its password.
   */
  readonly target: string;
  /** Live counters, see {@link SqlAdapterStats}. */
  readonly stats: SqlAdapterStats;
  /**
   * Opens the database now instead of on first use, so configuration errors
   * (unreachable server, locked data directory) surface at start-up.
   */
  connect(): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back (and
   * the error rethrown) when it throws. Nested `tx.transaction()` calls use
   * savepoints. Calling the adapter itself (not `tx`) from inside `fn` while the
   * transaction runs throws, because that statement would not be part of it.
   *
   * @param fn The work to run in the transaction.
   * @returns What `fn` returned.
   */
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  /**
   * Subscribes to `NOTIFY` messages on a channel (the name is used verbatim,
   * case included). Send with `SELECT pg_notify($1, $2)`.
   *
   * @param channel The channel name.
   * @param onNotify Called with each notification's payload.
   * @returns A function that unsubscribes.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes the connection(s); later calls fail with {@link DatabaseUnavailableError}. Idempotent. */
  close(): Promise<void>;
}
