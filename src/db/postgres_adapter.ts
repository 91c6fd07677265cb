/**
 * The PostgreSQL server adapter, over postgres.js (npm `postgres`).
 *
 * @module
 */

import postgres from "postgres";
import type { SqlAdapter, SqlAdapterStats, SqlTransaction } from "./adapter.ts";
import { DatabaseUnavailableError, TransactionMisuseError } from "./adapter_errors.ts";
import {
  bytesToHex,
  hexToBytes,
  mapDriverError,
  serializeJson,
  toParam,
} from "./_driver_support.ts";
import {
  assertOutsideOwnTransaction,
  runInScope,
  type TransactionScope,
} from "./_transaction_guard.ts";

/** Options of {@link postgresAdapter}. */
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
}

// deno-lint-ignore no-explicit-any
type Sql = any;

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
 * ```ts ignore
 * import { postgresAdapter } from "./postgres_adapter.ts";
 *
 * const db = postgresAdapter("postgres://postgres@127.0.0.1:5432/postgres");
 * const rows = await db.query<{ n: number }>("SELECT $1::int4 AS n", [41]);
 * await db.close();
 * ```
 */
export function postgresAdapter(url: string, options: PostgresAdapterOptions = {}): SqlAdapter {
  const target = redactUrl(url);
  const counters = { queries: 0, transactions: 0 };
  let closed = false;
  const sql: Sql = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeout ?? 10,
    idle_timeout: options.idleTimeout ?? 30,
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
  });

  function ensureOpen(): void {
    if (closed) throw new DatabaseUnavailableError(`Database ${target} is closed`);
  }

  async function run<T>(conn: Sql, text: string, params?: readonly unknown[]): Promise<T[]> {
    counters.queries++;
    try {
      const result = await conn.unsafe(text, (params ?? []).map(toParam));
      return Array.from(result as T[]);
    } catch (error) {
      throw mapDriverError(error, target);
    }
  }

  function makeTransaction(conn: Sql, scope: TransactionScope): SqlTransaction & { end(): void } {
    let finished = false;
    const check = (): void => {
      if (finished) throw new TransactionMisuseError("Transaction is already finished");
    };
    return {
      async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
        check();
        return await run<T>(conn, text, params);
      },
      async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
        check();
        try {
          return await conn.savepoint(async (sp: Sql) => {
            const inner = makeTransaction(sp, scope);
            try {
              return await fn(inner);
            } finally {
              inner.end();
            }
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
      await run(sql, "SELECT 1");
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      assertOutsideOwnTransaction(adapter, "query()");
      ensureOpen();
      return await run<T>(sql, text, params);
    },
    async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      assertOutsideOwnTransaction(adapter, "transaction()");
      ensureOpen();
      counters.transactions++;
      const scope: TransactionScope = { owner: adapter, active: true };
      try {
        return await sql.begin((conn: Sql) => {
          const tx = makeTransaction(conn, scope);
          return runInScope(scope, () => fn(tx)).finally(() => {
            scope.active = false;
            tx.end();
          });
        });
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
      await sql.end({ timeout: 5 });
    },
  };
  return adapter;
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
