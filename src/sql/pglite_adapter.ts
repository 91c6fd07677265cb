/**
 * The embedded adapter: PGlite, PostgreSQL compiled to WebAssembly, in-process.
 *
 * @module
 */

import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import type { SqlAdapter, SqlAdapterStats, SqlStatement, SqlTransaction } from "./adapter.ts";
import {
  DatabaseClosedError,
  DatabaseUnavailableError,
  TransactionMisuseError,
} from "./adapter_errors.ts";
import { type DataDirLock, lockDataDir } from "./data_dir_lock.ts";
import {
  defaultCacheDir,
  holdsCluster,
  loadTemplate,
  pgliteVersion,
  saveTemplate,
  templateFile,
  templateTar,
} from "./pglite_template.ts";
import { extractTemplate } from "./pglite_template_extract.ts";
import { mapDriverError, serializeJson, toParam } from "./driver_support.ts";
import {
  assertOutsideOwnTransaction,
  Mutex,
  runInScope,
  type TransactionScope,
} from "./transaction_guard.ts";
import { quoteIdent } from "./sql_identifier.ts";
import { type PgliteStatements, pgliteStatements } from "./pglite_statements.ts";

/**
 * Options of {@link pgliteAdapter}.
 *
 * @example A database on disk, without the template cache
 * ```ts
 * import { pgliteAdapter, type PgliteAdapterOptions } from "@app/fragment-cli/sql";
 *
 * const options: PgliteAdapterOptions = { dataDir: "./.data/pglite", templateCache: false };
 * const db = pgliteAdapter(options);
 * await db.close();
 * ```
 */
export interface PgliteAdapterOptions {
  /**
   * Directory holding the database files, created on first use. Omit for an
   * in-memory database that disappears on `close()`.
   * @default undefined (in memory)
   */
  dataDir?: string;
  /**
   * Where the template of a fresh database is cached (see "Fresh databases" in
   * docs/adapters.md), or `false` to run PGlite's `initdb` for every fresh database.
   * @default `$FRAGMENT_CLI_CACHE_DIR` (`off` disables it), else `$XDG_CACHE_HOME/fragment-cli`,
   * else `~/.cache/fragment-cli`
   */
  templateCache?: string | false;
  /**
   * PostgreSQL run-time settings of the embedded server (`-c name=value` at its start), on top of
   * {@link PGLITE_DEFAULT_SETTINGS}; a value given here replaces the default of the same name.
   * @default {@link PGLITE_DEFAULT_SETTINGS}
   */
  settings?: Readonly<Record<string, string | number>>;
  /**
   * Run parameterized statements as named prepared statements: parsed and planned once, then one
   * call into PGlite per run instead of six, about half the time of a short statement. The 200
   * most recently used stay prepared. `false` sends each statement unnamed, as PGlite's own
   * `query()` does.
   * @default true
   */
  prepare?: boolean;
}

/**
 * The settings every PGlite database starts with (see {@link PgliteAdapterOptions.settings}).
 *
 * `shared_buffers` is 16 MB instead of the cluster's 128 MB: PGlite's buffer pool lives in the
 * process's WebAssembly memory, and the pages it touches stay resident, so `serve` on PGlite went
 * from about 180 MB of resident memory for the engine alone to about 60 MB less. Pages evicted from
 * the pool are written through the file system and read back from the operating system's cache,
 * which for one in-process connection costs less than the memory (see docs/benchmarks.md,
 * scenario 7). Raise it for a large working set: `settings: { shared_buffers: "128MB" }`.
 *
 * @example The defaults, and a larger buffer pool
 * ```ts
 * import { PGLITE_DEFAULT_SETTINGS, pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * console.log(PGLITE_DEFAULT_SETTINGS.shared_buffers); // "16MB"
 * const db = pgliteAdapter({ settings: { shared_buffers: "64MB" } });
 * await db.close();
 * ```
 */
export const PGLITE_DEFAULT_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  shared_buffers: "16MB",
});

/** PGlite's own start parameters plus `-c name=value` for each setting. */
function startParamsOf(
  defaults: readonly string[] | undefined,
  settings: Readonly<Record<string, string | number>> | undefined,
): string[] | undefined {
  // An older PGlite without the list: leave its start alone rather than guess its parameters.
  if (defaults === undefined) return undefined;
  const merged = { ...PGLITE_DEFAULT_SETTINGS, ...settings };
  return [
    ...defaults,
    ...Object.entries(merged).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ];
}

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB = 3802;

/**
 * Opens PGlite in-process: in memory, or in a data directory. The database
 * opens lazily on first use (or on `connect()`), so importing a module that
 * creates the adapter costs nothing.
 *
 * PGlite has one connection: transactions and queries are serialized (a query
 * issued while a transaction runs waits for it). A data directory is locked
 * while open; opening it from a second process (or twice in one process)
 * fails with `DataDirectoryLockedError` naming the directory.
 *
 * @param options Where the data lives: options, or the data directory's path alone
 *   (`pgliteAdapter(".data/pglite")` is `pgliteAdapter({ dataDir: ".data/pglite" })`).
 * @returns The adapter.
 *
 * @example An in-memory database
 * ```ts
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const db = pgliteAdapter();
 * await db.query("CREATE TABLE note (id int4 PRIMARY KEY, body text)");
 * await db.query("INSERT INTO note VALUES ($1, $2)", [1, "hello"]);
 * await db.close();
 * ```
 */
export function pgliteAdapter(optionsOrDataDir: PgliteAdapterOptions | string = {}): SqlAdapter {
  const options = pgliteOptionsOf(optionsOrDataDir);
  const dataDir = options.dataDir;
  const target = dataDir ?? "memory://";
  const counters = { queries: 0, transactions: 0 };
  const mutex = new Mutex();
  let opening: Promise<PGlite> | undefined;
  let lock: DataDirLock | undefined;
  let closed = false;
  /** The open instance's prepared statements (none with `prepare: false`). */
  let statements: PgliteStatements | undefined;
  /** Writing the template made by this adapter's `initdb`; `close()` waits for it. */
  let savingTemplate: Promise<void> | undefined;

  /** Opens PGlite, from the cached template when the database is fresh and one is usable. */
  async function create(): Promise<PGlite> {
    // Imported here: a process on a PostgreSQL server never loads the WebAssembly build's code.
    const { PGlite } = await import("@electric-sql/pglite");
    const pgliteOptions = {
      parsers: { [INT8]: (x: string) => x, [NUMERIC]: (x: string) => x },
      serializers: { [JSON_OID]: serializeJson, [JSONB]: serializeJson },
      startParams: startParamsOf(PGlite.defaultStartParams, options.settings),
    };
    if (dataDir !== undefined && holdsCluster(dataDir)) {
      return await PGlite.create(dataDir, pgliteOptions);
    }
    const cacheDir = options.templateCache === undefined
      ? defaultCacheDir()
      : options.templateCache || undefined;
    const version = pgliteVersion();
    if (cacheDir === undefined || version === undefined) {
      return await PGlite.create(dataDir, pgliteOptions);
    }
    const file = templateFile(cacheDir, version);
    if (dataDir === undefined) {
      const template = loadTemplate(file);
      if (template !== undefined) {
        try {
          return await PGlite.create({ ...pgliteOptions, loadDataDir: new Blob([template]) });
        } catch {
          // A template PGlite cannot start from: initdb below, and the template is rewritten.
        }
      }
    } else if (await extractTemplate(file, dataDir)) {
      // Written with the file system directly, streamed (PGlite's own loadDataDir goes file by
      // file through its emulated file system, about twice as slow, and needs the whole tar).
      try {
        return await PGlite.create(dataDir, pgliteOptions);
      } catch (error) {
        // The directory now holds that cluster: it cannot fall back to initdb by itself.
        // Drop the template so that the next fresh directory runs initdb.
        fs.rmSync(file, { force: true });
        throw new Error(
          `${(error as Error).message} (the directory was created from the cached template ` +
            `${file}, now removed; delete the directory to start again)`,
          { cause: error },
        );
      }
    }
    // No usable template: initdb, then keep the untouched cluster (checkpointed, so its files
    // are complete) as the template before anything else runs in it.
    const db = await PGlite.create(dataDir, pgliteOptions);
    try {
      await db.query("CHECKPOINT");
      const dumped = new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer());
      savingTemplate = saveTemplate(file, templateTar(dumped));
    } catch {
      // The template is only an accelerator: the database itself is fine.
    }
    return db;
  }

  async function open(): Promise<PGlite> {
    if (dataDir !== undefined) lock = lockDataDir(dataDir);
    try {
      const db = await create();
      if (options.prepare !== false) {
        statements = pgliteStatements(db, await import("@electric-sql/pglite"));
      }
      return db;
    } catch (error) {
      lock?.release();
      lock = undefined;
      throw new DatabaseUnavailableError(
        `Cannot open PGlite database ${target}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  function database(): Promise<PGlite> {
    if (closed) return Promise.reject(new DatabaseClosedError(target));
    if (opening === undefined) {
      opening = open();
      // A failed open (e.g. locked directory) may be retried later.
      opening.catch(() => {
        opening = undefined;
      });
    }
    return opening;
  }

  /**
   * Runs one statement. `retry`: outside a transaction, so a prepared statement the server lost
   * may be prepared and run again.
   */
  async function run<T>(
    db: PGlite,
    text: string,
    params?: readonly unknown[],
    retry = false,
  ): Promise<T[]> {
    counters.queries++;
    try {
      const values = (params ?? []).map(toParam);
      if (statements !== undefined && values.length > 0) {
        return await statements.run<T>(text, values, retry);
      }
      const result = await db.query<T>(text, values);
      return result.rows;
    } catch (error) {
      throw mapDriverError(error, target);
    }
  }

  function makeTransaction(
    db: PGlite,
    depth: number,
  ): SqlTransaction & { end(): void } {
    let finished = false;
    let savepoints = 0;
    const check = (): void => {
      if (finished) throw new TransactionMisuseError("Transaction is already finished");
    };
    return {
      async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
        check();
        return await run<T>(db, text, params);
      },
      async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
        check();
        const name = quoteIdent(`sp_${depth + 1}_${++savepoints}`);
        await run(db, `SAVEPOINT ${name}`);
        const inner = makeTransaction(db, depth + 1);
        try {
          const result = await fn(inner);
          await run(db, `RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await run(db, `ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        } finally {
          inner.end();
        }
      },
      end(): void {
        finished = true;
      },
    };
  }

  const adapter: SqlAdapter = {
    kind: "pglite",
    target,
    get stats(): SqlAdapterStats {
      return { ...counters };
    },
    async connect(): Promise<void> {
      await database();
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      assertOutsideOwnTransaction(adapter, "query()");
      const db = await database();
      return mutex.run(() => run<T>(db, text, params, true));
    },
    async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      assertOutsideOwnTransaction(adapter, "transaction()");
      const db = await database();
      return mutex.run(async () => {
        counters.transactions++;
        await run(db, "BEGIN");
        const scope: TransactionScope = { owner: adapter, active: true };
        const tx = makeTransaction(db, 0);
        let result: T;
        try {
          result = await runInScope(scope, () => fn(tx));
        } catch (error) {
          scope.active = false;
          tx.end();
          await run(db, "ROLLBACK").catch(() => {});
          throw error;
        }
        scope.active = false;
        tx.end();
        await run(db, "COMMIT");
        return result;
      });
    },
    async batch<T extends unknown[][] = Record<string, unknown>[][]>(
      statements: readonly SqlStatement[],
    ): Promise<T> {
      assertOutsideOwnTransaction(adapter, "batch()");
      if (statements.length === 0) return [] as unknown[][] as T;
      const results = await adapter.transaction(async (tx) => {
        const rows: unknown[][] = [];
        for (const statement of statements) {
          rows.push(await tx.query(statement.sql, statement.params));
        }
        return rows;
      });
      return results as T;
    },
    async listen(
      channel: string,
      onNotify: (payload: string) => void,
    ): Promise<() => Promise<void>> {
      assertOutsideOwnTransaction(adapter, "listen()");
      const db = await database();
      let active = true;
      const callback = (payload: string): void => {
        if (active) onNotify(payload);
      };
      const quoted = quoteIdent(channel);
      await mutex.run(async () => {
        try {
          await db.listen(quoted, callback);
        } catch (error) {
          throw mapDriverError(error, target);
        }
      });
      return async (): Promise<void> => {
        if (!active) return;
        active = false;
        if (closed) return;
        // PGlite's own unsubscribe function loses the quoting of mixed-case names.
        await mutex.run(() => db.unlisten(quoted, callback));
      };
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const pending = opening;
      if (pending === undefined) return;
      try {
        const db = await pending;
        // Let the running transaction / queued queries finish first.
        await mutex.run(() => db.close());
      } catch {
        // Opening failed: nothing to close.
      } finally {
        await savingTemplate;
        lock?.release();
        lock = undefined;
      }
    },
  };
  return adapter;
}

/**
 * The options a caller meant: a string is the data directory (it used to be read as an options
 * object without `dataDir`, silently opening an in-memory database whose data a restart lost).
 */
function pgliteOptionsOf(value: PgliteAdapterOptions | string): PgliteAdapterOptions {
  if (typeof value === "string") {
    if (value.trim() === "") {
      throw new TypeError("pgliteAdapter: the data directory must be a non-empty path");
    }
    return { dataDir: value };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(
      `pgliteAdapter: expected options ({ dataDir, … }) or a data directory path, got ${
        Array.isArray(value) ? "an array" : value === null ? "null" : typeof value
      }`,
    );
  }
  if (value.settings !== undefined) checkSettings(value.settings);
  return value;
}

/** Refuses settings PGlite's start would fail on with an obscure message. */
function checkSettings(settings: unknown): void {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    throw new TypeError("pgliteAdapter: settings must be an object of PostgreSQL settings");
  }
  for (const [name, value] of Object.entries(settings)) {
    if (!/^[a-z_][a-z0-9_.]*$/i.test(name)) {
      throw new TypeError(`pgliteAdapter: "${name}" is not a PostgreSQL setting name`);
    }
    if (
      (typeof value !== "string" && typeof value !== "number") || /[\0\n\r]/.test(String(value)) ||
      String(value) === ""
    ) {
      throw new TypeError(`pgliteAdapter: setting "${name}" needs a non-empty one-line value`);
    }
  }
}
