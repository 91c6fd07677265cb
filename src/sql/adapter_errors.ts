/**
 * Errors thrown by the SQL adapters, identical for PGlite and postgres.js.
 *
 * @module
 */

import process from "node:process";

/**
 * Fields PostgreSQL reports with an error, when it reports them.
 *
 * @example The fields of an error, as a test double would build them
 * ```ts
 * import { SqlError, type SqlErrorDetails } from "@app/fragment-cli/sql";
 *
 * const details: SqlErrorDetails = { code: "23505", constraint: "users_email_key", table: "users" };
 * const error = new SqlError("duplicate key value violates unique constraint", details);
 * console.log(error.code, error.constraint); // 23505 users_email_key
 * ```
 */
export interface SqlErrorDetails {
  /** The SQLSTATE, e.g. `"23505"` (unique violation). */
  code: string;
  /** PostgreSQL's DETAIL line. */
  detail?: string;
  /** The violated constraint. */
  constraint?: string;
  /** The schema of the object concerned. */
  schema?: string;
  /** The table concerned. */
  table?: string;
  /** The column concerned. */
  column?: string;
}

/**
 * PostgreSQL rejected a statement. `code` carries the SQLSTATE so callers can
 * branch on it (`"23505"` unique violation, `"23503"` foreign key, …).
 *
 * @example Detect a unique violation
 * ```ts
 * import { SqlError } from "@app/fragment-cli/sql";
 *
 * function isDuplicate(error: unknown): boolean {
 *   return error instanceof SqlError && error.code === "23505";
 * }
 * ```
 */
export class SqlError extends Error {
  /** The SQLSTATE, e.g. `"23505"`. */
  readonly code: string;
  /** PostgreSQL's DETAIL line. */
  readonly detail?: string;
  /** The violated constraint. */
  readonly constraint?: string;
  /** The schema of the object concerned. */
  readonly schema?: string;
  /** The table concerned. */
  readonly table?: string;
  /** The column concerned. */
  readonly column?: string;

  /**
   * Creates the error.
   *
   * @param message PostgreSQL's message.
   * @param details The SQLSTATE and optional fields.
   * @param options The original error as `cause`.
   */
  constructor(message: string, details: SqlErrorDetails, options?: ErrorOptions) {
    super(message, options);
    this.name = "SqlError";
    this.code = details.code;
    this.detail = details.detail;
    this.constraint = details.constraint;
    this.schema = details.schema;
    this.table = details.table;
    this.column = details.column;
  }
}

/**
 * PostgreSQL cancelled the statement (SQLSTATE 57014, `code` is `"57014"`): it ran longer than
 * `statement_timeout` — the `statementTimeout` option of `postgresAdapter`, or a timeout set on
 * the role or database — or an operator cancelled it (`pg_cancel_backend`); the message, the
 * server's own, says which. The server is up and the connection stays usable: this statement
 * (and the transaction it ran in) failed, nothing else. Module routes answer it 503
 * `SERVICE_UNAVAILABLE` with `Retry-After`, as they answer an exhausted pool, and log it under
 * this name.
 *
 * PGlite never raises it: its WebAssembly build has no timer to cancel a statement with, so a
 * `statement_timeout` setting is accepted and has no effect.
 *
 * @example Tell a slow statement from an outage
 * ```ts
 * import { DatabaseUnavailableError, StatementTimeoutError } from "@app/fragment-cli/sql";
 *
 * function describe(error: unknown): string {
 *   if (error instanceof StatementTimeoutError) return "a statement ran too long";
 *   if (error instanceof DatabaseUnavailableError) return "the database is unreachable";
 *   return "another error";
 * }
 * console.log(describe(new StatementTimeoutError("canceling statement due to statement timeout")));
 * ```
 */
export class StatementTimeoutError extends SqlError {
  /**
   * Creates the error.
   *
   * @param message PostgreSQL's message.
   * @param options The original error as `cause`.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, { code: "57014" }, options);
    this.name = "StatementTimeoutError";
  }
}

/**
 * The database cannot be reached or used right now (server down, connection
 * lost, adapter closed, data directory locked, no connection of the pool free
 * within `acquireTimeout`). HTTP layers answer 503.
 *
 * @example Map to an HTTP status
 * ```ts
 * import { DatabaseUnavailableError } from "@app/fragment-cli/sql";
 *
 * function statusOf(error: unknown): number {
 *   return error instanceof DatabaseUnavailableError ? 503 : 500;
 * }
 * ```
 */
export class DatabaseUnavailableError extends Error {
  /**
   * Creates the error.
   *
   * @param message What is unavailable and why.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/**
 * Internal: the adapter was closed by the application, for good (unlike an outage, waiting does
 * not help). Keeps the name of its parent: callers and HTTP layers see an unavailable database.
 */
export class DatabaseClosedError extends DatabaseUnavailableError {
  constructor(target: string) {
    super(`Database ${target} is closed`);
  }
}

/**
 * A PGlite data directory is already open, in another process or in this one.
 * Opening it twice would corrupt it, so the adapter refuses.
 *
 * @example Report the directory
 * ```ts
 * import { DataDirectoryLockedError } from "@app/fragment-cli/sql";
 *
 * const error = new DataDirectoryLockedError("./.data/pglite", 1234);
 * error.directory; // => "./.data/pglite"
 * ```
 */
export class DataDirectoryLockedError extends DatabaseUnavailableError {
  /** The data directory. */
  readonly directory: string;
  /** The process id holding it, when known. */
  readonly ownerPid?: number;

  /**
   * Creates the error.
   *
   * @param directory The data directory.
   * @param ownerPid The pid recorded in its lock file.
   * @param lockFile The lock file path, named so a user can remove a stale one.
   */
  constructor(directory: string, ownerPid?: number, lockFile?: string) {
    const owner = ownerPid === undefined
      ? "another PGlite instance"
      : ownerPid === process.pid
      ? "another PGlite instance in this process"
      : `process ${ownerPid}`;
    super(
      `PGlite data directory "${directory}" is already open by ${owner}` +
        (lockFile ? ` (lock file "${lockFile}")` : ""),
    );
    this.name = "DataDirectoryLockedError";
    this.directory = directory;
    this.ownerPid = ownerPid;
  }
}

/**
 * A transaction object was used after its callback finished, or the adapter
 * was called from inside one of its own running transactions.
 *
 * @example
 * ```ts
 * import { TransactionMisuseError } from "@app/fragment-cli/sql";
 *
 * new TransactionMisuseError("Transaction is already finished").name; // => "TransactionMisuseError"
 * ```
 */
export class TransactionMisuseError extends Error {
  /**
   * Creates the error.
   *
   * @param message What was misused.
   */
  constructor(message: string) {
    super(message);
    this.name = "TransactionMisuseError";
  }
}
