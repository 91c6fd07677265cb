/**
 * The SQL layer: one small adapter interface ({@link SqlAdapter}) and its two implementations,
 * PGlite (embedded, in-process, the default) and postgres.js (a PostgreSQL server), with the
 * errors they raise and identifier quoting. Everything else that touches a database goes through
 * this folder.
 *
 * @example Run a parameterized query on the embedded database
 * ```ts
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter(); // in memory
 * const rows = await db.query<{ answer: number }>("SELECT $1::int AS answer", [42]);
 * console.log(rows[0].answer); // 42
 * await db.close();
 * ```
 *
 * @module
 */

export { quoteIdent, quoteQualified } from "./sql_identifier.ts";
export type {
  SqlAdapter,
  SqlAdapterStats,
  SqlQuerier,
  SqlStatement,
  SqlTransaction,
} from "./adapter.ts";
export {
  DatabaseUnavailableError,
  DataDirectoryLockedError,
  SqlError,
  type SqlErrorDetails,
  StatementTimeoutError,
  TransactionMisuseError,
} from "./adapter_errors.ts";
export {
  PGLITE_DEFAULT_SETTINGS,
  pgliteAdapter,
  type PgliteAdapterOptions,
} from "./pglite_adapter.ts";
export { postgresAdapter, type PostgresAdapterOptions } from "./postgres_adapter.ts";
export { databaseFromEnv } from "./database_from_env.ts";
