/**
 * The PostgreSQL server adapter, over postgres.js (npm `postgres`).
 *
 * @module
 */

import type { SqlAdapter, SqlAdapterStats, SqlTransaction } from "./adapter.ts";
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
import {
  assertOutsideOwnTransaction,
  runInScope,
  type TransactionScope,
} from "./transaction_guard.ts";

/**
 * Options of {@link postgresAdapter}.
 *
 * @example A pool behind a connection pooler
 * ```ts
 * import { postgresAdapter, type PostgresAdapterOptions } from "@app/fragment-cli/sql";
 *
 * // Behind PgBouncer in transaction mode: no prepared statements, a smaller pool.
 * const options: PostgresAdapterOptions = { max: 5, prepare: false };
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
   * Seconds to wait for a connection before failing with `DatabaseUnavailableError`.
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
   * server for its parameter types), and no parsing or planning again. Turn it off behind a
   * connection pooler in transaction mode (PgBouncer before 1.21), which cannot keep statements.
   * @default true
   */
  prepare?: boolean;
}

// deno-lint-ignore no-explicit-any
type Sql = any;
/** postgres.js's `postgres(url, options)`: its typings (`export =`) give no `default` member. */
type Driver = (url: string, options: Record<string, unknown>) => Sql;

/**
 * postgres.js, imported on first use: a process serving on PGlite never loads it (on Deno its
 * import and the Node-compatibility modules it pulls in take about 40 ms of every start).
 */
let driver: Promise<Driver> | undefined;
function loadDriver(): Promise<Driver> {
  driver ??= import("postgres").then((module) =>
    (module as unknown as { default: Driver }).default
  );
  return driver;
}

/**
 * Connects to a PostgreSQL server through a postgres.js pool. Connections open
 * lazily; `close()` ends the pool so the process can exit. Server NOTICE
 * messages are silenced.
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
  const prepare = options.prepare ?? true;
  let closed = false;
  assertParsableUrl(url);
  const poolOptions = {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeout ?? 10,
    idle_timeout: options.idleTimeout ?? 30,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
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
  let opened: Promise<Sql> | undefined;
  /** The pool, created (and postgres.js loaded) on first use; connections open later still. */
  function pool(): Promise<Sql> {
    opened ??= loadDriver().then((postgres) => openPool(postgres, url, poolOptions));
    return opened;
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
    async connect(): Promise<void> {
      ensureOpen();
      await run(await pool(), "SELECT 1");
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      assertOutsideOwnTransaction(adapter, "query()");
      ensureOpen();
      return await run<T>(await pool(), text, params);
    },
    async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      assertOutsideOwnTransaction(adapter, "transaction()");
      ensureOpen();
      counters.transactions++;
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
    },
    async listen(
      channel: string,
      onNotify: (payload: string) => void,
    ): Promise<() => Promise<void>> {
      assertOutsideOwnTransaction(adapter, "listen()");
      ensureOpen();
      const sql = await pool();
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
      await opened?.then((sql) => sql.end({ timeout: 5 }), () => {});
    },
  };
  return adapter;
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

/** The longest wait before a closed connection of the pool reconnects, in seconds. */
const MAX_RECONNECT_DELAY_SECONDS = 2;

/**
 * The wait before a closed connection reconnects after `retries` consecutive failures: 0.1 s
 * doubling up to {@link MAX_RECONNECT_DELAY_SECONDS}, with jitter. postgres.js's default grows
 * to 20 s, and a query waits for its connection's reconnect: while the server is down every
 * request then took up to 20 s to fail (instead of a prompt 503), and once it was back requests
 * kept failing for up to 20 s more. A refused connection costs the server nothing, so retry
 * sooner.
 */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.1 * 2 ** Math.max(0, retries - 1), MAX_RECONNECT_DELAY_SECONDS) *
    (0.5 + Math.random() / 2);
}

/**
 * An unparsable URL fails without quoting it: the driver's error repeats the whole URL, password
 * included, into logs and terminals.
 */
function invalidUrlError(): TypeError {
  return new TypeError(
    "Invalid PostgreSQL connection URL: expected postgres://user:password@host:5432/database " +
      "(the value is not repeated here, it may contain a password)",
  );
}

/**
 * Throws {@link invalidUrlError} at once for a URL postgres.js could not parse, as its own parser
 * reads it (several hosts separated by commas, percent-encoded user and password), since the
 * driver itself is only loaded on first use.
 */
function assertParsableUrl(url: string): void {
  try {
    let host = url.slice(url.indexOf("://") + 3).split(/[?/]/)[0];
    host = decodeURIComponent(host.slice(host.indexOf("@") + 1));
    const parsed = new URL(url.replace(host, host.split(",")[0]));
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
  } catch {
    throw invalidUrlError();
  }
}

/** `postgres(url, options)`, with an unparsable URL reported by {@link invalidUrlError}. */
function openPool(postgres: Driver, url: string, options: Record<string, unknown>): Sql {
  try {
    return postgres(url, options);
  } catch (error) {
    if (!(error instanceof Error) || !/invalid url/i.test(`${error.message} ${error.name}`)) {
      throw error;
    }
    throw invalidUrlError();
  }
}

/** The URL without its password, for messages and `target`. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(invalid url)";
  }
}
