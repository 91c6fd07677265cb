/**
 * Internal: opening a postgres.js pool for the PostgreSQL adapter — loading the driver, checking
 * the URL without repeating it, the first statement that readies the pool (array types, pooler
 * detection), and the gate that bounds the wait for a connection.
 *
 * @module
 */

import { DatabaseUnavailableError } from "./adapter_errors.ts";
import { mapDriverError } from "./driver_support.ts";
import {
  ARRAY_TYPES_QUERY,
  type ArrayTypeRow,
  registerArrayTypes,
} from "./postgres_array_types.ts";

// deno-lint-ignore no-explicit-any
export type Sql = any;
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

/** What the first statement of a pool found out. */
export interface ReadyPool {
  /** The postgres.js pool. */
  sql: Sql;
  /**
   * Whether a connection pooler (PgBouncer and the like) stands between the pool and the server:
   * the server process that ran the statement is not the one the connection was told of.
   */
  pooled: boolean;
}

/**
 * Opens a pool and runs its first statement before any other statement may use it.
 *
 * postgres.js serializes a JavaScript array parameter as a PostgreSQL array literal only with the
 * array types it knows; an array bound before they were known reached the server as `a,b` (22P02
 * `malformed array literal`: a 500 on the first requests after a cold start). postgres.js's own lookup of them
 * (`fetch_types`, a catalog query on every new connection) is off: when it failed — cancelled by
 * `statement_timeout`, its connection terminated — its rejection was unhandled and ended the
 * process (see postgres_array_types.ts). The first statement looks the types up instead, and
 * registers them for every connection of the pool, so once it has answered every array parameter
 * of every statement is serialized; its failure reaches the caller that waits for the pool.
 *
 * It runs as one simple-protocol message, an implicit transaction: `SET LOCAL statement_timeout =
 * 0` first, so that neither the adapter's `statementTimeout` nor one set on the role cancels the
 * adapter's own lookup (with `statementTimeout: 1` it was cancelled on every start). The same
 * message compares the server process id that answers (`pg_backend_pid()`) with the one
 * announced at connection start (BackendKeyData): a pooler announces its own key, so they differ
 * behind one.
 *
 * Behind a pooler, unless `prepare` was chosen, the pool is opened again with postgres.js's own
 * `prepare: false` (and readied the same way). The option of the pool governs the statements
 * postgres.js sends by itself too — `commit`, `rollback`, `savepoint` — which it prepares once per
 * client connection; a per-statement `prepare: false` does not reach them. In transaction mode
 * the next transaction of that client connection runs on another server connection, where the
 * prepared `commit` does not exist: the failed Bind aborted the transaction, postgres.js prepared
 * the `commit` again, and the server answered the aborted transaction's COMMIT with ROLLBACK — the
 * transaction reported success and its writes were gone (lost sign-ups, hook claims and completions
 * undone).
 *
 * @param url The connection URL (already checked by {@link assertParsableUrl}).
 * @param options postgres.js options.
 * @param target The redacted URL, for errors.
 * @param prepare The adapter's `prepare` option: `undefined` turns preparation off behind a
 *   pooler, `true`/`false` keep it as given.
 * @returns The ready pool; on failure the pool is ended and the error mapped.
 */
export async function openReadyPool(
  url: string,
  options: Record<string, unknown>,
  target: string,
  prepare: boolean | undefined,
): Promise<ReadyPool> {
  const postgres = await loadDriver();
  const first = await readyPool(postgres, url, { ...options, prepare: prepare ?? true }, target);
  if (!first.pooled || prepare !== undefined) return first;
  await first.sql.end({ timeout: 5 }).catch(() => {});
  const again = await readyPool(postgres, url, { ...options, prepare: false }, target);
  return { sql: again.sql, pooled: true };
}

/** The pool's first statement (see {@link openReadyPool}); three results, one per statement. */
const FIRST_STATEMENT = "SET LOCAL statement_timeout = 0; SELECT pg_backend_pid() AS pid; " +
  ARRAY_TYPES_QUERY;

/** Opens a pool and runs its first statement alone (see {@link openReadyPool}). */
async function readyPool(
  postgres: Driver,
  url: string,
  options: Record<string, unknown>,
  target: string,
): Promise<ReadyPool> {
  const sql = openPool(postgres, url, { ...options, fetch_types: false });
  try {
    const [, pidResult, types] = await sql.unsafe(FIRST_STATEMENT) as [
      unknown,
      Array<{ pid: number }> & { state?: { pid?: number } },
      ArrayTypeRow[],
    ];
    registerArrayTypes(sql.options, types);
    const announced = pidResult.state?.pid;
    const answering = Number(pidResult[0]?.pid);
    return { sql, pooled: announced !== undefined && announced !== answering };
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    const mapped = mapDriverError(error, target);
    if (!(mapped instanceof Error) || !/unsupported startup parameter/i.test(mapped.message)) {
      throw mapped;
    }
    // PgBouncer refuses startup parameters it does not know, `statement_timeout` among them.
    throw new DatabaseUnavailableError(
      `${mapped.message} (a connection pooler refused a setting of the connection: leave ` +
        "statementTimeout unset behind it and set statement_timeout on the role: " +
        "ALTER ROLE … SET statement_timeout = '5s')",
      { cause: error },
    );
  }
}

/**
 * At most `size` operations at once; the others wait in line, each at most `timeoutMs`, then fail
 * with {@link DatabaseUnavailableError} (a 503 with `Retry-After` at the HTTP boundary). postgres.js
 * itself queues a statement without limit when every connection is busy (or pipelines it behind
 * a slow one), so without this gate a pool held by slow statements left every request hanging.
 */
export interface AcquireGate {
  /** Runs `fn` once a place is free (waiting at most the timeout). */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Operations waiting for a place. */
  readonly waiting: number;
}

/** Creates an {@link AcquireGate}. */
export function acquireGate(size: number, timeoutMs: number, target: string): AcquireGate {
  let active = 0;
  const queue: Array<{ grant: () => void }> = [];
  const release = (): void => {
    const next = queue.shift();
    if (next) next.grant();
    else active--;
  };
  const acquire = (): Promise<void> => {
    if (active < size) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(entry), 1);
        reject(
          new DatabaseUnavailableError(
            `Database ${target} is unavailable: no connection of the pool (${size}) became free ` +
              `within ${timeoutMs} ms (acquireTimeout)`,
          ),
        );
      }, timeoutMs);
      queue.push(entry);
    });
  };
  return {
    async run<T>(fn: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get waiting(): number {
      return queue.length;
    },
  };
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
export function reconnectDelaySeconds(retries: number): number {
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
export function assertParsableUrl(url: string): void {
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
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(invalid url)";
  }
}
