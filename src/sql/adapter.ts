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

/**
 * Anything that runs one parameterized SQL statement and returns its rows.
 *
 * @example A function that runs on an adapter or inside a transaction
 * ```ts
 * import type { SqlQuerier } from "@app/fragment-cli/sql";
 *
 * // Works on an adapter and on a transaction alike.
 * async function countNotes(db: SqlQuerier): Promise<number> {
 *   const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM note");
 *   return row.n;
 * }
 * ```
 */
export interface SqlQuerier {
  /**
   * Runs one statement with `$1, $2, …` placeholders bound to `params`.
   *
   * @param sql One SQL statement.
   * @param params The values of the placeholders, in order.
   * @returns The rows, mapped as described in the module documentation.
   * @throws {SqlError} When PostgreSQL rejects the statement (`code` is the SQLSTATE).
   * @throws {StatementTimeoutError} When PostgreSQL cancels it (`statement_timeout`), a `SqlError`.
   * @throws {DatabaseUnavailableError} When the database cannot be reached.
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * One statement of {@link SqlAdapter.batch}: its text with `$1, $2, …` placeholders and their
 * values.
 *
 * @example A statement built apart from where it runs
 * ```ts
 * import type { SqlStatement } from "@app/fragment-cli/sql";
 *
 * function lockAccount(id: string): SqlStatement {
 *   return { sql: "SELECT id FROM account WHERE id = $1 FOR UPDATE", params: [id] };
 * }
 * ```
 */
export interface SqlStatement {
  /** One SQL statement. */
  sql: string;
  /** The values of the placeholders, in order. */
  params?: readonly unknown[];
}

/**
 * A running transaction. It is valid only while the callback that received it
 * runs; using it afterwards throws {@link TransactionMisuseError}.
 *
 * @example Work that commits or rolls back as one
 * ```ts
 * import { pgliteAdapter, type SqlTransaction } from "@app/fragment-cli/sql";
 *
 * async function moveCredit(tx: SqlTransaction, from: string, to: string): Promise<void> {
 *   await tx.query("UPDATE account SET credit = credit - 1 WHERE id = $1", [from]);
 *   await tx.query("UPDATE account SET credit = credit + 1 WHERE id = $1", [to]);
 * }
 * const db = pgliteAdapter();
 * await db.query("CREATE TABLE account (id text PRIMARY KEY, credit int NOT NULL)");
 * await db.query("INSERT INTO account VALUES ('a', 1), ('b', 0)");
 * await db.transaction((tx) => moveCredit(tx, "a", "b")); // both updates, or neither
 * await db.close();
 * ```
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

/**
 * Counters an adapter keeps for diagnostics and benchmarks.
 *
 * @example Count the statements a piece of code runs
 * ```ts
 * import { pgliteAdapter, type SqlAdapterStats } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query("SELECT 1");
 * const stats: SqlAdapterStats = db.stats;
 * console.log(stats.queries, stats.transactions); // 1 0
 * await db.close();
 * ```
 */
export interface SqlAdapterStats {
  /** Statements run through `query()` (on the adapter and its transactions). */
  readonly queries: number;
  /** Transactions started (savepoints excluded). */
  readonly transactions: number;
}

/**
 * A connection (pool) to one PostgreSQL database.
 *
 * @example Code that takes any database
 * ```ts
 * import { databaseFromEnv, type SqlAdapter } from "@app/fragment-cli/sql";
 *
 * async function health(db: SqlAdapter): Promise<string> {
 *   await db.query("SELECT 1");
 *   return `${db.kind} at ${db.target}: ok`;
 * }
 * const db: SqlAdapter = databaseFromEnv(); // PGlite, or PostgreSQL when DATABASE_URL is set
 * console.log(await health(db));
 * await db.close();
 * ```
 */
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
   * The adapter on a direct connection to the server, when this one goes through a connection
   * pooler and was given one (`postgresAdapter(url, { directUrl })`, `DIRECT_DATABASE_URL`):
   * migrations run there. `undefined` otherwise.
   */
  readonly direct?: SqlAdapter;
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
   * Runs `statements` in order in one transaction, sent to the server together: for work whose
   * statements need no result from one another in JavaScript (each still sees what the ones
   * before it did). All are committed, or none: when one fails, the transaction is rolled back
   * and the promise rejects with that statement's error, as `query()` would (a `SqlError`,
   * `DatabaseUnavailableError`, …); the adapter stays usable. Parameters that cannot be sent
   * (`undefined`, a JSON value that cannot be serialized) are refused with a `TypeError` before
   * anything runs. The statements must not begin or end transactions themselves.
   *
   * On PostgreSQL, `BEGIN` and the statements go out in one write on one connection and `COMMIT`
   * once they have answered: two round trips, where `transaction()` awaits `BEGIN`, each step
   * and `COMMIT` (a parameterized statement's first run on a connection asks for its parameter
   * types first, one more round trip). In READ COMMITTED each statement takes its snapshot when
   * it starts: a statement after a lock sees what the lock's previous holders committed. On
   * PGlite the statements run one after the other in a transaction.
   *
   * @param statements The statements, in the order they run. An empty list runs nothing.
   * @returns The rows of each statement, in order (`T` types them, unchecked, like `query<T>()`).
   *
   * @example Lock, then insert what the lock protects
   * ```ts
   * import { pgliteAdapter } from "@app/fragment-cli/sql";
   *
   * const db = pgliteAdapter();
   * await db.query("CREATE TABLE seat (room text, guest text)");
   * const [, inserted] = await db.batch<[unknown[], { n: number }[]]>([
   *   { sql: "SELECT pg_advisory_xact_lock(hashtext($1))", params: ["room-1"] },
   *   {
   *     sql: `WITH added AS (
   *             INSERT INTO seat SELECT $1, $2 WHERE (SELECT count(*) FROM seat WHERE room = $1) < 10
   *             RETURNING 1)
   *           SELECT count(*)::int AS n FROM added`,
   *     params: ["room-1", "ada"],
   *   },
   * ]);
   * console.log(inserted[0].n); // 1
   * await db.close();
   * ```
   */
  batch<T extends unknown[][] = Record<string, unknown>[][]>(
    statements: readonly SqlStatement[],
  ): Promise<T>;
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
