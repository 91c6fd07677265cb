/**
 * The PostgreSQL server adapter, over postgres.js (npm `postgres`).
 *
 * @module
 */

import type { SqlAdapter, SqlAdapterStats, SqlStatement, SqlTransaction } from "./adapter.ts";
import {
  DatabaseClosedError,
  DatabaseUnavailableError,
  TransactionMisuseError,
} from "./adapter_errors.ts";
import {
  bytesToHex,
  hexToBytes,
  mapDriverError,
  serializeJson,
  toParam,
} from "./driver_support.ts";
import { runPostgresBatch } from "./postgres_batch.ts";
import {
  acquireGate,
  assertParsableUrl,
  openReadyPool,
  type ReadyPool,
  reconnectDelaySeconds,
  redactUrl,
  type Sql,
} from "./postgres_pool.ts";
import {
  assertOutsideOwnTransaction,
  runInScope,
  type TransactionScope,
} from "./transaction_guard.ts";

/**
 * Options of {@link postgresAdapter}.
 *
 * @example Behind a connection pooler
 * ```ts
 * import { postgresAdapter, type PostgresAdapterOptions } from "@app/fragment-cli/sql";
 *
 * // Queries through PgBouncer (transaction mode); migrations and LISTEN on the server itself.
 * const options: PostgresAdapterOptions = {
 *   max: 5,
 *   directUrl: "postgres://app@127.0.0.1:5432/app",
 * };
 * const db = postgresAdapter("postgres://app@127.0.0.1:6432/app", options);
 * await db.close();
 * ```
 */
export interface PostgresAdapterOptions {
  /**
   * Maximum connections in the pool.
   * @default 10
   */
  max?: number;
  /**
   * Seconds to wait for a connection to open before failing with `DatabaseUnavailableError`.
   * @default 10
   */
  connectTimeout?: number;
  /**
   * Seconds an idle connection stays open (0 keeps them until `close()`).
   * @default 30
   */
  idleTimeout?: number;
  /**
   * Run parameterized statements as named prepared statements, kept per connection: one round
   * trip per query instead of two (a parameterized query that is not prepared first asks the
   * server for its parameter types), and no parsing or planning again. By default they are on,
   * and off by themselves when the first statement finds a connection pooler in between
   * (PgBouncer before 1.21 cannot keep them in transaction mode): the pool then opens again with
   * none at all, the driver's own `commit`, `rollback` and `savepoint` included. `true` keeps them
   * on behind a pooler that can (PgBouncer ≥ 1.21 with `max_prepared_statements`).
   * @default on, off behind a connection pooler
   */
  prepare?: boolean;
  /**
   * A URL that reaches the server itself, not through a pooler: migrations (`migrate()`,
   * `fragment-cli db migrate`) and `listen()` (the durable hooks' wake-up) use it, since a pooler
   * in transaction mode cannot hold a session lock or a `LISTEN`. `databaseFromEnv()` reads it
   * from `DIRECT_DATABASE_URL`. Without it, `listen()` behind a pooler subscribes nothing and
   * hooks fall back to polling (see docs/adapters.md, "Behind a connection pooler").
   */
  directUrl?: string;
  /**
   * Milliseconds a statement or transaction waits for a free connection of the pool (all `max`
   * busy) before failing with `DatabaseUnavailableError`: an HTTP 503 with `Retry-After`, instead
   * of a request that hangs behind slow statements.
   * @default 5000
   */
  acquireTimeout?: number;
  /**
   * Milliseconds after which the server cancels a statement (PostgreSQL's `statement_timeout`,
   * set when each connection opens); a cancelled statement fails with `StatementTimeoutError`
   * (HTTP 503 with `Retry-After`), on the promise of the call that ran it. The adapter's own
   * first statement (see {@link postgresAdapter}) is exempt. Off by default. PgBouncer refuses
   * connections that ask for it (`unsupported startup parameter`): behind one, set it on the role
   * instead (`ALTER ROLE app SET statement_timeout = '5s'`).
   * @default undefined (no limit)
   */
  statementTimeout?: number;
}

/**
 * Connects to a PostgreSQL server through a postgres.js pool. Connections open
 * lazily; `close()` ends the pool so the process can exit. Server NOTICE
 * messages are silenced.
 *
 * The first statement of the pool runs alone, before any other, on the promise of the call that
 * needed the pool: it looks up the server's array types (so an array parameter is always sent as
 * an array literal, from the very first request of a cold start) and detects a connection pooler
 * (the pool then opens again without prepared statements, and `listen()` goes to `directUrl`).
 * The adapter runs no other statement of its own: whatever fails — a `statementTimeout`, an
 * `acquireTimeout`, a connection terminated while the pool starts — rejects a caller's promise,
 * never unhandled.
 *
 * @param url A connection URL, e.g. `postgres://user:pass@127.0.0.1:5432/app`.
 * @param options Pool settings.
 * @returns The adapter.
 *
 * @example Query a server
 * ```ts
 * import { postgresAdapter } from "@app/fragment-cli/sql";
 *
 * const db = postgresAdapter("postgres://postgres@127.0.0.1:5432/postgres");
 * const rows = await db.query<{ n: number }>("SELECT $1::int4 AS n", [41]);
 * await db.close();
 * ```
 */
export function postgresAdapter(url: string, options: PostgresAdapterOptions = {}): SqlAdapter {
  const target = redactUrl(url);
  const counters = { queries: 0, transactions: 0 };
  let prepare = options.prepare ?? true;
  let closed = false;
  assertParsableUrl(url);
  if (options.directUrl !== undefined) assertParsableUrl(options.directUrl);
  const max = options.max ?? 10;
  const gate = acquireGate(max, positive(options.acquireTimeout, 5000, "acquireTimeout"), target);
  const statementTimeout = options.statementTimeout;
  if (statementTimeout !== undefined) positive(statementTimeout, 0, "statementTimeout");
  const poolOptions = {
    max,
    connect_timeout: options.connectTimeout ?? 10,
    idle_timeout: options.idleTimeout ?? 30,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    ...(statementTimeout === undefined
      ? {}
      : { connection: { statement_timeout: String(statementTimeout) } }),
    // bytea as plain Uint8Array (no Buffer); json parameters accept bigint like PGlite.
    types: {
      json: {
        to: 114,
        from: [114, 3802],
        serialize: serializeJson,
        parse: (x: string) => JSON.parse(x),
      },
      // postgres.js turns timestamp strings into a Date (dropping microseconds): keep them text.
      date: {
        to: 1184,
        from: [1082, 1114, 1184],
        serialize: (x: unknown) => x instanceof Date ? x.toISOString() : String(x),
        parse: (x: string) => new Date(x),
      },
      bytea: {
        to: 17,
        from: [17],
        serialize: (x: Uint8Array) => "\\x" + bytesToHex(x),
        parse: (x: string) => hexToBytes(x),
      },
    },
  };
  let opened: Promise<ReadyPool> | undefined;
  let pooled = false;
  /**
   * The pool, created (and postgres.js loaded) on first use, and ready: its first statement has
   * answered (see {@link openReadyPool}). A first statement that failed is tried again next time.
   */
  async function pool(): Promise<Sql> {
    opened ??= openReadyPool(url, poolOptions, target, options.prepare).then((ready) => {
      pooled = ready.pooled;
      if (pooled && options.prepare === undefined) prepare = false;
      return ready;
    });
    try {
      return (await opened).sql;
    } catch (error) {
      opened = undefined;
      throw error;
    }
  }
  /** The adapter on `directUrl` (migrations, LISTEN), opened on first use. */
  let direct: SqlAdapter | undefined;
  function directAdapter(): SqlAdapter | undefined {
    if (options.directUrl === undefined) return undefined;
    direct ??= postgresAdapter(options.directUrl, {
      max: 2,
      connectTimeout: options.connectTimeout,
      idleTimeout: options.idleTimeout,
      acquireTimeout: options.acquireTimeout,
      statementTimeout,
    });
    return direct;
  }

  function ensureOpen(): void {
    if (closed) throw new DatabaseClosedError(target);
  }

  async function run<T>(conn: Sql, text: string, params?: readonly unknown[]): Promise<T[]> {
    counters.queries++;
    try {
      const values = (params ?? []).map(toParam);
      // Without values postgres.js uses the simple protocol: one round trip, and the only one
      // that accepts several statements in one text (migration files rely on it).
      const result = await conn.unsafe(text, values, { prepare: prepare && values.length > 0 });
      return Array.from(result as T[]);
    } catch (error) {
      throw mapDriverError(error, target);
    }
  }

  function makeTransaction(
    conn: Sql,
    scope: TransactionScope,
    link: ConnectionLink,
  ): SqlTransaction & { end(): void } {
    let finished = false;
    const check = (): void => {
      if (finished) throw new TransactionMisuseError("Transaction is already finished");
      // Never write on a connection postgres.js has closed (see ConnectionLink).
      if (link.lost) throw link.lostError();
    };
    return {
      async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
        check();
        return await run<T>(conn, text, params);
      },
      async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
        check();
        try {
          return await conn.savepoint((sp: Sql) => {
            const inner = makeTransaction(sp, scope, link);
            return link.guard(fn(inner)).finally(() => inner.end());
          });
        } catch (error) {
          throw mapDriverError(error, target);
        }
      },
      end(): void {
        finished = true;
      },
    };
  }

  const adapter: SqlAdapter = {
    kind: "postgres",
    target,
    get stats(): SqlAdapterStats {
      return { ...counters };
    },
    get direct(): SqlAdapter | undefined {
      return directAdapter();
    },
    async connect(): Promise<void> {
      ensureOpen();
      await gate.run(async () => await run(await pool(), "SELECT 1"));
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      assertOutsideOwnTransaction(adapter, "query()");
      ensureOpen();
      return await gate.run(async () => await run<T>(await pool(), text, params));
    },
    async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      assertOutsideOwnTransaction(adapter, "transaction()");
      ensureOpen();
      counters.transactions++;
      return await gate.run(async () => {
        const scope: TransactionScope = { owner: adapter, active: true };
        const link = connectionLink(target);
        const sql = await pool();
        try {
          const begun = sql.begin((conn: Sql) => {
            const tx = makeTransaction(conn, scope, link);
            return link.guard(
              runInScope(scope, () => fn(tx)).finally(() => {
                scope.active = false;
                tx.end();
              }),
            );
          });
          link.watch(begun);
          return await begun;
        } catch (error) {
          throw mapDriverError(error, target);
        }
      });
    },
    async batch<T extends unknown[][] = Record<string, unknown>[][]>(
      statements: readonly SqlStatement[],
    ): Promise<T> {
      assertOutsideOwnTransaction(adapter, "batch()");
      ensureOpen();
      if (statements.length === 0) return [] as unknown[][] as T;
      counters.transactions++;
      counters.queries += statements.length;
      const results = await gate.run(async () =>
        await runPostgresBatch({ sql: await pool(), prepare, target }, statements)
      );
      return results as unknown[][] as T;
    },
    async listen(
      channel: string,
      onNotify: (payload: string) => void,
    ): Promise<() => Promise<void>> {
      assertOutsideOwnTransaction(adapter, "listen()");
      ensureOpen();
      const onDirect = directAdapter();
      if (onDirect) return await onDirect.listen(channel, onNotify);
      const sql = await pool();
      // A pooler in transaction mode hands the LISTEN's server connection to other clients: no
      // notification would reliably arrive. Subscribe nothing; callers poll (durable hooks every
      // `pollIntervalMs`).
      if (pooled) return () => Promise.resolve();
      try {
        const { unlisten } = await sql.listen(channel, onNotify);
        return async (): Promise<void> => {
          if (!closed) await unlisten();
        };
      } catch (error) {
        throw mapDriverError(error, target);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // A pool that never opened (the driver failed to load) has nothing to end.
      await Promise.all([
        opened?.then((ready) => ready.sql.end({ timeout: 5 }), () => {}),
        direct?.close(),
      ]);
    },
  };
  return adapter;
}

/** Checks a numeric option: a positive finite number, or `fallback` when not given. */
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`postgresAdapter option ${name} must be a positive number of ms`);
  }
  return value;
}

/**
 * Keeps postgres.js from writing on a transaction's connection once that connection has closed.
 *
 * When the callback of `sql.begin()` (or of a savepoint) settles, postgres.js writes COMMIT or
 * ROLLBACK on the transaction's reserved connection. If the server closed that connection first
 * (restart, failover, `pg_terminate_backend`), postgres.js 3.4.9 schedules the write on a socket
 * it has already set to `null` and the process dies of an uncaught `TypeError` ("Cannot read
 * properties of null (reading 'write')"; porsager/postgres#1066, #1154, #1208, unfixed
 * upstream). The server has rolled the transaction back already and `sql.begin()` rejects through
 * its own close handler, so the guard leaves the callback's promise pending instead: postgres.js
 * then writes nothing. The callback is given up only when the connection is known to be gone:
 * `sql.begin()` rejected, or a statement failed with a connection error and `sql.begin()`
 * rejected within {@link LOST_CONNECTION_WAIT_MS}; otherwise the error is rethrown as usual.
 */
interface ConnectionLink {
  /** Whether the transaction's connection is known to be gone. */
  readonly lost: boolean;
  /** The error for statements attempted after the loss. */
  lostError(): DatabaseUnavailableError;
  /** Follows `sql.begin()`'s promise: its rejection means the connection is gone. */
  watch(begun: Promise<unknown>): void;
  /** Passes `work` through, or leaves it pending forever when the connection is gone. */
  guard<T>(work: Promise<T>): Promise<T>;
}

/** How long a connection error waits for postgres.js to report the connection closed. */
const LOST_CONNECTION_WAIT_MS = 5_000;

function connectionLink(target: string): ConnectionLink {
  let lost = false;
  let markLost!: () => void;
  const closed = new Promise<void>((resolve) => (markLost = resolve));
  const never = <T>(): Promise<T> => new Promise<T>(() => {});
  const link: ConnectionLink = {
    get lost() {
      return lost;
    },
    lostError: () =>
      new DatabaseUnavailableError(
        `Database ${target} is unavailable: the transaction's connection was closed`,
      ),
    watch(begun) {
      begun.then(undefined, () => {
        lost = true;
        markLost();
      });
    },
    guard<T>(work: Promise<T>): Promise<T> {
      return work.then(
        (value) => (lost ? never<T>() : value),
        async (error) => {
          if (!lost && !(mapDriverError(error, target) instanceof DatabaseUnavailableError)) {
            throw error;
          }
          let timer: ReturnType<typeof setTimeout> | undefined;
          const gone = await Promise.race([
            closed.then(() => true),
            new Promise<false>((resolve) => {
              timer = setTimeout(() => resolve(false), LOST_CONNECTION_WAIT_MS);
            }),
          ]);
          clearTimeout(timer);
          if (gone) return never<T>();
          throw error;
        },
      );
    },
  };
  return link;
}
