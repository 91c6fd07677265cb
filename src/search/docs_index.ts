// Generated from docs/ by `deno task docs:index` (scripts/build_docs_index.ts): do not edit.
// tests/search/docs_index.test.ts fails when docs/ changed and this file was not rebuilt.
import type { SearchRecord } from "./search_record.ts";

/**
 * The search records of this package's own docs (`docs/*.md`), prebuilt so that
 * `fragment-cli search` works offline.
 *
 * @example
 * ```ts
 * import { createDocsSearch, DOCS_INDEX } from "./mod.ts";
 *
 * console.log(createDocsSearch(DOCS_INDEX).search("serve").length > 0); // true
 * ```
 */
export const DOCS_INDEX: readonly SearchRecord[] = [
  {
    "id": "adapters",
    "page": "adapters",
    "type": "page",
    "content": "Database adapters, migrations and pagination",
    "url": "/docs/adapters",
    "context": "",
  },
  {
    "id": "adapters:1",
    "page": "adapters",
    "type": "text",
    "content":
      "Everything in fragment-cli that touches a database goes through one small interface, SqlAdapter (src/db/adapter.ts). Two adapters implement it: PGlite (PostgreSQL compiled to WebAssembly, in-process, the default) and postgres.js (a PostgreSQL server). Both run unchanged on Deno, Node ≥ 22 and Bun, and behave identically: one contract test suite (tests/db/adapter_contract.test.ts) runs against both.",
    "url": "/docs/adapters",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters:2",
    "page": "adapters",
    "type": "text",
    "content":
      "The code on this page lives in docs/examples/adapters_*.ts; tests/db/adapters_docs_examples.test.ts imports (so type-checks) and runs it.",
    "url": "/docs/adapters",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters#choosing-a-database",
    "page": "adapters",
    "type": "heading",
    "content": "Choosing a database",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters:3",
    "page": "adapters",
    "type": "text",
    "content":
      "(see docs/examples/adapters_choose.ts.) Adapters connect lazily: creating one costs nothing, so a module file can create its database at import time and fragment-cli db generate can import that file without opening anything. Call await db.connect() to fail fast at start-up (unreachable server, locked data directory). db.target says where the data lives, password removed, for logs. Each driver is imported on first use too: a process serving on PGlite never loads postgres.js (about 40 ms of a Deno start), one on a server never loads PGlite's code. A connection URL postgres.js could not parse still fails at once, when the adapter is created, without repeating the URL.",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:4",
    "page": "adapters",
    "type": "text",
    "content":
      "connections | one, in-process: queries and transactions are serialized (a query issued while a transaction runs waits for it) | a pool (max, default 10)",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:5",
    "page": "adapters",
    "type": "text",
    "content": "data | memory, or a directory | the server",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:6",
    "page": "adapters",
    "type": "text",
    "content":
      "close() | closes the database and releases the directory lock | ends the pool (process can exit)",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:7",
    "page": "adapters",
    "type": "text",
    "content": "NOTICE output | — | silenced",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:8",
    "page": "adapters",
    "type": "text",
    "content":
      "Prepared statements (postgres.js). A query with parameters runs as a named prepared statement, kept per connection: once prepared it takes one round trip and no parsing or planning. Unprepared, postgres.js would first ask the server for the parameter types, a second round trip every time (measured on the webhook benchmark: the change alone took our ingest from 0.36 × to 0.44 × the bare handler). A statement whose table changed since it was prepared is prepared again automatically. Behind a pooler that cannot keep statements across transactions (PgBouncer in transaction mode before 1.21), pass postgresAdapter(url, { prepare: false }). Queries without parameters use the simple protocol (one round trip, and several statements in one text are allowed).",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:9",
    "page": "adapters",
    "type": "text",
    "content":
      "Data directory lock. A PGlite directory opened twice would be corrupted, so while open it holds <dir>/.fragment-cli.lock with the owner's pid. Opening it from another process (or twice in one process) fails at once with DataDirectoryLockedError, naming the directory and the pid. A lock left by a process that no longer runs (crash, kill -9) is detected and taken over.",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:10",
    "page": "adapters",
    "type": "text",
    "content":
      "Fresh databases start from a cached template. PGlite's first open of an empty directory (or of an in-memory database) runs initdb in WebAssembly: 2.6 – 3.5 s on a quiet machine, 4 – 11 s on a busy one. Its result is the same for every database of one PGlite version, so the adapter keeps it: the first fresh database runs initdb, then — before anything runs in it — checkpoints and dumps the empty cluster (without the lock and pid files; about 0.2 s more on that first start) into a per-user cache, pglite-<version>-cluster-v1.tar.gz (about 5 MiB). Every later fresh database is a copy of it: a directory gets the files written directly (PG_VERSION last, so an interrupted copy is redone on the next start), an in-memory database gets it through PGlite's loadDataDir. A directory that already holds a cluster is opened as it is; the template is never committed or shipped, each machine makes its own.",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:11",
    "page": "adapters",
    "type": "text",
    "content": 'pgliteAdapter({ templateCache: "<dir>" }) | the option (false: no cache)',
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:12",
    "page": "adapters",
    "type": "text",
    "content": "$FRAGMENT_CLI_CACHE_DIR (off: no cache) | environment",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:13",
    "page": "adapters",
    "type": "text",
    "content": "$XDG_CACHE_HOME/fragment-cli | environment",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:14",
    "page": "adapters",
    "type": "text",
    "content": "%LOCALAPPDATA%\\fragment-cli (Windows) | environment",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:15",
    "page": "adapters",
    "type": "text",
    "content": "~/.cache/fragment-cli | default",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters:16",
    "page": "adapters",
    "type": "text",
    "content":
      "The template is only an accelerator. A missing, unreadable or damaged one (the gzip's CRC, each tar header's checksum and the cluster's PG_VERSION are checked before anything is written) is ignored: that database runs initdb and the template is rewritten. Writers gzip into a temporary file and rename it into place, so concurrent first starts never leave half a file. The key is the installed PGlite version (read from its package.json); when it cannot be found, every fresh database runs initdb as before. Should a directory made from a template fail to open, the template is removed (the next fresh database runs initdb) and the error says to delete the directory. On this machine (load 4 – 6 from other work): a fresh directory opens in 1.1 – 2.6 s instead of 5 – 11 s, an in-memory database in 1.1 – 1.3 s instead of 4 – 6 s (the test suite opens one per PGlite test file).",
    "url": "/docs/adapters#choosing-a-database",
    "context": "Database adapters, migrations and pagination › Choosing a database",
  },
  {
    "id": "adapters#the-interface",
    "page": "adapters",
    "type": "heading",
    "content": "The interface",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters:17",
    "page": "adapters",
    "type": "text",
    "content":
      "query() runs one statement with $1, $2, … placeholders. SQL is never built from values.",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:18",
    "page": "adapters",
    "type": "text",
    "content":
      "transaction(fn) commits when fn resolves, rolls back and rethrows when it throws. Nested tx.transaction() is a savepoint. A tx used after its callback finished throws TransactionMisuseError; so does calling the adapter (not tx) from inside its own running transaction — that statement would escape the transaction, and on PGlite it would wait for it forever.",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:19",
    "page": "adapters",
    "type": "text",
    "content":
      "listen() uses the channel name verbatim (case kept); send with SELECT pg_notify($1, $2). Notifications sent inside a transaction arrive after it commits.",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:20",
    "page": "adapters",
    "type": "text",
    "content": "stats counts statements and transactions (benchmarks, N+1 hunting).",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:21",
    "page": "adapters",
    "type": "text",
    "content": "Example (docs/examples/adapters_usage.ts, abridged):",
    "url": "/docs/adapters#the-interface",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters#value-mapping-identical-on-both-adapters",
    "page": "adapters",
    "type": "heading",
    "content": "Value mapping (identical on both adapters)",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:22",
    "page": "adapters",
    "type": "text",
    "content": "int2, int4, float4, float8, oid | number",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:23",
    "page": "adapters",
    "type": "text",
    "content": "int8, numeric | string — exact, never a lossy number",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:24",
    "page": "adapters",
    "type": "text",
    "content": "bool | boolean",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:25",
    "page": "adapters",
    "type": "text",
    "content": "timestamptz (also timestamp, date) | Date",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:26",
    "page": "adapters",
    "type": "text",
    "content": "json, jsonb | the parsed value",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:27",
    "page": "adapters",
    "type": "text",
    "content": "bytea | Uint8Array (a plain one, not a Node Buffer)",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:28",
    "page": "adapters",
    "type": "text",
    "content": "text, varchar, uuid | string",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:29",
    "page": "adapters",
    "type": "text",
    "content": "arrays | arrays of the mapped element (int8[] → string[])",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:30",
    "page": "adapters",
    "type": "text",
    "content": "NULL | null",
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters:31",
    "page": "adapters",
    "type": "text",
    "content":
      'Parameters: string, number, boolean, null, bigint (sent as its decimal text), Date (sent as ISO-8601; timestamps given as text keep their microseconds), Uint8Array for bytea, and any object, array or string for a json/jsonb parameter (always stored as that JSON value: the string "x" is stored as the JSON string "x"). undefined is a TypeError — pass null.',
    "url": "/docs/adapters#value-mapping-identical-on-both-adapters",
    "context":
      "Database adapters, migrations and pagination › The interface › Value mapping (identical on both adapters)",
  },
  {
    "id": "adapters#errors",
    "page": "adapters",
    "type": "heading",
    "content": "Errors",
    "url": "/docs/adapters#errors",
    "context": "Database adapters, migrations and pagination › The interface",
  },
  {
    "id": "adapters:32",
    "page": "adapters",
    "type": "text",
    "content":
      'SqlError | PostgreSQL rejected the statement; code is the SQLSTATE ("23505" unique violation, "23503" foreign key, …), plus constraint, table, column, detail when reported | 409/400/500 by code',
    "url": "/docs/adapters#errors",
    "context": "Database adapters, migrations and pagination › The interface › Errors",
  },
  {
    "id": "adapters:33",
    "page": "adapters",
    "type": "text",
    "content":
      "DatabaseUnavailableError | server unreachable, connection lost, adapter closed | 503",
    "url": "/docs/adapters#errors",
    "context": "Database adapters, migrations and pagination › The interface › Errors",
  },
  {
    "id": "adapters:34",
    "page": "adapters",
    "type": "text",
    "content":
      "DataDirectoryLockedError (a DatabaseUnavailableError) | PGlite directory open elsewhere | 503",
    "url": "/docs/adapters#errors",
    "context": "Database adapters, migrations and pagination › The interface › Errors",
  },
  {
    "id": "adapters:35",
    "page": "adapters",
    "type": "text",
    "content":
      "TransactionMisuseError | a finished tx used, or the adapter called inside its own transaction | 500 (a bug)",
    "url": "/docs/adapters#errors",
    "context": "Database adapters, migrations and pagination › The interface › Errors",
  },
  {
    "id": "adapters#running-migrations",
    "page": "adapters",
    "type": "heading",
    "content": "Running migrations",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters:36",
    "page": "adapters",
    "type": "text",
    "content":
      "migrate(db, schema, options?) applies the pending steps of a schema (see Database schemas) to one namespace:",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:37",
    "page": "adapters",
    "type": "text",
    "content":
      "in one transaction, under a PostgreSQL advisory lock keyed by the namespace: a second runner started at the same time (another connection, another process) waits, then finds nothing to do;",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:38",
    "page": "adapters",
    "type": "text",
    "content": "moving the recorded version with a compare-and-set;",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:39",
    "page": "adapters",
    "type": "text",
    "content":
      "recording a sha256 fingerprint of each step's SQL. An already-applied step that was edited since fails with SchemaDriftError naming the step, instead of fresh and upgraded databases silently diverging.",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:40",
    "page": "adapters",
    "type": "text",
    "content":
      "The bookkeeping lives in the internal namespace fragment_internal (tables schema_versions: namespace → version, and applied_steps: namespace, version, fingerprint, description). Only a missing table reads as version 0; any other error while reading the version is raised.",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:41",
    "page": "adapters",
    "type": "text",
    "content":
      "namespace | the Postgres schema (default: the schema's name) — two instances of a module can share a database",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:42",
    "page": "adapters",
    "type": "text",
    "content":
      "to | target version (default: latest); below the current version → MigrationTargetError (no down migrations)",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:43",
    "page": "adapters",
    "type": "text",
    "content":
      "expectedFrom | the version the caller expects the database at; otherwise MigrationConflictError naming both versions, nothing applied",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:44",
    "page": "adapters",
    "type": "text",
    "content":
      'Result: { schema, namespace, from, to, applied: [{ version, description }], status } with status "applied" or "up-to-date" (a second run). Errors, all named classes a CLI maps to one line: MigrationConflictError, DatabaseAheadError (database newer than the code), SchemaDriftError, MigrationTargetError, MigrationStepError (a statement failed — cause is the SqlError; every step of the run was rolled back).',
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters:45",
    "page": "adapters",
    "type": "text",
    "content":
      "migrationStatus(db, [schema, { schema, namespace }]) reads without locking or creating anything and returns per namespace { namespace, schema, codeVersion, databaseVersion, pendingSteps, drift, status }, status one of up-to-date, pending, ahead, drift. See docs/examples/adapters_migrate.ts.",
    "url": "/docs/adapters#running-migrations",
    "context": "Database adapters, migrations and pagination › Running migrations",
  },
  {
    "id": "adapters#cursor-pagination",
    "page": "adapters",
    "type": "heading",
    "content": "Cursor pagination",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination",
  },
  {
    "id": "adapters:46",
    "page": "adapters",
    "type": "text",
    "content":
      "keysetQuery() and keysetPage() (src/db/cursor.ts) page through an ordered list with keyset pagination (WHERE (joined_at, id) < ($2, $3) ORDER BY joined_at DESC, id DESC LIMIT 21), see docs/examples/adapters_pagination.ts:",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "adapters:47",
    "page": "adapters",
    "type": "text",
    "content":
      "The last column must be unique and all columns NOT NULL: ties on the other columns are broken by it, so no row is skipped or repeated across pages even with many equal values. One direction (asc/desc) for the whole list, so a plain index on the columns serves every page.",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "adapters:48",
    "page": "adapters",
    "type": "text",
    "content":
      "Each column has its type, one of text, uuid, timestamptz, int4, int8. A decoded cursor value that is not one PostgreSQL reads back unchanged as that type (a word where the timestamptz is, 2024-02-30, a NUL byte, a number where text is, a lone surrogate, …) is InvalidCursorError before any query, and parameters are bound as $n::type. So even a cursor signed with a leaked key cannot make the query fail (SQLSTATE 22xxx, a 500).",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "adapters:49",
    "page": "adapters",
    "type": "text",
    "content":
      "q.select reads the sort key back as text, so the next cursor is exact (timestamptz microseconds, int8); keysetPage() removes those columns from items. Timestamps are checked in PostgreSQL's ISO output (the default DateStyle).",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "adapters:50",
    "page": "adapters",
    "type": "text",
    "content":
      "pageSize: default 20, clamped to 100 — also when a cursor says otherwise; not a positive integer → PaginationError (status 400, code INVALID_PAGE_SIZE).",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "adapters:51",
    "page": "adapters",
    "type": "text",
    "content":
      "Cursors are opaque base64url text with an HMAC. A cursor that does not decode, was altered, or was issued by another list (listId, columns or direction differ) → InvalidCursorError (status 400, code INVALID_CURSOR), never a 500. secret (at least 16 characters) is required and there is no default: a key shipped in the package would let anyone mint cursors. Give every process that serves the list the same secret (the modules use FRAGMENT_SECRET), or they refuse each other's cursors.",
    "url": "/docs/adapters#cursor-pagination",
    "context": "Database adapters, migrations and pagination › Cursor pagination",
  },
  {
    "id": "auth",
    "page": "auth",
    "type": "page",
    "content": "Auth module",
    "url": "/docs/auth",
    "context": "",
  },
  {
    "id": "auth:1",
    "page": "auth",
    "type": "text",
    "content":
      "The auth module gives an application users, credentials and sessions: sign-up, sign-in, sign-out, the current session and the GET /me bootstrap payload. Its organizations API (organizations, members, invitations, active organization) is described in organizations.md. Browsers and other services call both through the typed client (@app/fragment-cli/client).",
    "url": "/docs/auth",
    "context": "Auth module",
  },
  {
    "id": "auth:2",
    "page": "auth",
    "type": "text",
    "content":
      "fragment-cli serve app.ts migrates the module's schema and mounts it at /api/auth. Embedded elsewhere, migrate first (fragment-cli db migrate app.ts, or migrate(adapter, authSchema) from code), then hand requests to authModule.fetch.",
    "url": "/docs/auth",
    "context": "Auth module",
  },
  {
    "id": "auth#options",
    "page": "auth",
    "type": "heading",
    "content": "Options",
    "url": "/docs/auth#options",
    "context": "Auth module",
  },
  {
    "id": "auth:3",
    "page": "auth",
    "type": "text",
    "content": "database | required | the SQL adapter (pgliteAdapter(), postgresAdapter(url))",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:4",
    "page": "auth",
    "type": "text",
    "content": 'namespace | "auth" | the Postgres schema holding the tables',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:5",
    "page": "auth",
    "type": "text",
    "content": 'mountRoute | "/api/auth" | where the routes are mounted',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:6",
    "page": "auth",
    "type": "text",
    "content": "bodyLimit | 65536 | largest request body in bytes (413 above)",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:7",
    "page": "auth",
    "type": "text",
    "content": "sessionTtlDays | 30 | lifetime of a credential in days",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:8",
    "page": "auth",
    "type": "text",
    "content":
      "slidingRenewal | false | extend a credential to a full sessionTtlDays when it is used with less than half its life left (the cookie is re-issued)",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:9",
    "page": "auth",
    "type": "text",
    "content":
      "secret | FRAGMENT_SECRET | the deployment's key of what the module signs (list cursors), at least 32 characters: see Secret",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:10",
    "page": "auth",
    "type": "text",
    "content":
      "trustedOrigins | [] | origins besides the deployment's own allowed to send unsafe requests (see the origin rule) and to read answers (CORS)",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:11",
    "page": "auth",
    "type": "text",
    "content":
      'publicOrigin | unset | the origin users reach the deployment at ("https://app.example.com"); origin and Secure decisions use it, never Host',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:12",
    "page": "auth",
    "type": "text",
    "content":
      "passwordHasher | scryptPasswordHasher() | how passwords are hashed; tests pass scryptPasswordHasher({ params: { ln: 4 } }) to run fast",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:13",
    "page": "auth",
    "type": "text",
    "content":
      "sendVerificationEmail | logs the link (console) | ({ user, email, token, url }) => void | Promise<void>: delivers the email verification mail, see Email verification",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:14",
    "page": "auth",
    "type": "text",
    "content":
      "emailVerificationTtlHours | 24 | how long a verification token works, in hours (fractions allowed, at most 720)",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:15",
    "page": "auth",
    "type": "text",
    "content":
      "rateLimit | on (see below) | false, or { window, max, perAccount }: limits of POST /sign-in and /sign-up, see Rate limits",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:16",
    "page": "auth",
    "type": "text",
    "content":
      'trustProxy | false | false (the socket\'s peer is the client) or the header your reverse proxy sets, e.g. "x-forwarded-for"',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:17",
    "page": "auth",
    "type": "text",
    "content":
      "organizations | enabled | false, or the organizations configuration: see organizations.md",
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:18",
    "page": "auth",
    "type": "text",
    "content":
      'A bad option throws ModuleConfigError at instantiation, naming it: Invalid configuration for module "auth": sessionTtlDays: expected a number of days greater than 0 ….',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth:19",
    "page": "auth",
    "type": "text",
    "content":
      'Why slidingRenewal is off by default: a credential then dies sessionTtlDays after sign-in whatever happens, which bounds how long a stolen token works. Turn it on for "stay signed in while active" behaviour; renewal writes to the database at most once per half lifetime.',
    "url": "/docs/auth#options",
    "context": "Auth module › Options",
  },
  {
    "id": "auth#secret",
    "page": "auth",
    "type": "heading",
    "content": "Secret",
    "url": "/docs/auth#secret",
    "context": "Auth module",
  },
  {
    "id": "auth:20",
    "page": "auth",
    "type": "text",
    "content":
      "secret is the deployment's key: the module signs its list cursors with it (HMAC-SHA-256), so nobody without it can mint a cursor. It falls back to the FRAGMENT_SECRET environment variable; a value shorter than 32 characters is a ModuleConfigError. Generate one with openssl rand -base64 32, keep it out of source control, and give every process of the deployment the same value (a cursor issued by one process is then accepted by all). Changing it invalidates the cursors in flight (clients get 400 INVALID_CURSOR and start again from the first page), and nothing else.",
    "url": "/docs/auth#secret",
    "context": "Auth module › Secret",
  },
  {
    "id": "auth:21",
    "page": "auth",
    "type": "text",
    "content":
      "Neither set: the module signs with a random key of its process and prints one warning on stderr at instantiation (once per process, only when the organizations API, which issues cursors, is on): [auth] warning: no secret configured (option `secret` or FRAGMENT_SECRET); …. Cursors then stop working after a restart and across processes. There is no built-in constant key any more.",
    "url": "/docs/auth#secret",
    "context": "Auth module › Secret",
  },
  {
    "id": "auth:22",
    "page": "auth",
    "type": "text",
    "content":
      "fragment-cli serve on the embedded database (no PostgreSQL adapter among the served modules, PGlite in a directory): when FRAGMENT_SECRET is unset, serve generates a secret at the first start, keeps it in .data/fragment-secret (relative to the working directory, mode 0600, next to the default ./.data/pglite), reuses it at every later start, and hands it to the modules as FRAGMENT_SECRET before their file is imported. It prints Generated FRAGMENT_SECRET in .data/fragment-secret (…) the first time. Delete the file to rotate the key.",
    "url": "/docs/auth#secret",
    "context": "Auth module › Secret",
  },
  {
    "id": "auth:23",
    "page": "auth",
    "type": "text",
    "content":
      "fragment-cli serve with a PostgreSQL database and no FRAGMENT_SECRET: serve starts, with a loud warning on stderr (it begins WARNING: FRAGMENT_SECRET is not set and says how to set it). A warning rather than a start-up error: the cost of a missing secret is cursors refused across processes and restarts (clients restart from the first page), not a hole, while refusing to start would break every existing deployment on upgrade. Set FRAGMENT_SECRET in production.",
    "url": "/docs/auth#secret",
    "context": "Auth module › Secret",
  },
  {
    "id": "auth#rate-limits",
    "page": "auth",
    "type": "heading",
    "content": "Rate limits",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module",
  },
  {
    "id": "auth:24",
    "page": "auth",
    "type": "text",
    "content":
      "POST /sign-in and POST /sign-up are limited before any password is hashed; over a limit they answer 429 RATE_LIMITED with Retry-After (seconds until the window ends):",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:25",
    "page": "auth",
    "type": "text",
    "content": "window | 900 | window of the per-address limit, in seconds (15 minutes)",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:26",
    "page": "auth",
    "type": "text",
    "content":
      "max | 100 | attempts per client address per window, for each route separately (every attempt counts)",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:27",
    "page": "auth",
    "type": "text",
    "content": "perAccount.window | 900 | window of the per-account limit, in seconds",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:28",
    "page": "auth",
    "type": "text",
    "content":
      "perAccount.max | 10 | per normalized email: failed sign-ins (a successful one gives its hit back), sign-up attempts",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:29",
    "page": "auth",
    "type": "text",
    "content": "perAccount: false |  | no per-account limit",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:30",
    "page": "auth",
    "type": "text",
    "content":
      "rateLimit: false |  | no rate limits at all (the hashing queue below still applies)",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:31",
    "page": "auth",
    "type": "text",
    "content":
      "Fixed windows, counted in the database (table rate_limits, one row per bucket such as sign-in:ip:203.0.113.7 or sign-in:account:<SHA-256 of the email>): one atomic INSERT … ON CONFLICT DO UPDATE … RETURNING per check, so every process of a deployment on the same database counts the same hits. Expired windows are deleted at most once a minute per process.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:32",
    "page": "auth",
    "type": "text",
    "content":
      "The client address is the connection's peer address, which the module reads from what the runtime's server passes its fetch as second argument: serve() and fragment-cli serve pass it; so do Deno.serve(module.fetch), Bun.serve({ fetch: module.fetch }) and serve({ fetch: module.fetch }) of @hono/node-server (and Hono apps forwarding c.env: app.all(\"/api/auth/*\", (c) => module.fetch(c.req.raw, c.env))). Any other framework passes { remoteAddress } itself: module.fetch(request, { remoteAddress: req.socket.remoteAddress }). An IPv6 client is counted per /64 network.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:33",
    "page": "auth",
    "type": "text",
    "content":
      "Without an address (an in-process module.fetch(request) call with no second argument), the per-address limit does not apply; the per-account limit still does.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:34",
    "page": "auth",
    "type": "text",
    "content":
      'Behind a reverse proxy, every connection comes from the proxy: set trustProxy to the header the proxy writes the client\'s address into ("x-forwarded-for", "x-real-ip", "forwarded"); its left-most address is used. Set it only behind a proxy that overwrites that header (nginx: proxy_set_header X-Forwarded-For $remote_addr;): a client can send the header itself, and with trustProxy set where no proxy rewrites it, each request chooses its own address and escapes the per-address limit. Without trustProxy the header is ignored; the module warns once (on the console) when requests from a loopback or private address carry such a header, the sign of a proxy in front.',
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:35",
    "page": "auth",
    "type": "text",
    "content":
      "The verification routes share the limits: POST /verify-email (anonymous, the token is the proof) counts per client address (bucket verify-email:ip:…), and POST /verify-email/resend, which sends a mail each time, per address and per account (perAccount.max mails per window), so nobody can make the module mail-bomb an inbox.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:36",
    "page": "auth",
    "type": "text",
    "content":
      "Locking an account out: anyone who knows an email can spend its 10 failed attempts and keep the owner from signing in for the rest of the window. That is the price of stopping a password guesser spread over many addresses; lower perAccount.max's impact by a shorter perAccount.window, or set perAccount: false where per-address limits and strong passwords suffice.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:37",
    "page": "auth",
    "type": "text",
    "content":
      "Choices: better-auth limits every route per IP to 100 per 10 s, and sign-in/sign-up to 3 per 10 s, in memory by default (so per process); it has no per-account limit. Ours allow a burst (a shared office address signing in together) but far fewer attempts per hour (400 against 1,080 per address), and add the per-account limit that stops a guesser using many addresses.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth:38",
    "page": "auth",
    "type": "text",
    "content":
      "The hashing queue. Each module instance hashes at most maxConcurrent passwords at once (default: half the cores, at least 1 and at most 4) and lets at most maxQueued (default 8) wait. Beyond that a request is answered at once with 503 SERVICE_BUSY and Retry-After (an estimate of the seconds until a place frees up), instead of waiting for seconds. Waiting hashes are served by fairness, not arrival: the client address that asked for the fewest hashes in the last one to two minutes (refused asks count) goes first, and when the queue is full a newcomer with fewer recent asks takes the place of the heaviest asker's latest waiter. So a flood costs a sign-in from an address that is not flooding about one hash of waiting (measured in benchmarks.md: scenario 8). A flood from as many fresh addresses as there are requests cannot be told from users; put a CAPTCHA or your edge's protection in front for that. scryptPasswordHasher({ maxConcurrent, maxQueued }) tunes both; api.createUser throws PasswordHasherBusyError when the queue is full.",
    "url": "/docs/auth#rate-limits",
    "context": "Auth module › Rate limits",
  },
  {
    "id": "auth#routes",
    "page": "auth",
    "type": "heading",
    "content": "Routes",
    "url": "/docs/auth#routes",
    "context": "Auth module",
  },
  {
    "id": "auth:39",
    "page": "auth",
    "type": "text",
    "content":
      "Paths are relative to the mount (/api/auth). Every response of the routes below carries Cache-Control: no-store. GET /openapi.json answers the module's OpenAPI 3.1 document (every route, its schemas, its error codes, the service_auth cookie and Bearer security schemes), without a credential: see openapi.md.",
    "url": "/docs/auth#routes",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth#post-sign-up",
    "page": "auth",
    "type": "heading",
    "content": "POST /sign-up",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth:40",
    "page": "auth",
    "type": "text",
    "content":
      "The email is trimmed and lower-cased, then validated (at most 254 characters). Taken → 409 EMAIL_TAKEN (also when it differs only in case).",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth:41",
    "page": "auth",
    "type": "text",
    "content":
      "The password must be 8–128 characters (counted as characters, so an emoji is one). Longer is a 400, never silently truncated.",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth:42",
    "page": "auth",
    "type": "text",
    "content":
      'The password must be well-formed Unicode: one with an unpaired surrogate ("\\uD800" in JSON) is a 400 VALIDATION_ERROR (UTF-8 turns every unpaired surrogate into U+FFFD, so such passwords would hash alike).',
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth:43",
    "page": "auth",
    "type": "text",
    "content": "The role is always user; a role field in the body is ignored.",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth:44",
    "page": "auth",
    "type": "text",
    "content":
      "Like every unsafe request, it must come from the deployment's origin or a trusted one (403 CSRF_REJECTED otherwise: a hostile page cannot create an account or sign a visitor in), with Content-Type: application/json (415 otherwise).",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth:45",
    "page": "auth",
    "type": "text",
    "content":
      "The user starts with emailVerified: false; the module mails a verification token through sendVerificationEmail (see Email verification). A failing mailer does not fail the sign-up (it is logged without the token); the user asks again with POST /verify-email/resend.",
    "url": "/docs/auth#post-sign-up",
    "context": "Auth module › Routes › POST /sign-up",
  },
  {
    "id": "auth#post-sign-in",
    "page": "auth",
    "type": "heading",
    "content": "POST /sign-in",
    "url": "/docs/auth#post-sign-in",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth:46",
    "page": "auth",
    "type": "text",
    "content":
      "Same body and response as sign-up; each sign-in issues a new, independent credential. A wrong password and an unknown email both answer",
    "url": "/docs/auth#post-sign-in",
    "context": "Auth module › Routes › POST /sign-in",
  },
  {
    "id": "auth:47",
    "page": "auth",
    "type": "text",
    "content":
      "with 401, after the same work: an unknown email is checked against a dummy hash, so both paths run exactly one scrypt derivation (the tests count them). A password over 128 characters, or with an unpaired surrogate, is a 400 before any hashing. A sign-in from another origin is a 403 CSRF_REJECTED before its body is looked at: a hostile page cannot sign a visitor in to the attacker's account (login CSRF).",
    "url": "/docs/auth#post-sign-in",
    "context": "Auth module › Routes › POST /sign-in",
  },
  {
    "id": "auth:48",
    "page": "auth",
    "type": "text",
    "content":
      "Both routes are rate-limited (Rate limits): 429 RATE_LIMITED over a limit, 503 SERVICE_BUSY when the hashing queue is full, both with Retry-After.",
    "url": "/docs/auth#post-sign-in",
    "context": "Auth module › Routes › POST /sign-in",
  },
  {
    "id": "auth#post-sign-out",
    "page": "auth",
    "type": "heading",
    "content": "POST /sign-out",
    "url": "/docs/auth#post-sign-out",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth:49",
    "page": "auth",
    "type": "text",
    "content":
      "Ends the presented credential and clears the cookie: 204, Set-Cookie: service_auth=; …; Max-Age=0. Other credentials of the same user stay valid. Using the ended credential afterwards → 401.",
    "url": "/docs/auth#post-sign-out",
    "context": "Auth module › Routes › POST /sign-out",
  },
  {
    "id": "auth#get-session",
    "page": "auth",
    "type": "heading",
    "content": "GET /session",
    "url": "/docs/auth#get-session",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth#get-me",
    "page": "auth",
    "type": "heading",
    "content": "GET /me",
    "url": "/docs/auth#get-me",
    "context": "Auth module › Routes",
  },
  {
    "id": "auth:50",
    "page": "auth",
    "type": "text",
    "content": "The bootstrap payload of a single-page application:",
    "url": "/docs/auth#get-me",
    "context": "Auth module › Routes › GET /me",
  },
  {
    "id": "auth:51",
    "page": "auth",
    "type": "text",
    "content":
      "With organizations enabled the organization fields are filled in, at most 100 organizations and 100 invitations with the …HasMore flags saying there are more (see organizations.md); with organizations: false they stay empty (and the flags false).",
    "url": "/docs/auth#get-me",
    "context": "Auth module › Routes › GET /me",
  },
  {
    "id": "auth#email-verification",
    "page": "auth",
    "type": "heading",
    "content": "Email verification",
    "url": "/docs/auth#email-verification",
    "context": "Auth module",
  },
  {
    "id": "auth:52",
    "page": "auth",
    "type": "text",
    "content":
      "Anyone can sign up with any address, so an address proves nothing until its owner shows they read its mail. user.emailVerified (in the sign-up, sign-in, /session, /me and /verify-email answers) says whether they did; the organizations API matches invitations only to verified addresses (see organizations.md).",
    "url": "/docs/auth#email-verification",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth:53",
    "page": "auth",
    "type": "text",
    "content":
      "At sign-up, and on POST /verify-email/resend, the module creates a token (32 random bytes, base64url), keeps only its SHA-256 in email_verifications with the address it was sent to, and calls sendVerificationEmail (awaited: queue slow mail):",
    "url": "/docs/auth#email-verification",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth:54",
    "page": "auth",
    "type": "text",
    "content":
      "url is <publicOrigin><mountRoute>/verify-email?token=<token>. It is never built from the request's Host (which the client chooses). Without publicOrigin it is relative (/api/auth/verify-email?token=…), and the module warns once at start-up when a custom sendVerificationEmail is set without publicOrigin. The link is meant for a page of your application that posts the token (a GET never verifies: mail scanners follow links); build your own link from token if that page lives elsewhere.",
    "url": "/docs/auth#email-verification",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth:55",
    "page": "auth",
    "type": "text",
    "content":
      'The dev default (no sendVerificationEmail) logs the link with console.log: [auth] Verification link for ada@example.com: /api/auth/verify-email?token=… (its page posts {"token": "…"} to /verify-email; …). It is the only place the module ever prints a token: set the option in production.',
    "url": "/docs/auth#email-verification",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth#post-verify-email",
    "page": "auth",
    "type": "heading",
    "content": "POST /verify-email",
    "url": "/docs/auth#post-verify-email",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth:56",
    "page": "auth",
    "type": "text",
    "content": "Anonymous (the token is the proof; a credential, if any, is ignored):",
    "url": "/docs/auth#post-verify-email",
    "context": "Auth module › Email verification › POST /verify-email",
  },
  {
    "id": "auth:57",
    "page": "auth",
    "type": "text",
    "content":
      '200 {"user": {…, "emailVerified": true}}. A token works once, for emailVerificationTtlHours (24 h), and only while the user\'s address is still the one it was sent to. Unknown, malformed, used or replaced token, or one sent to an address the user no longer has → 400 INVALID_VERIFICATION_TOKEN; expired → 410 VERIFICATION_TOKEN_EXPIRED; a body without a string token (or one over 512 characters) → 400 VALIDATION_ERROR.',
    "url": "/docs/auth#post-verify-email",
    "context": "Auth module › Email verification › POST /verify-email",
  },
  {
    "id": "auth#post-verify-emailresend",
    "page": "auth",
    "type": "heading",
    "content": "POST /verify-email/resend",
    "url": "/docs/auth#post-verify-emailresend",
    "context": "Auth module › Email verification",
  },
  {
    "id": "auth:58",
    "page": "auth",
    "type": "text",
    "content":
      "Authenticated, no body needed: mails a fresh token to the caller's address and answers 204; every earlier token of the user stops working. Already verified → 409 EMAIL_ALREADY_VERIFIED. A mailer that throws makes it a 500 (the client may retry).",
    "url": "/docs/auth#post-verify-emailresend",
    "context": "Auth module › Email verification › POST /verify-email/resend",
  },
  {
    "id": "auth#credentials",
    "page": "auth",
    "type": "heading",
    "content": "Credentials",
    "url": "/docs/auth#credentials",
    "context": "Auth module",
  },
  {
    "id": "auth:59",
    "page": "auth",
    "type": "text",
    "content":
      "A credential is presented either as the cookie service_auth (set by sign-up and sign-in) or as Authorization: Bearer <token> (the token of the sign-up/sign-in response).",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:60",
    "page": "auth",
    "type": "text",
    "content": "no credential | 401 UNAUTHENTICATED, WWW-Authenticate: Bearer",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:61",
    "page": "auth",
    "type": "text",
    "content":
      'unknown, malformed, expired or signed-out credential | 401 UNAUTHENTICATED, WWW-Authenticate: Bearer error="invalid_token"',
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:62",
    "page": "auth",
    "type": "text",
    "content":
      "cookie and Bearer header both present with different tokens | 400 CONFLICTING_CREDENTIALS",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:63",
    "page": "auth",
    "type": "text",
    "content":
      "cookie and Bearer header carrying the same token | accepted, treated as a Bearer request",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:64",
    "page": "auth",
    "type": "text",
    "content": "cookie-authenticated POST/PUT/PATCH/DELETE from another origin | 403 CSRF_REJECTED",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:65",
    "page": "auth",
    "type": "text",
    "content": "anonymous POST (sign-up, sign-in, …) from another origin | 403 CSRF_REJECTED",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:66",
    "page": "auth",
    "type": "text",
    "content":
      "The cookie is HttpOnly; SameSite=Lax; Path=/ with Max-Age/Expires at the credential's expiry, and Secure unless the deployment's origin is plain http on localhost, *.localhost, 127.0.0.1 or [::1] (browsers drop Secure cookies there). The deployment's origin is publicOrigin when it is set, else the request's own (from its URL, i.e. its Host). Set publicOrigin in production: behind a TLS-terminating proxy that forwards to http://127.0.0.1:8080 with that Host, the request's own origin would be local and the cookie would lose Secure.",
    "url": "/docs/auth#credentials",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth#the-origin-rule",
    "page": "auth",
    "type": "heading",
    "content": "The origin rule",
    "url": "/docs/auth#the-origin-rule",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:67",
    "page": "auth",
    "type": "text",
    "content":
      "Every unsafe request (POST, PUT, PATCH, DELETE) a browser sends from another origin is refused with 403 CSRF_REJECTED: anonymous ones too (sign-up, sign-in, and every route a future version opens to anonymous callers), so a hostile page can neither act as a signed-in visitor nor sign the visitor in to the attacker's account (login CSRF). A request is from another origin when",
    "url": "/docs/auth#the-origin-rule",
    "context": "Auth module › Credentials › The origin rule",
  },
  {
    "id": "auth:68",
    "page": "auth",
    "type": "text",
    "content":
      "its Origin header is neither the deployment's origin nor one of trustedOrigins (the opaque Origin: null of sandboxed frames and some redirects is never allowed), or",
    "url": "/docs/auth#the-origin-rule",
    "context": "Auth module › Credentials › The origin rule",
  },
  {
    "id": "auth:69",
    "page": "auth",
    "type": "text",
    "content": "it has no Origin but Sec-Fetch-Site: cross-site.",
    "url": "/docs/auth#the-origin-rule",
    "context": "Auth module › Credentials › The origin rule",
  },
  {
    "id": "auth:70",
    "page": "auth",
    "type": "text",
    "content":
      "The deployment's origin is publicOrigin when set; the request's own origin is trusted only when publicOrigin is unset (local development), because its Host is whatever the client or a proxy put there. Requests with neither header (curl, servers, mobile apps) pass. Bearer-authenticated requests to authenticated routes are not checked: a cross-site page cannot attach that header. SameSite=Lax already keeps the cookie off cross-site fetch and form posts in current browsers; the origin check covers same-site subdomains, older browsers, and anonymous requests (which carry no cookie at all).",
    "url": "/docs/auth#the-origin-rule",
    "context": "Auth module › Credentials › The origin rule",
  },
  {
    "id": "auth#cors",
    "page": "auth",
    "type": "heading",
    "content": "CORS",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials",
  },
  {
    "id": "auth:71",
    "page": "auth",
    "type": "text",
    "content":
      "trustedOrigins is the one list of other origins the module trusts, and it drives both the origin rule above and CORS: a page on a trusted origin may send unsafe requests and read the answers, cookies included. A front end on https://app.example.com calling an API on https://api.example.com:",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:72",
    "page": "auth",
    "type": "text",
    "content":
      "Preflight (OPTIONS with Access-Control-Request-Method) from a trusted origin, asking for one of GET, HEAD, POST, PATCH, DELETE and no request header beyond Content-Type and Authorization (and the CORS-safelisted ones): 204 with Access-Control-Allow-Origin: https://app.example.com (the exact origin, never *, which browsers refuse with credentials), Access-Control-Allow-Credentials: true, Access-Control-Allow-Methods: GET, HEAD, POST, PATCH, DELETE, Access-Control-Allow-Headers: Content-Type, Authorization, Access-Control-Max-Age: 600 and Vary: Origin, Access-Control-Request-Method, Access-Control-Request-Headers. Ten minutes of caching: an origin removed from the list stops working soon after a restart.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:73",
    "page": "auth",
    "type": "text",
    "content":
      "Actual requests from a trusted origin, successful or not (a page needs the error's code): Access-Control-Allow-Origin (the exact origin), Access-Control-Allow-Credentials: true, Access-Control-Expose-Headers: Retry-After, WWW-Authenticate.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:74",
    "page": "auth",
    "type": "text",
    "content":
      "Any other origin gets no Access-Control-* header at all, so the browser keeps the answer from the page, and its unsafe requests are still refused with 403 CSRF_REJECTED. Origins are compared as exact strings against the serialized origins of the option (scheme, host, port): https://app.example.com.evil.com, http://app.example.com, https://app.example.com:8443 and the opaque null of sandboxed frames match nothing. A trusted origin's preflight asking for another method (PUT, TRACE) or header (X-Requested-With, Cookie) gets no allowance either.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:75",
    "page": "auth",
    "type": "text",
    "content":
      "With trustedOrigins set, every answer carries Vary: Origin (what it says depends on the Origin header; answers are no-store anyway). With the list empty the module adds no CORS header and no Vary: a same-origin deployment (the SPA served with the API) needs none.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:76",
    "page": "auth",
    "type": "text",
    "content":
      "Cookies need the same site. The session cookie is SameSite=Lax, so a browser sends it (and stores it) only for requests between origins of the same site: https://app.example.com → https://api.example.com, or http://localhost:5173 → http://localhost:8000 (ports do not make another site). A front end on another site (https://example.app → https://api.example.com) gets its answers through CORS but no cookie: it keeps the token of sign-in and sends Authorization: Bearer (the typed client's token option). The client's fetch must ask for cookies with credentials: \"include\", which the typed client does by default.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:77",
    "page": "auth",
    "type": "text",
    "content":
      "A body must be sent as Content-Type: application/json (a +json type and charset=utf-8 are fine): any other type, or none, is a 415 UNSUPPORTED_MEDIA_TYPE. A form on another site can post text/plain, urlencoded and multipart bodies without asking the server first; application/json needs a CORS preflight, which a hostile origin does not pass.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:78",
    "page": "auth",
    "type": "text",
    "content":
      "A Host header that is not a host name or IP literal with an optional port is a 400 INVALID_HOST before any routing (Deno built the request URL from it: Host: example.com/api/auth/sign-up? turned a sign-in into a sign-up).",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth:79",
    "page": "auth",
    "type": "text",
    "content":
      "Order of checks: Host (400 INVALID_HOST) → body framing (413, 415, malformed JSON 400) → credential on authenticated routes (401) → origin (403 CSRF_REJECTED) → input validation (400 VALIDATION_ERROR) → the route's own rules. An anonymous caller therefore learns nothing about an authenticated route's input but 401, and a cross-site caller nothing about any route's input but 403.",
    "url": "/docs/auth#cors",
    "context": "Auth module › Credentials › CORS",
  },
  {
    "id": "auth#server-side-api",
    "page": "auth",
    "type": "heading",
    "content": "Server-side API",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module",
  },
  {
    "id": "auth:80",
    "page": "auth",
    "type": "text",
    "content": "auth() returns the module plus api, for the application that embeds it:",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth:81",
    "page": "auth",
    "type": "text",
    "content":
      "createUser applies the sign-up rules (email normalization, 8–128 character well-formed password; a taken email throws an HttpError with code EMAIL_TAKEN, an invalid input a TypeError).",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth:82",
    "page": "auth",
    "type": "text",
    "content":
      "createUser applies the sign-up rules (email normalization, 8–128 character password; a taken email throws an HttpError with code EMAIL_TAKEN, an invalid input a TypeError). emailVerified: true creates the user verified; otherwise (default false) no mail is sent: the user asks for one with POST /verify-email/resend once signed in.",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth:83",
    "page": "auth",
    "type": "text",
    "content":
      "getRequestAuth reads the cookie or Bearer header exactly like the routes (no CSRF check: the caller decides what the request does). session.activeOrganizationId is the credential's active organization.",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth:84",
    "page": "auth",
    "type": "text",
    "content":
      "The global role (user or admin) can only be changed here: no HTTP route changes it.",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth:85",
    "page": "auth",
    "type": "text",
    "content":
      "addMember puts a user into an organization without an invitation and without asking organizations.canAddMember (the HTTP route refuses direct adds by default, see organizations.md); membershipLimit applies. It throws an HttpError (NOT_FOUND, USER_NOT_FOUND, MEMBERSHIP_LIMIT_REACHED, ALREADY_MEMBER), a TypeError for roles not among organizations.roles, an Error with organizations: false.",
    "url": "/docs/auth#server-side-api",
    "context": "Auth module › Server-side API",
  },
  {
    "id": "auth#error-codes",
    "page": "auth",
    "type": "heading",
    "content": "Error codes",
    "url": "/docs/auth#error-codes",
    "context": "Auth module",
  },
  {
    "id": "auth:86",
    "page": "auth",
    "type": "text",
    "content":
      'Every error uses the project\'s one shape, {"error": {"code", "message"}} (plus issues for validation errors). AUTH_ERROR_CODES exports the codes with their statuses.',
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:87",
    "page": "auth",
    "type": "text",
    "content": "400 | VALIDATION_ERROR | a field fails validation; issues lists {path, message}",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:88",
    "page": "auth",
    "type": "text",
    "content": "400 | INVALID_JSON | the body is not JSON",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:89",
    "page": "auth",
    "type": "text",
    "content": "400 | CONFLICTING_CREDENTIALS | cookie and Bearer header carry different tokens",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:90",
    "page": "auth",
    "type": "text",
    "content": "400 | INVALID_HOST | the Host header is not a host name with an optional port",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:91",
    "page": "auth",
    "type": "text",
    "content":
      "400 | INVALID_VERIFICATION_TOKEN | verification token unknown, used, replaced or for an old address",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:92",
    "page": "auth",
    "type": "text",
    "content": "401 | UNAUTHENTICATED | no valid credential (WWW-Authenticate: Bearer)",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:93",
    "page": "auth",
    "type": "text",
    "content": "401 | INVALID_CREDENTIALS | wrong email or password",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:94",
    "page": "auth",
    "type": "text",
    "content": "403 | CSRF_REJECTED | unsafe request from another origin (see the origin rule)",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:95",
    "page": "auth",
    "type": "text",
    "content": "409 | EMAIL_TAKEN | sign-up with an email that has an account",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:96",
    "page": "auth",
    "type": "text",
    "content": "409 | EMAIL_ALREADY_VERIFIED | POST /verify-email/resend for a verified address",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:97",
    "page": "auth",
    "type": "text",
    "content": "410 | VERIFICATION_TOKEN_EXPIRED | the verification token expired",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:98",
    "page": "auth",
    "type": "text",
    "content": "413 | PAYLOAD_TOO_LARGE | body over bodyLimit",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:99",
    "page": "auth",
    "type": "text",
    "content": "415 | UNSUPPORTED_MEDIA_TYPE | a body not sent as application/json",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:100",
    "page": "auth",
    "type": "text",
    "content": "429 | RATE_LIMITED | too many sign-in/sign-up attempts (Retry-After)",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:101",
    "page": "auth",
    "type": "text",
    "content": "503 | SERVICE_UNAVAILABLE | the database cannot be reached (Retry-After: 5)",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:102",
    "page": "auth",
    "type": "text",
    "content": "503 | SERVICE_BUSY | the password-hashing queue is full (Retry-After)",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth:103",
    "page": "auth",
    "type": "text",
    "content": "The organizations routes add their own codes, listed in organizations.md.",
    "url": "/docs/auth#error-codes",
    "context": "Auth module › Error codes",
  },
  {
    "id": "auth#passwords",
    "page": "auth",
    "type": "heading",
    "content": "Passwords",
    "url": "/docs/auth#passwords",
    "context": "Auth module",
  },
  {
    "id": "auth:104",
    "page": "auth",
    "type": "text",
    "content":
      "Passwords are hashed with scrypt from node:crypto (the same on Deno, Node and Bun) at OWASP's parameters: N = 2^17, r = 8, p = 1, a 16-byte random salt and a 32-byte key. Each hash holds 128 MiB (128 × N × r bytes) for about half a second on one core, so at most 4 (half the cores, at least 1) run at once per module instance (maxConcurrent); up to maxQueued (8) more wait their turn, and beyond that a sign-in or sign-up is answered 503 SERVICE_BUSY (see Rate limits) instead of exhausting memory or queuing for seconds. Node's default maxmem (32 MiB) refuses these parameters, so the module raises it per call.",
    "url": "/docs/auth#passwords",
    "context": "Auth module › Passwords",
  },
  {
    "id": "auth:105",
    "page": "auth",
    "type": "text",
    "content": "The stored string describes itself:",
    "url": "/docs/auth#passwords",
    "context": "Auth module › Passwords",
  },
  {
    "id": "auth:106",
    "page": "auth",
    "type": "text",
    "content":
      "so the cost can be raised later: scryptPasswordHasher({ params: { ln: 18 } }) verifies old hashes with their own parameters and, after a successful sign-in, re-hashes the password at the new ones. Passwords are NFC-normalized before hashing, so the same characters typed on different systems match. passwordHasher accepts any object with hash, verify, needsRehash and dummyHash (for example an Argon2id implementation).",
    "url": "/docs/auth#passwords",
    "context": "Auth module › Passwords",
  },
  {
    "id": "auth#storage",
    "page": "auth",
    "type": "heading",
    "content": "Storage",
    "url": "/docs/auth#storage",
    "context": "Auth module",
  },
  {
    "id": "auth:107",
    "page": "auth",
    "type": "text",
    "content": "The schema authSchema lives in the namespace auth (option namespace):",
    "url": "/docs/auth#storage",
    "context": "Auth module › Storage",
  },
  {
    "id": "auth:108",
    "page": "auth",
    "type": "text",
    "content":
      "1 | users (id uuid, email unique, password_hash, role default user, created_at, updated_at)",
    "url": "/docs/auth#storage",
    "context": "Auth module › Storage",
  },
  {
    "id": "auth:109",
    "page": "auth",
    "type": "text",
    "content":
      "2 | sessions (id uuid, user_id → users on delete cascade, token_hash unique, expires_at, created_at)",
    "url": "/docs/auth#storage",
    "context": "Auth module › Storage",
  },
  {
    "id": "auth:110",
    "page": "auth",
    "type": "text",
    "content": "3 | index sessions_user_id_idx",
    "url": "/docs/auth#storage",
    "context": "Auth module › Storage",
  },
  {
    "id": "auth:111",
    "page": "auth",
    "type": "text",
    "content":
      "Versions 4–17 hold the organizations tables and the durable hook table of its notifications (see organizations.md). Version 18 adds users.email_verified_at (set by POST /verify-email), 19–20 the table email_verifications (id, user_id → users on delete cascade, email, token_hash unique, expires_at, used_at, created_at) and its user_id index. Versions are append-only.",
    "url": "/docs/auth#storage",
    "context": "Auth module › Storage",
  },
  {
    "id": "auth#security-notes",
    "page": "auth",
    "type": "heading",
    "content": "Security notes",
    "url": "/docs/auth#security-notes",
    "context": "Auth module",
  },
  {
    "id": "auth:112",
    "page": "auth",
    "type": "text",
    "content":
      "Tokens are 32 bytes from the CSPRNG (256 bits), base64url. Only their SHA-256 is stored, so a database leak yields no usable credential; the lookup is by that digest (an index lookup on a hash leaks nothing about the token).",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "auth:113",
    "page": "auth",
    "type": "text",
    "content":
      "Unknown emails cost the same scrypt work as wrong passwords (a dummy hash), so sign-in timing does not reveal which emails have accounts. Sign-up does reveal it (409), by design.",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "auth:114",
    "page": "auth",
    "type": "text",
    "content":
      "Tokens and passwords never appear in logs (the one exception: the development default of sendVerificationEmail prints the verification link), and responses are Cache-Control: no-store.",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "auth:115",
    "page": "auth",
    "type": "text",
    "content":
      "Email verification tokens are single-use, expire (emailVerificationTtlHours), are stored as SHA-256 only and are bound to the address they were mailed to.",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "auth:116",
    "page": "auth",
    "type": "text",
    "content":
      "Sign-in and sign-up are rate-limited per client address and per account, and the hashing queue is bounded (Rate limits). The threat model is in security.md.",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "auth:117",
    "page": "auth",
    "type": "text",
    "content":
      "Not built in: password reset (use api.revokeUserSessions after changing a password).",
    "url": "/docs/auth#security-notes",
    "context": "Auth module › Security notes",
  },
  {
    "id": "benchmarks",
    "page": "benchmarks",
    "type": "page",
    "content": "Benchmarks",
    "url": "/docs/benchmarks",
    "context": "",
  },
  {
    "id": "benchmarks:1",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Speed and memory are measured by a benchmark that prints figures, never by timed tests. Every comparison runs both of its sides in the same run, on the same machine, runtime and database server, and is judged by the ratio of the two: absolute figures drift with whatever else the machine is doing, ratios within one run are what count.",
    "url": "/docs/benchmarks",
    "context": "Benchmarks",
  },
  {
    "id": "benchmarks#running-it",
    "page": "benchmarks",
    "type": "heading",
    "content": "Running it",
    "url": "/docs/benchmarks#running-it",
    "context": "Benchmarks",
  },
  {
    "id": "benchmarks:2",
    "page": "benchmarks",
    "type": "text",
    "content":
      "The smoke run (deno task test runs it) uses tiny counts and no warm-ups, runs the scenarios side by side (and the two sides of scenarios 2 and 7 at once), and in scenario 5 runs the sources on every runtime (no npm build; db info on PostgreSQL): its figures only show that every scenario still measures. It takes 9–10 s on a 2 × AMD EPYC machine and 12–14 s on a 2 × Intel Xeon one (about 15 and 21 CPU-seconds): a dozen servers start (three of them on PGlite, 1.7 CPU-seconds for an existing directory and 3.1 for a fresh one each), nine CLI runs are timed and npx is asked for Node's and Bun's paths (3 CPU-seconds together, 2.4 s before the first scenario starts). The webhook load is 40 deliveries (100 until session 7, which on a cold PGlite under the smoke's own contention took scenario 7 about 4 s). On 2 cores the run is CPU-bound: \"a few seconds\" would take fewer servers, not smaller counts.",
    "url": "/docs/benchmarks#running-it",
    "context": "Benchmarks › Running it",
  },
  {
    "id": "benchmarks:3",
    "page": "benchmarks",
    "type": "text",
    "content":
      "It needs the PostgreSQL server the tests use (127.0.0.1:5432, user postgres, trust authentication; BENCH_POSTGRES_ADMIN_URL names another maintenance database) and npx for Node 22 and Bun, as deno task test does. Each side of each scenario gets a fresh database (fragment_bench_*), dropped at the end; scratch files go to .bench/ (git-ignored). The table goes to stdout, progress to stderr. The command exits 1 only when a scenario could not be measured; a target that fails is a result, not an error.",
    "url": "/docs/benchmarks#running-it",
    "context": "Benchmarks › Running it",
  },
  {
    "id": "benchmarks:4",
    "page": "benchmarks",
    "type": "text",
    "content":
      "CI runs the smoke mode through tests/bench/bench_smoke.test.ts (Deno only), which checks that every scenario prints its rows with figures, so the scripts cannot rot. The full run is not part of CI.",
    "url": "/docs/benchmarks#running-it",
    "context": "Benchmarks › Running it",
  },
  {
    "id": "benchmarks#how-it-measures",
    "page": "benchmarks",
    "type": "heading",
    "content": "How it measures",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks",
  },
  {
    "id": "benchmarks:5",
    "page": "benchmarks",
    "type": "text",
    "content":
      "1 | webhook ingest: 20,000 deliveries, 10 % repeated update_ids, 64 connections | fragment-cli serve scripts/bench/webhook_app.ts (the messenger module, a no-op onMessage, so each new update is stored and its durable hook enqueued and run) | a bare Hono handler doing only INSERT … ON CONFLICT DO NOTHING of the raw JSON with postgres.js (reference_webhook_server.ts) | throughput ≥ 0.8 ×, p99 ≤ 2 ×",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:6",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 | create organization, list my organizations (user in 50), add member, get organization, each on its own | the auth module over HTTP (scripts/bench/auth_app.ts) | better-auth 1.7's organization plugin over HTTP, its Kysely adapter on pg, its own migrations run at start (reference_better_auth_server.ts) | throughput ≥ 2 × for each",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:7",
    "page": "benchmarks",
    "type": "text",
    "content":
      "3 | GET /me of a user in 50 organizations with 5 pending invitations | same server | GET /me of a user in 1 organization | ≤ 3 SQL round trips in both; throughput ratio ≥ 0.7",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:8",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | a members page (pageSize 50) at the first, middle and last page of organizations with 100k and 1M members | same server | the same page of a 1k-member organization | latency 1M / 1k ≤ 1.5",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:9",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | fragment-cli --help and fragment-cli db info examples/app.ts on Deno (the sources), Node 22 and Bun (the npm build of deno task build:npm) | — | the bare start of the runtime (deno eval 0, node -e 0, bun -e 0) | --help ≤ 1.5 ×",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:10",
    "page": "benchmarks",
    "type": "text",
    "content":
      "6 | fragment-cli serve examples/app.ts on PGlite: spawn to the first 200 of a webhook delivery | fresh data directory, then the existing one | — | ≤ 3 s fresh, ≤ 1 s existing",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:11",
    "page": "benchmarks",
    "type": "text",
    "content":
      "7 | resident memory of serve (the scenario-1 app) idle and at the peak of the scenario-1 load | PostgreSQL and PGlite | — | reported; PostgreSQL idle ≤ 80 MiB",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:12",
    "page": "benchmarks",
    "type": "text",
    "content":
      "8 | a legitimate sign-in (default scrypt cost) during 16 and 64 concurrent junk sign-ins from other addresses, over HTTP | fragment-cli serve scripts/bench/flood_app.ts (PGlite, trustProxy, rate limits off) | the same sign-in with no flood | ≤ 2 ×",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:13",
    "page": "benchmarks",
    "type": "text",
    "content":
      "9 | durable hooks on PostgreSQL: commit of an enqueue to the start of its handler, idle workers polling every 30 s, 200 enqueues one at a time | the worker in another process (tests/fixtures/hook_worker.ts wake) | the worker in the enqueuing process | p50 ≤ 50 ms",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:14",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Servers. Everything under test runs on Deno, the runtime deno task bench runs on. The reference servers listen with the same server our serve() uses on that runtime (Deno.serve, see scripts/bench/listen.ts), so the sides differ only in their handlers. Connection pools are 10 on every side (postgres.js for ours and the bare handler, pg for better-auth).",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:15",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Load. autocannon on Node 22, in its own process (scripts/bench/load_generator.ts, one for the whole run, driven by load_client.ts), so the server and the client never share an event loop. Every planned request is sent exactly once, spread over keep-alive connections, after an unmeasured warm-up with other data. Throughput is answered requests divided by the time from the start to the last answer (autocannon itself only reports on its sampling tick); p99 comes from autocannon's histogram (1 ms resolution). Scenario 4 needs sub-millisecond resolution and uses a sequential fetch loop timed with performance.now() instead; its figure is the median.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:16",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Correctness. Every answer's status is counted; a scenario whose answers are not all 2xx fails instead of reporting the speed of errors. Set-up checks what it built (50 organizations listed, 5 invitations in /me, the last members page really last).",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:17",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Rounds. Scenario 1 alternates the sides over two rounds (fresh databases each) and keeps each side's best; scenario 4 measures every case twice and keeps the lower median; scenario 5 alternates the bare start and --help run by run.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:18",
    "page": "benchmarks",
    "type": "text",
    "content":
      "SQL round trips (scenario 3) are the adapter's own stats.queries, read through GET /api/bench/stats of the bench app (bench_stats_module.ts, the same adapter instance as the module), around batches of sequential requests; the smallest batch wins, so a poll of the hook worker that happens to fall in a batch is not counted. Transaction statements (BEGIN/COMMIT) are not counted by stats.queries.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:19",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Set-up by SQL. Users to be added as members (scenario 2) and the members of the big organizations (scenario 4) are inserted with SQL, not signed up: password hashing is not what is measured. Scenario 4 then runs VACUUM (ANALYZE) and makes the middle and last page cursors with the project's own cursor helpers from the row before each page, exactly the cursor the API hands out after walking there.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:20",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Fairness notes. better-auth has no HTTP route to add a member (addMember is server-only): the reference mounts one that calls auth.api.addMember with the caller's headers; it checks no permission, ours checks the caller is an owner or admin. better-auth lists all of a user's organizations in one answer; ours is asked for pageSize=50, the whole list too. better-auth authenticates with its cookie (and the Origin header its CSRF check wants), ours with a Bearer token.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks:21",
    "page": "benchmarks",
    "type": "text",
    "content":
      "The peers (autocannon, better-auth, pg) are imports of scripts/bench/ only. The npm package takes its dependencies from what mod.ts, cli.ts and src/ import, and JSR publishes none of scripts/, so neither package depends on them.",
    "url": "/docs/benchmarks#how-it-measures",
    "context": "Benchmarks › How it measures",
  },
  {
    "id": "benchmarks#latest-full-run",
    "page": "benchmarks",
    "type": "heading",
    "content": "Latest full run",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks",
  },
  {
    "id": "benchmarks:22",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Run on 2026-11-22 at about 01:33 UTC by the machine's clock (session 7), 2 × Intel Xeon, 24 GiB, 5 minutes 24 seconds, load average 1.67 at the end. Read the ratios: each side of a comparison ran in this run, on this machine.",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:23",
    "page": "benchmarks",
    "type": "text",
    "content":
      "1 | webhook ingest throughput | 4088 req/s | 3922 req/s (bare Hono + postgres.js) | 1.04 | ratio ≥ 0.8 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:24",
    "page": "benchmarks",
    "type": "text",
    "content":
      "1 | webhook ingest p99 latency | 32.0 ms | 50.0 ms (bare Hono + postgres.js) | 0.64 | ratio ≤ 2 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:25",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 | create organization throughput | 779 req/s | 61.8 req/s (better-auth) | 12.62 | ratio ≥ 2 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:26",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 | list my organizations (user in 50) throughput | 548 req/s | 65.8 req/s (better-auth) | 8.32 | ratio ≥ 2 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:27",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 | add member throughput | 1505 req/s | 314 req/s (better-auth) | 4.79 | ratio ≥ 2 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:28",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 | get organization throughput | 2646 req/s | 331 req/s (better-auth) | 7.99 | ratio ≥ 2 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:29",
    "page": "benchmarks",
    "type": "text",
    "content":
      "3 | GET /me SQL round trips, user in 50 orgs + 5 invitations | 3.00 queries | 3.00 queries (user in 1 org) | 1.00 | ≤ 3 queries | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:30",
    "page": "benchmarks",
    "type": "text",
    "content":
      "3 | GET /me throughput, user in 50 orgs + 5 invitations | 1502 req/s | 1986 req/s (user in 1 org) | 0.76 | ratio ≥ 0.7 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:31",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 100k members, first page | 2.42 ms | 3.07 ms (1k, first page) | 0.79 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:32",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 100k members, middle page | 2.69 ms | 2.90 ms (1k, middle page) | 0.93 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:33",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 100k members, last page | 2.75 ms | 2.67 ms (1k, last page) | 1.03 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:34",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 1M members, first page | 1.77 ms | 3.07 ms (1k, first page) | 0.58 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:35",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 1M members, middle page | 2.03 ms | 2.90 ms (1k, middle page) | 0.70 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:36",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 | members page, 1M members, last page | 1.74 ms | 2.67 ms (1k, last page) | 0.65 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:37",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Deno: fragment-cli --help | 31.4 ms | 36.0 ms (bare eval 0) | 0.87 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:38",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Deno: fragment-cli db info examples/app.ts | 861 ms | 36.0 ms (bare eval 0) | 23.93 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:39",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Node: fragment-cli --help | 56.1 ms | 40.6 ms (bare -e 0) | 1.38 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:40",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Node: fragment-cli db info examples/app.ts | 1305 ms | 40.6 ms (bare -e 0) | 32.16 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:41",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Bun: fragment-cli --help | 11.9 ms | 8.90 ms (bare -e 0) | 1.33 | ratio ≤ 1.5 | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:42",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 | Bun: fragment-cli db info examples/app.ts | 768 ms | 8.90 ms (bare -e 0) | 86.31 | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:43",
    "page": "benchmarks",
    "type": "text",
    "content":
      "6 | serve examples/app.ts, fresh PGlite directory | 2208 ms | — | — | ≤ 3000 ms | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:44",
    "page": "benchmarks",
    "type": "text",
    "content":
      "6 | serve examples/app.ts, existing PGlite directory | 1120 ms | — | — | ≤ 1000 ms | FAIL",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:45",
    "page": "benchmarks",
    "type": "text",
    "content": "7 | serve RSS idle, PostgreSQL | 69.8 MiB | — | — | ≤ 80 MiB | pass",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:46",
    "page": "benchmarks",
    "type": "text",
    "content":
      "7 | serve RSS peak of scenario 1, PostgreSQL | 183 MiB | — | — | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:47",
    "page": "benchmarks",
    "type": "text",
    "content": "7 | serve RSS idle, PGlite | 346 MiB | — | — | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:48",
    "page": "benchmarks",
    "type": "text",
    "content": "7 | serve RSS peak of scenario 1, PGlite | 456 MiB | — | — | reported | reported",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:49",
    "page": "benchmarks",
    "type": "text",
    "content":
      "1 webhook ingest throughput: 20000 deliveries, 10 % repeated update_ids, 64 connections, best of 2 round(s) per side",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:50",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 create organization throughput: 2000 requests, 32 connections; p99 96 ms ours, 838 ms better-auth",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:51",
    "page": "benchmarks",
    "type": "text",
    "content":
      "2 list my organizations (user in 50) throughput: p99 105 ms ours, 640 ms better-auth",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:52",
    "page": "benchmarks",
    "type": "text",
    "content": "2 add member throughput: p99 42 ms ours, 132 ms better-auth",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:53",
    "page": "benchmarks",
    "type": "text",
    "content": "2 get organization throughput: p99 41 ms ours, 164 ms better-auth",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:54",
    "page": "benchmarks",
    "type": "text",
    "content":
      "3 GET /me SQL round trips, user in 50 orgs + 5 invitations: adapter stats.queries per request (credential lookup included), smallest of 5 batches of 20 sequential requests",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:55",
    "page": "benchmarks",
    "type": "text",
    "content":
      "3 GET /me throughput, user in 50 orgs + 5 invitations: 6000 requests, 32 connections; p99 41 ms (50 orgs), 32 ms (1 org)",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:56",
    "page": "benchmarks",
    "type": "text",
    "content":
      "4 members page, 100k members, first page: median of 300 sequential requests (or 12 s), lower of 2 passes; p99 13.19 ms vs 18.62 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:57",
    "page": "benchmarks",
    "type": "text",
    "content": "4 members page, 100k members, middle page: p99 19.31 ms vs 11.56 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:58",
    "page": "benchmarks",
    "type": "text",
    "content": "4 members page, 100k members, last page: p99 14.94 ms vs 12.66 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:59",
    "page": "benchmarks",
    "type": "text",
    "content": "4 members page, 1M members, first page: p99 15.58 ms vs 18.62 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:60",
    "page": "benchmarks",
    "type": "text",
    "content": "4 members page, 1M members, middle page: p99 8.91 ms vs 11.56 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:61",
    "page": "benchmarks",
    "type": "text",
    "content": "4 members page, 1M members, last page: p99 8.36 ms vs 12.66 ms",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:62",
    "page": "benchmarks",
    "type": "text",
    "content":
      "5 Deno: fragment-cli --help: median of 20 runs alternated with the bare start, after a warm run of each; db info: median of 10 runs after a warm run; Deno runs the sources, Node and Bun the npm build",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:63",
    "page": "benchmarks",
    "type": "text",
    "content":
      "6 serve examples/app.ts, fresh PGlite directory: median of 5 start(s); from spawn to the first 200 of a webhook delivery",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:64",
    "page": "benchmarks",
    "type": "text",
    "content":
      "7 serve RSS idle, PostgreSQL: VmRSS 2 s after start; peak = VmHWM after the scenario-1 load",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:65",
    "page": "benchmarks",
    "type": "text",
    "content": "7 serve RSS peak of scenario 1, PostgreSQL: load served at 3780 req/s",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:66",
    "page": "benchmarks",
    "type": "text",
    "content": "7 serve RSS peak of scenario 1, PGlite: load served at 613 req/s",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks:67",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Compared with session 6's run (a faster AMD EPYC machine): GET /me at 50 organizations 0.42 → 0.76 ×, now a pass: the organization entries and invitations of /me are kept per user and reused while the request's own statement finds their rows unchanged (see 3). serve on an existing PGlite directory 909 → 1,120 ms, a FAIL on this slower machine with no change to that path: PGlite's own open of the directory takes 640 – 760 ms here against 490 – 550 ms there (see 6). Webhook ingest 1.04 × (p99 0.64 ×), organizations 12.6 / 8.3 / 4.8 / 8.0 × better-auth, members pages 0.58 – 0.70 × at 1M, --help 0.87 / 1.38 / 1.33 ×: all pass.",
    "url": "/docs/benchmarks#latest-full-run",
    "context": "Benchmarks › Latest full run",
  },
  {
    "id": "benchmarks#what-bounds-the-targets-and-what-changed",
    "page": "benchmarks",
    "type": "heading",
    "content": "What bounds the targets, and what changed",
    "url": "/docs/benchmarks#what-bounds-the-targets-and-what-changed",
    "context": "Benchmarks",
  },
  {
    "id": "benchmarks:68",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Each target that failed in a full run was profiled or isolated; figures after \"experiment\" come from one-off runs on the same machine, not from the table. None of the causes is in the benchmark: each names the file and query that changed or would have to. One row fails in the latest run (session 7): serve on an existing PGlite directory (6), on a slower machine than session 6's, where it passed. /me at 50 organizations (3), which failed in every run before, passes. Session 4's run also failed webhook throughput (1); it passes since session 6.",
    "url": "/docs/benchmarks#what-bounds-the-targets-and-what-changed",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id":
      "benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:69",
    "page": "benchmarks",
    "type": "text",
    "content":
      'The analysis below is from the previous full run; "Since then" at the end of this section has what changed and what bounds the rest.',
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:70",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Per new update, UpdateStore.save() (src/messenger/update_store.ts) runs a transaction: BEGIN, INSERT … ON CONFLICT (update_id) DO NOTHING RETURNING, the hook's INSERT … ON CONFLICT (name, key) DO NOTHING RETURNING and SELECT pg_notify($1, $2) (HookStore.insert() → notify(), src/db/_hook_store.ts), COMMIT: five round trips where the reference makes one (2.9 counted statements per delivery in a 5,000-delivery run, plus BEGIN and COMMIT; the worker's claim, read and completion of the hook come on top). Worse, PostgreSQL serializes the commits of all transactions that issued NOTIFY behind one lock held through the commit's WAL flush, so the notifying transactions of 64 connections commit one at a time.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:71",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Experiment (a bare handler doing the same SQL, 10,000 deliveries, 64 connections, one run):",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:72",
    "page": "benchmarks",
    "type": "text",
    "content": "INSERT … ON CONFLICT DO NOTHING (the reference) | 3,652 – 4,986",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:73",
    "page": "benchmarks",
    "type": "text",
    "content": "the same in a transaction | 2,326",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:74",
    "page": "benchmarks",
    "type": "text",
    "content": "+ the hook row in the same transaction | 2,065",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:75",
    "page": "benchmarks",
    "type": "text",
    "content": "+ pg_notify in the transaction (what the module does) | 1,276 – 1,513",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:76",
    "page": "benchmarks",
    "type": "text",
    "content":
      "one statement, WITH u AS (INSERT … RETURNING update_id) INSERT INTO hooks … SELECT … FROM u | 3,704",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:77",
    "page": "benchmarks",
    "type": "text",
    "content": "that statement, plus one pg_notify per 50 ms outside any transaction | 3,741",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:78",
    "page": "benchmarks",
    "type": "text",
    "content":
      "So the target is reachable by the owner of src/messenger and src/db: store the update and its hook in one statement (a data-modifying CTE is atomic without BEGIN/COMMIT), and send the cross-process wake-up outside the transaction, coalesced (the in-process wake() already makes the local worker immediate; other processes are woken within the coalescing delay or by their poll). The p99 follows: with 64 connections, requests queue behind the serialized commits (1.6 ×, a pass, in the earlier run; 6.3 × in this one, where the reference ran 2.3 times faster than before).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:79",
    "page": "benchmarks",
    "type": "text",
    "content":
      "After this run, UpdateStore.save() became one statement: WITH inserted AS (INSERT … ON CONFLICT (update_id) DO NOTHING RETURNING update_id), hook AS (<DurableHooks.enqueueSql()'s INSERT … SELECT … FROM inserted>) SELECT count(*) FROM inserted — no BEGIN/COMMIT, no NOTIFY inside; the route's hooks.wake() wakes the local worker and sends one coalesced pg_notify outside any transaction (one in flight, one more after it for the wake-ups made meanwhile). --only 1 then (2026-11-21 17:07 UTC, load average 6 to 8 from other suites): 1,144 req/s against 3,181 req/s, 0.36 × (FAIL); p99 133 ms against 115 ms, 1.16 × (pass). What remains in the way of 0.8 × is the hook's processing in the same server process and database: per update the worker claims, reads the raw body and completes (three more statements), which the reference does not do at all.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:80",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Since then (each step measured with scenario 1's own servers and load, 20,000 deliveries over 64 connections, one run per side, machine shared with other suites, so compare within a row):",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:81",
    "page": "benchmarks",
    "type": "text",
    "content": "the one-statement store (above) | 1,144 | 3,181 | 0.36",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:82",
    "page": "benchmarks",
    "type": "text",
    "content": "+ prepared statements in the postgres.js adapter | 1,456 | 3,289 | 0.44",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:83",
    "page": "benchmarks",
    "type": "text",
    "content": "… the same with the hook worker stopped (ingest alone) | 1,718 | 3,289 | 0.52",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:84",
    "page": "benchmarks",
    "type": "text",
    "content":
      "+ at most one cross-process NOTIFY per 20 ms (was: one in flight, back to back), alone | 3,631 | 3,689 | 0.98",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:85",
    "page": "benchmarks",
    "type": "text",
    "content": "… the same with the worker running | 1,878 | 3,689 | 0.51",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:86",
    "page": "benchmarks",
    "type": "text",
    "content":
      "+ the worker claims 32 at a time and writes its done outcomes in groups | 2,380 | 4,376 | 0.54",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:87",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Prepared statements (src/db/postgres_adapter.ts): postgres.js runs a parameterized unsafe() query unprepared by default, and an unprepared query with parameters first asks the server for their types: two round trips each. Every query of the project now takes one (prepare: false remains for poolers that cannot keep statements; see adapters).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:88",
    "page": "benchmarks",
    "type": "text",
    "content":
      "wake() sent a NOTIFY for other processes after every stored update, one in flight at a time, so under load a NOTIFY transaction ran back to back beside the inserts. At most one per 20 ms made the ingest path alone as fast as the bare handler (0.98 ×).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:89",
    "page": "benchmarks",
    "type": "text",
    "content":
      "The worker (src/db/_hook_runner.ts, _hook_store.ts): before, it claimed at most concurrency (4) occurrences per statement and held a slot until the done write returned, and the claim sorted every waiting row (ORDER BY due_at, id with an index on due_at alone: 8 ms per claim at 20,000 waiting). It processed about 210 updates/s and finished 97 s after the load ended, which made ingest look faster (2,816 req/s) by leaving the work for later. Now quick handlers get a prefetch of 32 per claim, a slot frees when its handler ends, done writes that queue behind one in flight go together, and the claim reads the partial index in order: draining 5,000 no-op occurrences went from 15.4 s and 6,469 statements to 0.9 s and 394. The worker keeps up during the load (done 12 – 20 s after it, mostly the last seconds' backlog).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:90",
    "page": "benchmarks",
    "type": "text",
    "content":
      "What bounds the rest is the processing itself. The reference stores a row and does nothing else; serve also runs every update's hook in the same process and database during the load: the claim and the done write update the occurrence row twice (status, lease, with their index entries) and the handler reads the raw body back. With the worker stopped the same server reaches 0.98 × the reference; with it running, about half the two cores go to processing. Running more handlers at once lowers the statements (concurrency 16: 28,798 instead of 37,987 for 22,000 deliveries) but processes faster during the load and ingests less (2,143 against 2,573 req/s). Not done: lowering the worker's priority during bursts (the figure would pass by deferring work, not removing it), and claiming, running and completing in one transaction (one row update instead of two, but row locks held while handlers run, and a deadlock on PGlite's single connection when a handler queries). The p99 (1.89 × in the latest run, 2.04 × in the one before, 1.16 – 1.6 × in --only 1 runs) follows the same competition.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:91",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 4 (on a different machine: 2 × Intel Xeon; the reference now serves 5,500–6,400 req/s). Each process's CPU time per delivery was read from /proc around the load, and PostgreSQL's statements were timed with auto_explain and log_min_duration_statement on the bench database (one-off runs under .bench/exp, not in the table):",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:92",
    "page": "benchmarks",
    "type": "text",
    "content":
      "The worker's plans. Claims averaged 11.7 ms and completions 2.4 ms (780 claims, 2,602 completions for 22,000 deliveries: 15 s of statement time). The hook table is new in each run, so PostgreSQL has no statistics for it and guessed a handful of waiting rows: each claim read every waiting row through a BitmapAnd of two indexes and sorted them all, and each completion scanned every running row (or the whole table, in a generic plan cached while it was small). Claims and completions now run in a transaction that turns sequential scans and sorts off for itself (withIndexPlans, src/db/_hook_store.ts), and the completion's status test can no longer use an index: the claim walks the due index and stops after its batch, the completion goes by primary key. The backlog left at the end of the load now drains in 5–7 s instead of 15 s; PostgreSQL's CPU during that drain went from 670–770 to 190–220 µs per delivery. A test explains every claim and completion of a 3,000-occurrence backlog on a never-analyzed table and fails on the old plans.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:93",
    "page": "benchmarks",
    "type": "text",
    "content":
      "The SQL is not what separates the sides. A bare Hono handler running our exact statement (the update and its hook row in one CTE) through our adapter served 5,362–6,368 req/s, as fast as the reference in the same runs (6,008–6,371). Storing raw as text instead of jsonb is cheaper still (6,957–7,248).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:94",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Our HTTP stack is. With the worker not started, our module on the same Deno.serve served 3,529–4,746 req/s: 201–256 µs of server CPU per delivery against 112–133 µs for the bare handler with the same statement. With a database that answers at once, our stack costs 64–75 µs per request against Hono's 25–35 µs (it was 76–90: a body of declared length is now read in one piece instead of through a stream reader, and the webhook secret's digest is computed once instead of per request). The route itself (secret check, exact update_id digits, the statement's text) accounts for about 20 µs of the rest, the module layer (mount, validation, error shape) for about 20 µs; the difference left beyond that appears only with a real database and was not isolated.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:95",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Processing happens mostly after the load. At its end about 90 % of the occurrences are still pending (17,600 of 19,800). Processing costs about 400 µs of CPU per occurrence (server and PostgreSQL), most of it statements: at the default concurrency of 4 the handlers' raw-body reads went in batches of about 2, so 17,800 occurrences took 15,300 statements and 3,050 transactions. The reads that start in one turn of the event loop now share a statement (the batcher waits for the turn's microtasks with setImmediate instead of sending the first read alone), and so do the completions. Measured in session 5 on the backlog left after the load (about 17,000 occurrences): 15,063 → 8,741 statements, 3,004 → 2,275 transactions, drained in 5.3 → 4.0 s, CPU per occurrence 183 → 139 µs in the server and 203 → 167 µs in PostgreSQL. The ingest throughput did not move beyond the noise. Not done: reading the bodies for a whole claimed batch at once (an API for a hook to load its batch) or handing the body from the request to the local worker in memory.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:96",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Where each side's CPU goes (session 5, per delivery, worker not started, one-off servers on the same Deno.serve; figures vary by ±20 % between runs on this machine): the bare reference uses 123–132 µs in the server and 84–90 µs in PostgreSQL. The same handler through our adapter: 140 and 91 µs. The same handler running our statement (the update and its hook row): 145–177 and 145–183 µs, 4,107–5,016 req/s. Our whole module: 198–242 and 142–187 µs. So the hook row costs PostgreSQL about 60 µs per delivery, and our route and module layer cost the server about 40–70 µs more than the bare handler. A V8 profile of the module under load puts most ticks in the runtime's native code (HTTP serving, sockets) and postgres.js; no JavaScript function of ours reaches 2 %.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:97",
    "page": "benchmarks",
    "type": "text",
    "content":
      "--only 1 after these changes: 3,313 against 6,110 req/s, 0.54 × (p99 1.65 ×, pass). What bounds the rest: the server's CPU per delivery (the HTTP stack above), then PostgreSQL writing two rows with five index entries where the reference writes one row with one, then the processing that runs during the load.",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:98",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 6: deliveries that arrive together share one statement (UpdateStore, src/messenger/update_store.ts). Each delivery used to run its own statement, so 64 connections meant 64 statements and 64 commits (each a WAL flush) in flight. Now the deliveries that arrive while one statement is in flight are stored by the next, as one INSERT … SELECT * FROM unnest($1::int8[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING with their hook rows in the same CTE (enqueueSql()'s new keySql gives each row's occurrence its own key), through the batchWhileBusy helper the worker already used. Every request is still answered only after the commit that stored it; a repeated id inside one group is sent once and its other deliveries answer duplicate; when a group's statement fails on something one delivery could have caused (not a lost connection or a missing table), each delivery is stored alone so that only the one at fault fails (a test uses a trigger refusing one id among five concurrent deliveries). Scenario 1's load on the same machine, old and new code alternated twice (.bench/exp, one-off):",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:99",
    "page": "benchmarks",
    "type": "text",
    "content": "throughput | 2,318–2,392 | 3,904–4,390",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:100",
    "page": "benchmarks",
    "type": "text",
    "content": "p99 | 55–60 ms | 37–39 ms",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:101",
    "page": "benchmarks",
    "type": "text",
    "content": "statements (the worker's included) | 1.10 | 0.18–0.19",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:102",
    "page": "benchmarks",
    "type": "text",
    "content": "server CPU | 311–313 µs | 196–206 µs",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:103",
    "page": "benchmarks",
    "type": "text",
    "content": "PostgreSQL CPU | 285–288 µs | 105–112 µs",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id": "benchmarks:104",
    "page": "benchmarks",
    "type": "text",
    "content":
      "--only 1 twice with each code: 0.56 and 0.49 × before, 0.94 and 1.05 × after; the full run above: 0.90 ×, p99 1.08 ×. The reference keeps one statement and one commit per delivery, so ours now writes fewer commits than it does under this load; what is left of our cost is the HTTP and module layer (above) and the processing, which still happens mostly after the load (about 14,300 of 22,000 occurrences pending at its end, drained in 5.5–5.9 s; 16,300 and 6.2–8.1 s before).",
    "url":
      "/docs/benchmarks#1-webhook-ingest-090--p99-108--in-the-latest-run-050--and-176--then-054--and-189--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 1. Webhook ingest (0.90 ×, p99 1.08 × in the latest run; 0.50 × and 1.76 ×, then 0.54 × and 1.89 ×, in the two before)",
  },
  {
    "id":
      "benchmarks#2-add-member-383--better-auth-in-the-latest-run-458--and-462--in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "2. Add member (3.83 × better-auth in the latest run; 4.58 × and 4.62 × in the two before)",
    "url":
      "/docs/benchmarks#2-add-member-383--better-auth-in-the-latest-run-458--and-462--in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:105",
    "page": "benchmarks",
    "type": "text",
    "content":
      'POST /organizations/:id/members (src/auth/organizations/member_routes.ts) makes 7 statements and a transaction per request (counted: 6.95 statements, 1 transaction): the credential lookup, requireEntry(…, "update") (the organization row FOR UPDATE), the user, the member INSERT, then notifications.emit("memberAdded"), which enqueues a durable hook and pg_notifys inside the transaction, as above. better-auth\'s addMember makes 6 plain statements with no transaction and no notification. The notifying commit is what holds ours back (the same serialization as in scenario 1); FOR UPDATE also serializes concurrent additions to one organization where FOR SHARE would keep out a concurrent deletion just as well. The other three operations pass (create 6.5 ×, list 4.9 ×, get 2.9 × in this run).',
    "url":
      "/docs/benchmarks#2-add-member-383--better-auth-in-the-latest-run-458--and-462--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 2. Add member (3.83 × better-auth in the latest run; 4.58 × and 4.62 × in the two before)",
  },
  {
    "id": "benchmarks:106",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Since then: adding a member is one statement (src/auth/organizations/add_member.ts): a CTE reads the caller's roles in the live organization, looks the user up, inserts the member when the roles allow it and, when the application handles memberAdded, enqueues the event with its payload built in SQL from the inserted row (enqueueSql()'s payloadSql). No transaction, no lock, no NOTIFY: 2 round trips with the credential lookup, against better-auth's 6. Adding a member removes no owner, so the last-owner rule does not need the lock; a role change committed before the statement is seen, one committed while it runs is ordered after it. --only 2 right after: 6.1 ×; the latest full run: 4.34 ×.",
    "url":
      "/docs/benchmarks#2-add-member-383--better-auth-in-the-latest-run-458--and-462--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 2. Add member (3.83 × better-auth in the latest run; 4.58 × and 4.62 × in the two before)",
  },
  {
    "id": "benchmarks:107",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Since then (security finding 5): direct adds need the canAddMember policy and count the members against membershipLimit. The bench app opts in (canAddMember: () => true) and sets membershipLimit: 1_000_000, as the better-auth side does, so the same statement now also counts the members and runs in a transaction right after locking the organization row (the policy's reads of the caller's entry and of the user come before it). Not measured in a full run yet; a smoke run (--quick --only 2, 12 requests on a loaded machine) gave 1.60 ×.",
    "url":
      "/docs/benchmarks#2-add-member-383--better-auth-in-the-latest-run-458--and-462--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 2. Add member (3.83 × better-auth in the latest run; 4.58 × and 4.62 × in the two before)",
  },
  {
    "id":
      "benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:108",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Both sides got faster: 774 → 1,627 req/s at 50 organizations and 5 invitations, 1,071 → 4,230 req/s at 1 organization, still 3 SQL round trips each. Prepared statements removed the second round trip of each of the three queries, a fixed cost both sides paid; what remains of the difference is the volume of the answer: 50 organization entries (each the organization with its metadata and the caller's membership) and 5 invitations, against one. A V8 profile of the server under the 50-org load (DENO_V8_FLAGS=--prof, 3,979 ticks) put 495 ticks in postgres.js parsing data rows (DataRow), about 300 in mapping them (Array.map of the entries: dates to ISO strings), 190 in the route serializing the answer, and 802 in send system calls.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:109",
    "page": "benchmarks",
    "type": "text",
    "content":
      "After the full run, the organizations of /me are read as one json value built by PostgreSQL (json_agg of the same objects toOrganization/toMember make; a test compares them with GET /organizations), instead of 50 rows of 15 columns parsed and mapped one by one: --only 3 then gave 1,783 against 4,105 req/s, 0.43 × (0.29 × in the --only 3 run just before). The rest is the size of the answer (about 50 times the 1-organization one) to serialize and send; the target is still not met.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:110",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 3: that json value moved the cost into PostgreSQL rather than removing it. Sequential timings in one process (.bench/exp, PostgreSQL on the same machine, 50 organizations): the json_agg query 915–949 µs a call (EXPLAIN: 0.65 ms of its 0.74 ms is the aggregate, with or without to_char), the same 50 rows as typed columns mapped in JavaScript 579–688 µs, as text columns written straight into JSON text 441 µs. /me now reads text columns (timestamps formatted by PostgreSQL, jsonb as its JSON text) and writes the answer as text (src/auth/organizations/ entry_json.ts); the test comparing it with GET /organizations compares the JSON text (key order included) of entries with quotes, backslashes, U+2028, emoji, integer-like keys and a 20-digit number in their metadata. --only 3: 2,125 against 4,190 req/s (0.51 ×), then 0.53 ×, 0.57 × and 0.58 × (1,331 against 2,792, 0.48 ×, just before). A V8 profile of the server under this load: 35 % of its ticks in send to PostgreSQL (postgres.js's writes, the same for both users), 28 % inside Deno (HTTP serving), under 5 % in row parsing and the entry text. top during the load: the server at 70–80 % of one core, PostgreSQL's backends 40–60 % together, autocannon 12–37 %, on 2 cores. What still differs between the sides is the answer, 27 kB against about 1 kB: PostgreSQL reading and formatting 50 joined rows, and the kernel and the load generator moving and parsing 27 times the bytes on the same two cores.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:111",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 4: no change to /me; 0.31 × in the full run on the slower machine (1,204 against 3,933 req/s). One more cost found on the way: each entry formats five timestamps with to_char (0.43 µs each on this server, 250 a request, about 0.1 ms of PostgreSQL's time); the default text output of timestamptz is 2.5 times cheaper but depends on the session's DateStyle and TimeZone, so it was left alone.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:112",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 6: no change to /me; 0.42 × in the full run (965 against 2,307 req/s, p99 59 against 27 ms). The bound is the one above: the answer at 50 organizations is about 27 times the bytes of the one at 1, for PostgreSQL to format, the server to send and the load generator to read on the same two cores, and the specification asks for every entry in it. Closing the gap would take an answer that is not rebuilt per request (a cache of the text per user, invalidated by every write to the user's memberships and organizations, from every process), which was not attempted.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:113",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 7: the answer is no longer rebuilt per request. Each module instance keeps, per user, the organization entries (as JSON text) and the invitations it last answered (src/auth/organizations/me_entries.ts, me_invitations.ts, validated_reads.ts), bounded by size. Each request still runs the same two statements (3 round trips with the credential), but each now computes a validator first, the xmin of every row the part is built from (membership and organization, invitation and organization), and returns the rows only when it differs from the one the instance holds. Otherwise PostgreSQL neither reads nor formats an entry (OFFSET 0 / LIMIT keep the row subquery from being flattened, so the condition is a one-time filter) and the server splices the kept text. xmin changes with every committed insert, update or delete, from any process or plain SQL, and an expired invitation drops out of both subqueries with the same now(): tests/auth/me_kept.test.ts checks the kept answer against a fresh instance's after each kind of change, on PGlite and PostgreSQL, and fails when the validator is ignored. A validation by updated_at would not be safe (now() is a transaction's start, so commits can land out of order).",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:114",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Measured, CPU per request under the scenario's load (.bench/exp, server process, PostgreSQL's processes; 2 rounds each, session 6's code against this one, alternated):",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:115",
    "page": "benchmarks",
    "type": "text",
    "content":
      "50 orgs | 880 – 983 µs / 826 – 923 µs / 769 – 850 | 411 – 462 µs / 548 – 605 µs / 1,437 – 1,567 req/s",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:116",
    "page": "benchmarks",
    "type": "text",
    "content":
      "1 org | 371 – 473 µs / 265 – 329 µs / 1,798 – 2,306 | 341 – 453 µs / 308 – 430 µs / 1,715 – 2,305 req/s",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id": "benchmarks:117",
    "page": "benchmarks",
    "type": "text",
    "content":
      "--only 3: 0.44 and 0.40 × before; 0.72, 1.01, 0.98 and 0.85 × after (the first with entries only). What is left at 50 organizations: the validator (the 50-row join and its aggregate, about 0.2 ms of PostgreSQL's time by EXPLAIN ANALYZE; the join alone 0.18 ms) and the 27 kB answer. The 1-organization user pays a little more in PostgreSQL than before (the statements are larger), about 50 µs a request.",
    "url":
      "/docs/benchmarks#3-get-me-at-50-organizations-076--in-the-latest-run-042--and-031--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 3. GET /me at 50 organizations (0.76 × in the latest run; 0.42 × and 0.31 × in the two before)",
  },
  {
    "id":
      "benchmarks#4-members-page-at-depth-1m--1k-110--127--107--in-the-latest-run-097--115--099--and-063--095--105--in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "4. Members page at depth (1M / 1k: 1.10 ×, 1.27 ×, 1.07 × in the latest run; 0.97 ×, 1.15 ×, 0.99 × and 0.63 ×, 0.95 ×, 1.05 × in the two before)",
    "url":
      "/docs/benchmarks#4-members-page-at-depth-1m--1k-110--127--107--in-the-latest-run-097--115--099--and-063--095--105--in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:118",
    "page": "benchmarks",
    "type": "text",
    "content":
      'pageMembers() (src/auth/organizations/member_store.ts) orders by (created_at, id) within an organization, but the only index on auth.members that starts with organization_id is (organization_id, user_id): every page reads and sorts all of the organization\'s members (335 ms for the first page at 1M). Experiment: with CREATE INDEX ON auth.members (organization_id, created_at, id) added after seeding, the same run gave 5.5 / 9.9 / 4.7 ms at 1M against 13.3 / 8.1 / 3.9 ms at 1k (ratios 0.41, 1.22, 1.19: pass). The fix is one addIndex("members", …, ["organization_id", "created_at", "id"]) step at the end of authSchema (src/auth/schema.ts).',
    "url":
      "/docs/benchmarks#4-members-page-at-depth-1m--1k-110--127--107--in-the-latest-run-097--115--099--and-063--095--105--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 4. Members page at depth (1M / 1k: 1.10 ×, 1.27 ×, 1.07 × in the latest run; 0.97 ×, 1.15 ×, 0.99 × and 0.63 ×, 0.95 ×, 1.05 × in the two before)",
  },
  {
    "id": "benchmarks:119",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Since then: that step is authSchema version 17 (members_organization_page_idx); the latest full run measured 0.81 / 1.11 / 1.06 × (pass).",
    "url":
      "/docs/benchmarks#4-members-page-at-depth-1m--1k-110--127--107--in-the-latest-run-097--115--099--and-063--095--105--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 4. Members page at depth (1M / 1k: 1.10 ×, 1.27 ×, 1.07 × in the latest run; 0.97 ×, 1.15 ×, 0.99 × and 0.63 ×, 0.95 ×, 1.05 × in the two before)",
  },
  {
    "id":
      "benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:120",
    "page": "benchmarks",
    "type": "text",
    "content":
      "In the full run src/cli/commands.ts imported every command module statically, and they import hono, zod, postgres.js, PGlite, jiti and minisearch, so printing the help loaded 90 modules and those seven packages. Commands now keep their metadata (name, summary, usage, options: all --help needs) static and load their implementation when they run; deno task bench --only 5 then gave 3.07 × on Deno, 1.93 × on Node and 2.76 × on Bun. Profiling that state on each runtime (medians of 21 runs, wall clock, load average 4 – 6 from other work; ranges are separate rounds) found the rest:",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:121",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Deno (3.07 ×): the lazy imports were not lazy for Deno, and node:process. Deno builds the module graph before running and follows dynamic imports written as string literals: --help read and parsed 77 source files and resolved the npm packages of deno.json's import map for them (deno run --log-level=debug). With --no-config (nothing resolves to npm) the same --help took 53 – 60 ms instead of 78 – 88 ms. Importing node:process and node:util loads about a hundred Node-compatibility modules (ext:deno_node/…): a file that imports node:process and writes a line takes 47 – 60 ms (42 – 47 ms of CPU), one that uses console.log 28 – 34 ms (24 – 25 ms of CPU). Fixes: commands import their implementation through importRun (src/cli/import_run.ts), whose specifier is a parameter Deno does not follow; cli.ts reads arguments and writes through src/core/adapter/cli_process.ts (Deno.stdout.writeSync, Deno.exit on Deno); node:util (parseArgs) is imported only when a command's options are parsed. --help now reads 15 files and no compatibility module: 28 – 29 ms against 23 – 35 ms for deno eval 0.",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:122",
    "page": "benchmarks",
    "type": "text",
    "content":
      "What is left on Deno is Deno's. Without the config (--no-config) --help takes 25 – 27 ms, so discovering deno.json and its import map costs about 2 ms. Without the lockfile (--no-lock) it takes about 90 ms: with nodeModulesDir: \"auto\" Deno resolves the versions of the 16 npm imports of deno.json at every start, from deno.lock when there is one and from the cached registry metadata otherwise. That only concerns runs inside this repository, which has a lockfile; a user running the JSR package has none of our config. deno publish --dry-run warns that importRun's import cannot be analyzed, as it already did for import_user_file.ts: the specifier is relative, so it resolves at run time from the published files.",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:123",
    "page": "benchmarks",
    "type": "text",
    "content":
      'Node (1.93 ×): import … from "node:process" and a dozen module files. Node builds the ES module namespace of a built-in by reading each property, and the getters of process (stdin, report…) load about fifteen more internal modules (readline, fs/promises, watchers, report), about 5 ms; --help loaded 121 internal modules against 70 for node -e 0, plus 14 module files of ours. Fixes: the adapter uses the global process on Node and Bun; deno task build:npm bundles what every invocation loads (cli.js, the adapter, the command list and help) with esbuild into esm/src/cli/bin_entry.js, next to the command modules it imports lazily, with command.js left external so UsageError stays one class for the commands and main.js. The bin now loads 3 files and 100 internal modules: 37 – 44 ms against 35 – 40 ms for the bare start (52 – 61 ms before). A CPU profile gives our code 0.6 ms; the rest is Node\'s ES module loader, which node -e 0 does not start, and the stream of a piped stdout, which it never writes to.',
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:124",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Node's compile cache. The bin calls module.enableCompileCache() when Node has it (≥ 22.3 through process.getBuiltinModule; nothing happens on Node 20). It is a cache in os.tmpdir()/node-compile-cache: the first start fills it, only later starts gain. It makes no measurable difference to --help (a 12 KB bundle); db info examples/app.ts on a warm cache took 1.0 – 1.6 s against 1.2 – 1.8 s with NODE_DISABLE_COMPILE_CACHE=1.",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:125",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Bun (2.76 ×): process.stdout. The first use of process.stdout builds its stream, about 15 ms against a bare start of 7 – 9 ms (node:util adds 5 ms, node:tty 10). Fix: the adapter writes with Bun.write(Bun.stdout, …), chained so writes keep their order and awaited before exiting; standard error keeps process.stderr, ordered with console.error. With the bundle: 8 – 11 ms. The remaining 2 – 3 ms are Bun loading and running the bundle (a single file with command.js inlined, or minified, was not faster). With a reference this small, 1 ms is 0.12 ×: Bun's ratio moves most from run to run.",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id": "benchmarks:126",
    "page": "benchmarks",
    "type": "text",
    "content":
      "deno task bench --only 5 after these changes gave 0.92 × (Deno), 1.28 × (Node), 1.11 × (Bun), then a minute later 0.58 ×, 1.67 ×, 1.37 × for the same build: each side ran its ten runs in one block, and the load of the shared machine changed between blocks. The scenario now alternates the bare start and --help run by run (20 each, after a warm run of each), so a change of load falls on both sides; it does not change what is measured. Two runs that way: 0.86 ×, 1.35 ×, 1.45 × and 0.90 ×, 1.26 ×, 1.30 × (load average 4.6 and 5.5). db info stays reported only, dominated by opening PGlite.",
    "url":
      "/docs/benchmarks#5-fragment-cli---help-081--123--133--in-the-latest-run-088--132--136--and-083--128--129--in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 5. fragment-cli --help (0.81 ×, 1.23 ×, 1.33 × in the latest run; 0.88 ×, 1.32 ×, 1.36 × and 0.83 ×, 1.28 ×, 1.29 × in the two before)",
  },
  {
    "id":
      "benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "page": "benchmarks",
    "type": "heading",
    "content":
      "6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:127",
    "page": "benchmarks",
    "type": "text",
    "content":
      "PGlite's first open of an empty data directory runs initdb in WebAssembly. Experiment, PGlite alone (no project code), deno run: 2.6 – 3.5 s on a fresh directory, 0.3 – 0.4 s on an existing one, 2.9 s for memory://. That alone nearly exhausts the 3 s budget; applying the 21 schema steps of examples/app.ts and starting the server take the rest. Reaching 3 s needs the database layer (src/db/pglite_adapter.ts) to start from a prebuilt empty data directory instead of running initdb.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:128",
    "page": "benchmarks",
    "type": "text",
    "content":
      "On an existing directory the same start is PGlite's 0.3 – 0.4 s open, Deno loading the CLI with every dependency (see 5), the migration status check and the first request: 0.71 s in a smoke run on a quieter machine, 0.87 s in the earlier full run, 1.6 s in this one. It passes when the machine is not saturated.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:129",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Since this run: a fresh PGlite database starts from a cached template of the empty cluster instead of running initdb (src/db/_pglite_template.ts, \"Fresh databases start from a cached template\" in adapters.md): the first fresh database of a PGlite version on a machine runs initdb and keeps its checkpointed dump in ~/.cache/fragment-cli/ ($FRAGMENT_CLI_CACHE_DIR, $XDG_CACHE_HOME); later fresh directories get its files written directly. Loading the tarball with PGlite's own loadDataDir was measured first (0.8 – 1.9 s against 5 – 8 s for initdb at load 5 – 7); writing the files with node:fs, then opening as an existing directory, took 0.5 – 1.5 s in the same conditions. --only 6 after the change (2026-11-21, the template already cached): fresh 2,411 and 2,524 ms, existing 647 and 719 ms at 18:31 UTC (load 3 to 4 from other suites); fresh 1,167 and 1,785 ms, existing 662 and 711 ms at 18:37 UTC (load 1), all pass. With the template disabled (FRAGMENT_CLI_CACHE_DIR=off) right after, at load 1.3: fresh 4,274 ms (FAIL), existing 675 ms. Before the change, in the same session at load 7.6: 11,657 and 1,738 ms. The very first fresh start on a machine (no template yet) still runs initdb, plus about 0.2 s for the dump; a full run's median of five is not affected.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:130",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Breakdown, measured in-process with the CLI's own functions (findModules, migrationStatus, migrate, serve, one webhook delivery), ms:",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:131",
    "page": "benchmarks",
    "type": "text",
    "content": "loading the CLI modules and examples/app.ts | 150 – 230 | 130 | 90 – 130",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:132",
    "page": "benchmarks",
    "type": "text",
    "content": "opening PGlite | 5,200 – 10,500 (initdb) | 680 – 1,420 | 420 – 510",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:133",
    "page": "benchmarks",
    "type": "text",
    "content": "migration status | 3 – 30 | 4 – 5 | 11 – 28",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:134",
    "page": "benchmarks",
    "type": "text",
    "content":
      "applying the 22 steps (64 statements, 3 transactions; 44 now) | 160 – 450 | 380 – 540 | —",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:135",
    "page": "benchmarks",
    "type": "text",
    "content": "serve() listening, first 200 | 70 – 290 | 60 – 160 | 45 – 65",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:136",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Opening from the template is reading and gunzipping it (0.1 – 0.2 s), writing its 972 files, 40 MB (0.15 – 0.8 s, what varies most with the load) and PGlite's open of an existing directory. The steps apply more slowly after the template than right after initdb (the same 17 auth steps: 0.07 – 0.13 s right after an in-process initdb, 0.35 – 1.3 s after opening an existing cluster or one made from the template; 0.26 – 0.48 s against 0.66 – 1.08 s cold when a throwaway in-memory PGlite ran a few DDL statements first): initdb had already run PostgreSQL's DDL code in the same WebAssembly module, and V8 compiles that code on first call. Per statement: the first CREATE TABLE 170 ms, the later ones 27 – 172 ms (foreign keys, checks, defaults: each new kind of clause is new code), CREATE INDEX 3 – 24 ms; the first bookkeeping INSERT 37 ms, then mostly under 1 ms. Round trips are a small part: the runner now records a run's applied steps in one statement instead of one per step (recordSteps(), src/db/_migration_store.ts; 64 → 44 statements for examples/app.ts), which took the two migrations from 365 – 436 ms to 253 – 390 ms in alternating runs at load 0.7.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:137",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 4: 1,673 ms fresh and 1,011 ms existing in the full run (FAIL by 11 ms), right after scenario 5 built the npm package; --only 6 twice right after: 1,832 / 738 ms and 2,042 / 847 ms (pass). The bare deno eval 0 start is 1.34 times slower on this machine than on session 3's, which alone takes 676 ms to about 900. Not investigated further this session.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:138",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 6: 909 ms in the full run (pass). Where the time of a start on an existing directory goes, from spawn, read off serve's own output lines (.bench/exp, 3–4 starts): the runtime and module loading until Found 2 modules 250–290 ms; opening PGlite and the migration status until Database … is up to date 650–740 ms later; listening 15–20 ms; the first 200 another 100–160 ms. Measured in-process: PGlite.create() of the directory alone takes 490–550 ms whether its WebAssembly module is compiled beforehand or not (compiling it takes 40–56 ms), the status queries 40–50 ms. The first statements are slow because PGlite compiles its code on first call: the first webhook INSERT takes 79 ms when it is the first statement, 28 ms after the hook workers' first look (LISTEN, claim and next-due queries, about 100 ms before it on PGlite's one connection).",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:139",
    "page": "benchmarks",
    "type": "text",
    "content":
      "One cost was ours: every process imported postgres.js, 36–46 ms of a Deno start with the Node-compatibility modules it pulls in, even on PGlite. Both drivers are now imported on first use (src/db/postgres_adapter.ts, src/db/pglite_adapter.ts); an unparsable URL is still refused when the adapter is created, and build:npm now counts such imports as dependencies (the npm package test runs db info on PostgreSQL to prove it). Six starts of each, alternated: median 880 ms against 940 ms before, with a spread of 690–1,080 ms on each side. Not changed: PGlite's own open (with its noInitDb option, PGlite.create() of an existing directory was still spinning at full CPU after 10 minutes when it was stopped) and the workers' first look.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks:140",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Session 7: 1,120 ms in the full run on the Intel Xeon machine (FAIL), with no change to this path since session 6's 909 ms on the AMD EPYC one. The same timeline on this machine (5 starts): Found 2 modules at 240 – 265 ms, Database … is up to date 660 – 745 ms later, listening, then the first 200 91 – 224 ms after (median 193). PGlite.create() of the directory alone, in a throwaway script: 640 – 760 ms (V8's lazy WebAssembly compilation is already the default; forcing eager compilation made it 900 – 1,170 ms). A Node CPU profile of that call: 282 ms of its 625 ms idle (waiting on PGlite's file reads and compilation), 118 ms in one WebAssembly function. So PGlite's open is 60 – 70 % of the start and out of our hands; ours is about 250 ms of loading and the first request. Experiment: starting the hook workers 1 s after listening instead of at once took the first 200 from 91 – 224 ms (median 193) to 43 – 124 ms (median 99) after listening, 5 starts each: their first look (LISTEN, claim and next-due queries of two workers on PGlite's one connection, on code compiled at first call) is what the first request waits behind. Not changed: a delayed first look postpones the hooks left from a previous run, and would want its own option and tests.",
    "url":
      "/docs/benchmarks#6-serve-on-pglite-2208-ms-fresh-1120-ms-existing-in-the-latest-run-on-a-slower-machine-2316-and-909-ms-then-1673-and-1011-ms-in-the-two-before",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 6. serve on PGlite (2,208 ms fresh, 1,120 ms existing in the latest run, on a slower machine; 2,316 and 909 ms, then 1,673 and 1,011 ms, in the two before)",
  },
  {
    "id": "benchmarks#7-memory",
    "page": "benchmarks",
    "type": "heading",
    "content": "7. Memory",
    "url": "/docs/benchmarks#7-memory",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:141",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Idle serve on PostgreSQL stays under the 80 MiB target (70.1 MiB in the latest run, 72.0 and 71.2 MiB in the two before; 181 MiB at the peak of the load, served at 3,841 req/s). On PGlite, the WebAssembly Postgres makes the process 352 MiB idle and 449 MiB at the peak (347 and 484 MiB in the run before; 932 and 967 MiB in session 1's, when the cluster was made by initdb in the same process rather than opened from the template), and it served the scenario-1 load at 820 req/s (125 and 126 in the two runs before, when each delivery took its own statement on the one in-process connection; see 1): reported, no target.",
    "url": "/docs/benchmarks#7-memory",
    "context": "Benchmarks › What bounds the targets, and what changed › 7. Memory",
  },
  {
    "id": "benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "page": "benchmarks",
    "type": "heading",
    "content": "8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:142",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Issue 20's finding 3: junk sign-ins filled the password-hashing queue, which had no bound, and a legitimate sign-in waited behind all of them (3.4 s behind 16 in the report). The scenario (scripts/bench/scenario_hashing_flood.ts, also runnable alone with deno run -A scripts/bench/scenario_hashing_flood.ts) serves the auth module at the default scrypt cost (N = 2^17) on PGlite, with trustProxy: \"x-forwarded-for\" so that each junk client speaks from its own address, and rate limits off, so the flood is one they would not stop (as many addresses as clients) and only the hashing queue is measured. Each junk client signs in with unknown emails in a loop and pauses 100 ms after a refusal (the load generator shares the machine's two cores with the server). After 6 s of flood, 8 legitimate sign-ins follow one at a time, each from a fresh address, each tried once; the reference is the same sign-in with no flood.",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:143",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Measured on 2026-11-25 on the 2-core development machine (shared with other work, so figures move by tens of percent), same script on both sides:",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:144",
    "page": "benchmarks",
    "type": "text",
    "content": "none (reference) | 511 ms | 480 ms",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:145",
    "page": "benchmarks",
    "type": "text",
    "content":
      "16 junk clients | 3,970 ms median (7.8 ×), 4,324 slowest | 729 ms median (1.52 ×), 757 slowest; 8/8 answered 200",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:146",
    "page": "benchmarks",
    "type": "text",
    "content":
      "64 junk clients | 23,500 ms median (46 ×), 26,640 slowest | 701 ms median (1.46 ×), 783 slowest; 8/8 answered 200",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:147",
    "page": "benchmarks",
    "type": "text",
    "content":
      "junk answers, after | all 401, after queueing | 16: 29 hashed (401), 969 refused at once (503)",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:148",
    "page": "benchmarks",
    "type": "text",
    "content": " |  | 64: 29 hashed (401), 7,146 refused at once (503)",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks:149",
    "page": "benchmarks",
    "type": "text",
    "content":
      "What makes the difference: a full queue answers 503 SERVICE_BUSY at once, before the user lookup; waiting hashes are served fewest-recent-asks first, so the addresses that keep asking rank behind a user who asks once, and a newcomer takes the place of the heaviest asker's latest waiter. The legitimate sign-in then waits for at most the hash that is running, then runs its own: under 2 ×. Hashing runs on half the cores by default (one here): with every core hashing, each hash ran about twice as slowly on this shared machine and the same flood gave 2.5 × (an earlier run, two at once). Limits of the measure: the flood's first arrivals have asked once, like a user, and are served in their order, so a sign-in in the first seconds of a flood from fresh addresses waits behind up to maxQueued (8) hashes; a flood from as many fresh addresses as requests cannot be told from users (see security.md).",
    "url": "/docs/benchmarks#8-sign-in-during-a-hashing-flood-152--at-16-junk-clients-146--at-64",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 8. Sign-in during a hashing flood (1.52 × at 16 junk clients, 1.46 × at 64)",
  },
  {
    "id": "benchmarks#9-durable-hook-wake-up-across-processes",
    "page": "benchmarks",
    "type": "heading",
    "content": "9. Durable hook wake-up across processes",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:150",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Issue 23 asks that a hook enqueued by one process on an idle system start in another process within a few milliseconds on PostgreSQL, not at the next poll. It already did: enqueue() sends pg_notify inside its transaction, PostgreSQL delivers it at the commit to every session that listens, and each worker listens on its own postgres.js connection; the 20 ms coalescing of wake() does not apply to enqueue(), whose notification belongs to its transaction. Scenario 9 (scripts/bench/scenario_hook_wake.ts) measures it: the bench process enqueues (one statement, so one commit), a Deno worker in another process, polling only every 30 s so that a poll cannot explain a quick start, prints when the handler starts (performance.timeOrigin + performance.now() on both sides, one machine), the next enqueue follows once that handler started and 20 ms passed, so each finds the worker asleep. The reference is the same with the worker in the bench process.",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 9. Durable hook wake-up across processes",
  },
  {
    "id": "benchmarks:151",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Measured on 2026-11-25 on the 2-core development machine (shared with other work; load 3.2), 200 enqueues per side with deno task bench --only 9:",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 9. Durable hook wake-up across processes",
  },
  {
    "id": "benchmarks:152",
    "page": "benchmarks",
    "type": "text",
    "content": "worker in another process | 3.59 ms | 13.4 ms",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 9. Durable hook wake-up across processes",
  },
  {
    "id": "benchmarks:153",
    "page": "benchmarks",
    "type": "text",
    "content": "worker in the same process | 3.32 ms | 23.8 ms",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 9. Durable hook wake-up across processes",
  },
  {
    "id": "benchmarks:154",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Both are one notification's trip (commit, delivery to the listening connection, the worker's claim statement): the second process costs nothing measurable. The p99 tails are the shared machine's. tests/db/durable_hooks_processes.test.ts checks the behavior on every runtime (a worker process polling every 30 s starts two occurrences committed by the test's process, each within 10 s). PGlite runs in one process (a data directory is open in one process at a time), so the question does not arise there.",
    "url": "/docs/benchmarks#9-durable-hook-wake-up-across-processes",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 9. Durable hook wake-up across processes",
  },
  {
    "id": "benchmarks#10-durable-hook-drain-with-ordering-keys",
    "page": "benchmarks",
    "type": "heading",
    "content": "10. Durable hook drain with ordering keys",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context": "Benchmarks › What bounds the targets, and what changed",
  },
  {
    "id": "benchmarks:155",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Issue 23 asks for ordering keys (hooks) without slowing unordered hooks: the unordered drain must stay within 10 % of the code before them. Scenario 10 (scripts/bench/scenario_hook_order.ts) runs scripts/bench/hook_drain.ts in a Deno process of its own: 10,000 no-op occurrences enqueued in one statement, then drain() at concurrency 16 until none is left, timed. It drains them unordered, then spread over 2,000 ordering keys (5 per key), then over 20 keys (500 per key: deep chains, each key's occurrences one after the other), three times each, and reports the medians. With BENCH_BASELINE_SRC=<another checkout>/src it also drains the unordered case on that checkout's code, with the same script and database, alternating with ours, as the reference of the unordered row.",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:156",
    "page": "benchmarks",
    "type": "text",
    "content":
      "Measured on 2026-11-25 with BENCH_BASELINE_SRC=/work/main/src deno task bench --only 10 (main at 7762117, the commit this branch started from), on the 2-core development machine while other work ran on it (load 16.7 at the end): absolute figures are far below the machine's quiet ones (issue 23's side measurement drained 13.5k/s), only the ratios of interleaved runs are meaningful.",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:157",
    "page": "benchmarks",
    "type": "text",
    "content": "unordered, main's code | 294 | reference",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:158",
    "page": "benchmarks",
    "type": "text",
    "content": "unordered, this code | 339 | 1.15 × main (target ≥ 0.90)",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:159",
    "page": "benchmarks",
    "type": "text",
    "content": "2,000 ordering keys (5 per key) | 421 | 1.24 × unordered",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:160",
    "page": "benchmarks",
    "type": "text",
    "content": "20 ordering keys (500 per key) | 103 | 0.30 × unordered",
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "benchmarks:161",
    "page": "benchmarks",
    "type": "text",
    "content":
      'Unordered occurrences pay nothing measurable: their SQL is the same statements as before (the ordering triggers\' WHEN clauses skip rows without a key without calling a function), and the only addition to a claim is a cached "does the table have order_key" answer. With many keys the drain keeps its pace: blocked occurrences are never read by a claim (the previous, discarded attempt, which skipped them inside the claim, fell to 92 hooks/s on 20 keys × 100 while 2,000 keys drained at 1,350/s). With 20 deep chains at most 20 occurrences are runnable at any moment, and each step of a chain is a claim, a run and a completion commit (whose trigger releases the next), so the drain is bound by statement latency, not by the backlog: on this loaded machine about five steps per key per second.',
    "url": "/docs/benchmarks#10-durable-hook-drain-with-ordering-keys",
    "context":
      "Benchmarks › What bounds the targets, and what changed › 10. Durable hook drain with ordering keys",
  },
  {
    "id": "cli",
    "page": "cli",
    "type": "page",
    "content": "The fragment-cli command",
    "url": "/docs/cli",
    "context": "",
  },
  {
    "id": "cli:1",
    "page": "cli",
    "type": "text",
    "content":
      "fragment-cli serves modules over HTTP, generates and applies their database migrations, reports database state, writes their OpenAPI document and searches these docs.",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:2",
    "page": "cli",
    "type": "text",
    "content":
      "bunx fragment-cli runs on Bun: the bin's shebang names Node (for npx), and when bunx or bun run starts it under Node it runs itself again on that Bun (same arguments, exit code and signals).",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:3",
    "page": "cli",
    "type": "text",
    "content":
      "serve <file…> [options] | Serve the modules exported by one or more files over HTTP",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:4",
    "page": "cli",
    "type": "text",
    "content":
      "db generate <file> [options] | Generate SQL migrations, or a Drizzle or Prisma schema",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:5",
    "page": "cli",
    "type": "text",
    "content":
      "db migrate <file> [options] | Apply pending SQL migrations to the database of every module",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:6",
    "page": "cli",
    "type": "text",
    "content":
      "db info <file> [options] | Show code and database versions and pending migrations per namespace",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:7",
    "page": "cli",
    "type": "text",
    "content":
      "openapi <file> [-o path] | Write the OpenAPI 3.1 document of every module (openapi.md)",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:8",
    "page": "cli",
    "type": "text",
    "content":
      "hooks <file> <subcommand> | List, show, retry, cancel and purge durable hooks (hooks)",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:9",
    "page": "cli",
    "type": "text",
    "content": "search <query…> [options] | Search the reference docs (search.md)",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:10",
    "page": "cli",
    "type": "text",
    "content":
      "Every command takes -h/--help (usage, options with their defaults, examples) and --verbose (stack traces of failures; DEBUG=1 does the same). fragment-cli --version (-v) prints the version.",
    "url": "/docs/cli",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli#exit-codes-and-output",
    "page": "cli",
    "type": "heading",
    "content": "Exit codes and output",
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:11",
    "page": "cli",
    "type": "text",
    "content":
      '0 | Success, including "nothing to do" (no migrations needed, nothing to generate) and db info with pending migrations',
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command › Exit codes and output",
  },
  {
    "id": "cli:12",
    "page": "cli",
    "type": "text",
    "content":
      "1 | A runtime failure: a file that cannot be imported, no module found, a database that cannot be reached, a version mismatch, a port in use. One line error: <reason>",
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command › Exit codes and output",
  },
  {
    "id": "cli:13",
    "page": "cli",
    "type": "text",
    "content":
      "2 | A usage error: unknown command or option, a missing or extra argument, a bad option value. error: <reason>, the usage line, and where to get help",
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command › Exit codes and output",
  },
  {
    "id": "cli:14",
    "page": "cli",
    "type": "text",
    "content":
      "Results go to stdout; warnings and errors to stderr, so --json output is pure JSON. Colour is used only on a terminal and never when NO_COLOR is set. Arguments are checked before any user code is imported: a bad option never runs your file.",
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command › Exit codes and output",
  },
  {
    "id": "cli:15",
    "page": "cli",
    "type": "text",
    "content":
      'An option that takes a value takes the next argument whatever it starts with, so --prefix "-- squawk-ignore ban-drop-column" works as written (the = form, --prefix="-- …", too).',
    "url": "/docs/cli#exit-codes-and-output",
    "context": "The fragment-cli command › Exit codes and output",
  },
  {
    "id": "cli#the-files-you-pass",
    "page": "cli",
    "type": "heading",
    "content": "The files you pass",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:16",
    "page": "cli",
    "type": "text",
    "content":
      "Every <file> is a path (relative to the working directory) to a .ts, .mts, .cts, .js, .mjs or .cjs file. It is imported as is, natively on Deno, Bun and Node ≥ 22.18 (type stripping), and through jiti on older Node (the npm package supports Node 20). Nothing is merged or called: no config layers, no default-export preference.",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:17",
    "page": "cli",
    "type": "text",
    "content": "The CLI looks at all exports, whatever their names:",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:18",
    "page": "cli",
    "type": "text",
    "content":
      "Modules: every instantiated module (createModule(…), a defineModule factory's result, auth(…), …). The same instance exported twice (say export const auth and export default auth) counts once. Modules are listed in the order of their export names.",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:19",
    "page": "cli",
    "type": "text",
    "content":
      'Database bindings: every module that has a database (its database: { schema, namespace, adapter }), and every exported object of that shape on its own, e.g. export const audit = { schema, namespace: "audit_log", adapter: databaseFromEnv() }. Such a binding is reported under its schema\'s name. Each binding uses its own adapter; two bindings of one adapter in one namespace must have the same schema.',
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:20",
    "page": "cli",
    "type": "text",
    "content":
      "A file that fails to import exits 1 with error: <file>: <reason>. With several files, a file without modules gets a warning: and is skipped; when no file has any, the command exits 1 and says what to export, with an example.",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:21",
    "page": "cli",
    "type": "text",
    "content":
      'A .ts or .js file with import/export under a package.json that says "type": "commonjs" is loaded as CommonJS by Node (≥ 22.18 strips types but keeps the package\'s module type), and so is any .cts file: the CLI then says so and how to fix it (error: app.ts: this file is loaded as CommonJS ("type": "commonjs" in package.json), but it uses import/export: rename it to app.mts, or set "type": "module" in package.json, exit 1). Deno and Bun load such a .ts file as an ES module.',
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:22",
    "page": "cli",
    "type": "text",
    "content":
      "Under Deno the CLI runs with your project's deno.json and deno.lock: serve and db load no npm package that your own import \"@app/fragment-cli\" has not already locked (jiti, for Node 20 only, is never loaded there), so they leave deno.lock as it was (search adds its index's package, minisearch, the first time).",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli:23",
    "page": "cli",
    "type": "text",
    "content":
      "The database of a module comes from the module's own code, usually databaseFromEnv(): PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite database in ./.data/pglite (relative to the working directory). Connections are closed when the command ends, so the process exits promptly.",
    "url": "/docs/cli#the-files-you-pass",
    "context": "The fragment-cli command › The files you pass",
  },
  {
    "id": "cli#serve",
    "page": "cli",
    "type": "heading",
    "content": "serve",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:24",
    "page": "cli",
    "type": "text",
    "content":
      "-p, --port | 8080 | Port to listen on; 0 picks a free one (the address printed is the real one)",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:25",
    "page": "cli",
    "type": "text",
    "content":
      "-H, --host | localhost | Host to bind; printed as given (http://localhost:8080, http://[::1]:8080)",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:26",
    "page": "cli",
    "type": "text",
    "content":
      "--static <dir> | none | Also serve the files of <dir> at the paths no module is mounted at (see below)",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:27",
    "page": "cli",
    "type": "text",
    "content":
      "--migrate | off | On a PostgreSQL server, apply pending migrations before serving (the embedded PGlite database is always migrated)",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:28",
    "page": "cli",
    "type": "text",
    "content":
      "Each module answers under its mount route, /api/<module-name> unless the module says otherwise, on a path-segment boundary (/api/auth does not catch /api/authx). Any other path answers 404 with the mounts:",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:29",
    "page": "cli",
    "type": "text",
    "content":
      "Static files (--static <dir>, e.g. a single-page app): a request whose path is under a module's mount always goes to the module; any other GET or HEAD is answered from <dir> when the path names a file there (index.html for / and for a folder with one), with its content type (text/html, text/javascript, text/css, image/png, … by extension; others application/octet-stream), Content-Length, X-Content-Type-Options: nosniff and Cache-Control: no-cache; otherwise the 404 above. It is read-only and closed: other methods on a file are 405 with Allow: GET, HEAD; folders are never listed; dotfiles (.env) are never served; a path whose segments decode to .., contain /, \\, NUL or control characters (%2e%2e, ..%2f, %5c, %00) names nothing; and a symbolic link is followed only if its target lies inside <dir>. A missing <dir> is a usage error (exit 2). deno task start serves examples/spa this way at http://localhost:8080/. In code: serve(modules, { staticDir }).",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:30",
    "page": "cli",
    "type": "text",
    "content":
      "Before listening, serve brings the databases of the served modules to their latest versions:",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:31",
    "page": "cli",
    "type": "text",
    "content":
      "PGlite (no DATABASE_URL): pending migrations are applied, and the output lists each namespace with its versions and steps.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:32",
    "page": "cli",
    "type": "text",
    "content":
      "PostgreSQL (DATABASE_URL): pending migrations stop the start (exit 1) with the list of pending namespaces, unless --migrate is given. Apply them with db migrate as part of your deployment, or pass --migrate.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:33",
    "page": "cli",
    "type": "text",
    "content":
      "A database ahead of the code or with an edited applied step always stops the start.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:34",
    "page": "cli",
    "type": "text",
    "content":
      "The deployment secret (FRAGMENT_SECRET, the key modules sign list cursors with, see auth) is settled before the files are imported, since modules read it when they are instantiated:",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:35",
    "page": "cli",
    "type": "text",
    "content": "FRAGMENT_SECRET set: used as is.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:36",
    "page": "cli",
    "type": "text",
    "content":
      "Unset, on the embedded database (PGlite in a directory, no PostgreSQL): generated at the first start and kept in .data/fragment-secret (relative to the working directory, mode 0600), reused at the next starts; the first start prints Generated FRAGMENT_SECRET in .data/fragment-secret.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:37",
    "page": "cli",
    "type": "text",
    "content":
      "Unset, with a PostgreSQL database: serve starts with a loud WARNING: FRAGMENT_SECRET is not set on stderr, because cursors are then refused across processes and restarts. Set it in production.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:38",
    "page": "cli",
    "type": "text",
    "content":
      "Under each module, serve prints its routes and, for a module with a route another service must be given (the messenger's webhook), that route's full URL and what the caller must send besides: for the messenger, Webhook URL (for setWebhook): … and the name of its secret header (never the secret). The URL is on the module's publicOrigin when set (the origin the messenger reaches, e.g. https://bot.example.com; examples/app.ts takes PUBLIC_ORIGIN), else on the address served. See Telegram bots.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:39",
    "page": "cli",
    "type": "text",
    "content":
      "Durable hook workers of the modules run in the same process. Ctrl-C (SIGINT) or SIGTERM stops accepting requests, lets in-flight ones finish, stops the workers, closes the databases and exits 0.",
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli:40",
    "page": "cli",
    "type": "text",
    "content":
      'Failures (exit 1): two modules on one mount route (modules "hello" (a.ts) and "hello" (b.ts) are both mounted on /api/hello), Port 8080 on localhost is already in use; pick another one with --port, pending migrations on PostgreSQL without --migrate. Usage errors (exit 2): no file, a port outside 0–65535, an empty host, a --static folder that does not exist.',
    "url": "/docs/cli#serve",
    "context": "The fragment-cli command › serve",
  },
  {
    "id": "cli#db-generate",
    "page": "cli",
    "type": "heading",
    "content": "db generate",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:41",
    "page": "cli",
    "type": "text",
    "content": "--format | sql | sql (migration files), drizzle or prisma (schema files)",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:42",
    "page": "cli",
    "type": "text",
    "content":
      "-o, --output | the current directory | A directory (an existing one, or a path ending with /) or a file path",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:43",
    "page": "cli",
    "type": "text",
    "content":
      "-f, --from | the database's current version | Version to generate from (sql only), or namespace=version pairs",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:44",
    "page": "cli",
    "type": "text",
    "content":
      "-t, --to | the latest schema version | Version to generate to (sql only), or namespace=version pairs",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:45",
    "page": "cli",
    "type": "text",
    "content":
      "-p, --prefix | none | Text put on a line of its own at the top of each file (e.g. a lint comment)",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:46",
    "page": "cli",
    "type": "text",
    "content":
      "--output follows one rule whatever the number of files: an existing directory or a path ending with / is a directory (created if needed) where files get their default names; anything else is a file path (its folders are created). A file path when several files would be generated is a usage error (exit 2), never a silent switch to a directory.",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:47",
    "page": "cli",
    "type": "text",
    "content":
      "--format sql writes one file per namespace that has steps to apply, named <YYYYMMDD>_<seq>_f<from>_t<to>_<module-name>.sql: the UTC date, a 3-digit sequence that continues after the day's files already in the output directory, and 3-digit versions. The starting version is --from, or else the version recorded in the database (read with one connection: namespaces whose --from is given need none, so --from 0 works offline). The target is --to, or else the latest version. A namespace already at its target gets no file; when no namespace has anything to generate, the command says so, writes nothing and exits 0.",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:48",
    "page": "cli",
    "type": "text",
    "content":
      "--from/--to take one version for every namespace (--to 3) or versions per namespace (--to auth=3,messenger=2; namespaces not named keep their default). A version beyond the code's latest, a target below the start (there are no down migrations), a database ahead of the code or with an edited step: exit 1, nothing written.",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:49",
    "page": "cli",
    "type": "text",
    "content":
      "Each SQL file is one transaction that does exactly what db migrate does, so it can be reviewed and applied by hand:",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:50",
    "page": "cli",
    "type": "text",
    "content":
      "It creates the runner's tables if needed (fragment_internal schema), takes the runner's advisory lock for the namespace, refuses (changing nothing) unless the database is at the file's from version, runs the steps, records each step's fingerprint and moves the recorded version. After it, db info shows the namespace up to date and db migrate has nothing to do; applying the same file twice fails on the version check.",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:51",
    "page": "cli",
    "type": "text",
    "content":
      "--format drizzle writes fragment-schema.ts and --format prisma writes fragment.prisma, one file for all namespaces at their latest versions (see database.md). Neither connects to a database. --from/--to with them is a usage error (exit 2): a schema file always describes the latest version.",
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli:52",
    "page": "cli",
    "type": "text",
    "content":
      'Usage errors (exit 2): unsupported format "xml"; use one of: sql, drizzle, prisma; --from and --to are only supported for SQL migration output (--format sql); a malformed version; a namespace that no module has; more than one file.',
    "url": "/docs/cli#db-generate",
    "context": "The fragment-cli command › db generate",
  },
  {
    "id": "cli#db-migrate",
    "page": "cli",
    "type": "heading",
    "content": "db migrate",
    "url": "/docs/cli#db-migrate",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:53",
    "page": "cli",
    "type": "text",
    "content":
      "-t, --to | the latest schema version | Version to migrate to, or namespace=version pairs",
    "url": "/docs/cli#db-migrate",
    "context": "The fragment-cli command › db migrate",
  },
  {
    "id": "cli:54",
    "page": "cli",
    "type": "text",
    "content":
      "-f, --from | none | Version the database must be at, or namespace=version pairs; checked before anything runs",
    "url": "/docs/cli#db-migrate",
    "context": "The fragment-cli command › db migrate",
  },
  {
    "id": "cli:55",
    "page": "cli",
    "type": "text",
    "content":
      "SQL migrations only: for Drizzle or Prisma outputs, apply changes with that ORM's tooling. Every namespace's state is read and every option checked before anything is applied: a --from that differs from the database (notes [notes]: the database is at version 2, not at version 1 as --from says; nothing applied), a --to below the database's version (no down migrations) or beyond the code, a database ahead of the code, an edited applied step: exit 1, nothing applied.",
    "url": "/docs/cli#db-migrate",
    "context": "The fragment-cli command › db migrate",
  },
  {
    "id": "cli:56",
    "page": "cli",
    "type": "text",
    "content":
      "Then each namespace is migrated in one transaction under an advisory lock, its recorded version moved with a compare-and-set. Running it again is safe (No migrations needed: …, exit 0), and so is running two at once: one applies, the other waits and finds nothing to do.",
    "url": "/docs/cli#db-migrate",
    "context": "The fragment-cli command › db migrate",
  },
  {
    "id": "cli#db-info",
    "page": "cli",
    "type": "heading",
    "content": "db info",
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:57",
    "page": "cli",
    "type": "text",
    "content":
      "One row per namespace: the module, the namespace, the code's latest version, the database's recorded version (0 when never migrated), the number of pending steps, and the status: up to date, N pending, database ahead, drift at step K (an applied step was edited since), or no database (a module without a schema). It only reads: no table is created, no lock taken. Exit 0 whatever the status; exit 1 when the database cannot be reached.",
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command › db info",
  },
  {
    "id": "cli:58",
    "page": "cli",
    "type": "text",
    "content":
      "A namespace with durable hooks (migrated to its hook table) gets one more line after the table: Hooks [messenger]: 3 pending, 0 running, 1 failed, oldest pending 2m 5s (the oldest pending age is the time since that hook was enqueued; omitted when none is pending), with , 2 blocked after failed when hooks wait for an earlier one of their ordering key (blocked is always in --json).",
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command › db info",
  },
  {
    "id": "cli:59",
    "page": "cli",
    "type": "text",
    "content": "--json prints only JSON on stdout, with the same fields:",
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command › db info",
  },
  {
    "id": "cli:60",
    "page": "cli",
    "type": "text",
    "content":
      'status is one of up-to-date, pending, ahead, drift, no-database; namespace, database, codeVersion and databaseVersion are null for a module without a database. hooks is { "pending": 3, "running": 0, "failed": 1, "blocked": 0, "oldestPendingAgeSeconds": 125 } for a namespace with hooks (oldestPendingAgeSeconds is null when none is pending), null otherwise.',
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command › db info",
  },
  {
    "id": "cli:61",
    "page": "cli",
    "type": "text",
    "content":
      'On PGlite, which one process holds at a time, db info and hooks exit 1 while a serve holds the directory, and say so: error: the PGlite data directory "./.data/pglite" is held by process 4242, most likely a running "fragment-cli serve" (PGlite is open in one process at a time): stop it and run "fragment-cli db info app.ts" again, or use PostgreSQL (DATABASE_URL) to run it beside serve.',
    "url": "/docs/cli#db-info",
    "context": "The fragment-cli command › db info",
  },
  {
    "id": "cli#hooks",
    "page": "cli",
    "type": "heading",
    "content": "hooks",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:62",
    "page": "cli",
    "type": "text",
    "content":
      "Operates the durable hooks of the file's modules on their database (opened as for db info), in every namespace whose schema has the hook table, or in --namespace's alone. hooks <subcommand> <file> … (the order of db info <file>) works too.",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:63",
    "page": "cli",
    "type": "text",
    "content": "--status | list | pending, running, failed, done, cancelled or blocked",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:64",
    "page": "cli",
    "type": "text",
    "content":
      "--limit | list | at most N hooks, newest first, over all namespaces (default 50, max 1000)",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:65",
    "page": "cli",
    "type": "text",
    "content": "--namespace | all | only this namespace (needed for an id two namespaces have)",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:66",
    "page": "cli",
    "type": "text",
    "content": "--failed | retry | every failed hook, instead of ids",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:67",
    "page": "cli",
    "type": "text",
    "content": "--done | purge | required: only done hooks are purged",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:68",
    "page": "cli",
    "type": "text",
    "content": "--older-than | purge | finished at least this long ago: 30d, 12h, 15m, 0s",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:69",
    "page": "cli",
    "type": "text",
    "content": "--json | all | only JSON on stdout",
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:70",
    "page": "cli",
    "type": "text",
    "content":
      'list: the columns Namespace, ID, Hook, Key, Status, Attempts, Next run (a pending hook\'s due time, a running one\'s lease) and Last error (its first line). --json: { "file", "hooks": [{ "namespace", "id", "name", "key", "status", "attempts", "nextRunAt", "leaseExpiresAt", "lastError", "createdAt", "updatedAt", "finishedAt" }] }.',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:71",
    "page": "cli",
    "type": "text",
    "content":
      'show <id>: the fields above, the payload, every failed attempt\'s error with its time (the latest 20, with the error log of withHookErrorLog; else the last error), and what the module says the hook is about (the messenger: the stored update). --json: { "file", "hook": { …, "module", "payload", "errors": [{ "attempt", "at", "error" }], "details" } }.',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:72",
    "page": "cli",
    "type": "text",
    "content":
      'retry <id…>: failed or cancelled hooks back to pending, due now, attempts reset (a hook with an ordering key whose key is busy: blocked behind it); others are left alone and listed (Left alone: 5 [jobs] is pending …), so it is idempotent. retry --failed: every failed hook. --json: { "file", "retried": [{ "namespace", "id" }], "unchanged": [{ "namespace", "id", "status" }] }.',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:73",
    "page": "cli",
    "type": "text",
    "content":
      'cancel <id…>: pending, running, blocked or failed hooks become cancelled (never run again; retry undoes it); done and cancelled ones are left alone. Cancelling the hook that holds an ordering key releases the key\'s next one. --json: like retry, with "cancelled".',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:74",
    "page": "cli",
    "type": "text",
    "content":
      'purge --done --older-than AGE: deletes done hooks finished at least AGE ago and prints the count per namespace (--json: { "file", "olderThan", "purged": { "<namespace>": n }, "total" }). The messenger\'s stored updates are never purged. For automatic purging see retention.',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli:75",
    "page": "cli",
    "type": "text",
    "content":
      'Exit 0 on success, including "nothing to retry". Exit 1, one line, for an id no namespace has (error: no hook occurrence 99 in app.ts; nothing is changed), an id two namespaces have (… pick one with --namespace), a file without hooks, an unreachable or held database. Exit 2 for usage errors: a missing or unknown subcommand, an id that is not a number, an option of another subcommand (--status is an option of hooks list), a bad --status, --limit or --older-than, retry with both ids and --failed or neither, purge without --done, a --namespace with no hooks in the file.',
    "url": "/docs/cli#hooks",
    "context": "The fragment-cli command › hooks",
  },
  {
    "id": "cli#openapi",
    "page": "cli",
    "type": "heading",
    "content": "openapi",
    "url": "/docs/cli#openapi",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:76",
    "page": "cli",
    "type": "text",
    "content":
      "Writes the OpenAPI 3.1 document of every module the file exports, merged into one: each module's paths (its GET <mount>/openapi.json, openapi.md) prefixed with its mount, the security schemes of all of them. No database is opened: the modules are instantiated and asked for their documents in memory, so it works with DATABASE_URL pointing at a server that is down, in CI for instance.",
    "url": "/docs/cli#openapi",
    "context": "The fragment-cli command › openapi",
  },
  {
    "id": "cli:77",
    "page": "cli",
    "type": "text",
    "content":
      "-o, --output path | standard output | The file to write (its directory is created when it is not there)",
    "url": "/docs/cli#openapi",
    "context": "The fragment-cli command › openapi",
  },
  {
    "id": "cli:78",
    "page": "cli",
    "type": "text",
    "content":
      "Without -o, stdout holds the document alone (what the file prints while imported goes to stderr): fragment-cli openapi app.ts > openapi.json. With -o, one line says what was written:",
    "url": "/docs/cli#openapi",
    "context": "The fragment-cli command › openapi",
  },
  {
    "id": "cli:79",
    "page": "cli",
    "type": "text",
    "content":
      "Exit 0 on success; 1 when the file cannot be imported, exports no module, or two modules answer one method and path; 2 for a usage error (no file, more than one, -o naming a directory, an unknown option).",
    "url": "/docs/cli#openapi",
    "context": "The fragment-cli command › openapi",
  },
  {
    "id": "cli#this-repositorys-migrations",
    "page": "cli",
    "type": "heading",
    "content": "This repository's migrations",
    "url": "/docs/cli#this-repositorys-migrations",
    "context": "The fragment-cli command",
  },
  {
    "id": "cli:80",
    "page": "cli",
    "type": "text",
    "content":
      "migrations/ holds the SQL that db generate --from 0 makes of the first-party modules in examples/app.ts. Regenerate it with deno task migrations after changing a module's schema; a test (tests/cli/examples_app.test.ts) fails when it is out of date (the date prefixes aside) and applies the files with psql to check that they bring a database to the code's versions.",
    "url": "/docs/cli#this-repositorys-migrations",
    "context": "The fragment-cli command › This repository's migrations",
  },
  {
    "id": "client",
    "page": "client",
    "type": "page",
    "content": "Typed client",
    "url": "/docs/client",
    "context": "",
  },
  {
    "id": "client:1",
    "page": "client",
    "type": "text",
    "content":
      "createAuthClient is the typed client of the auth module and its organizations API, for single-page apps and servers alike. It runs in browsers, Deno, Node and Bun: at run time it needs nothing but fetch (no Node built-in, no npm package in its import graph, checked by tests/client/import_graph.test.ts), and its types come from the routes' own zod schemas.",
    "url": "/docs/client",
    "context": "Typed client",
  },
  {
    "id": "client#options",
    "page": "client",
    "type": "heading",
    "content": "Options",
    "url": "/docs/client#options",
    "context": "Typed client",
  },
  {
    "id": "client:2",
    "page": "client",
    "type": "text",
    "content":
      'baseUrl | required | the module\'s URL: relative on the page\'s origin ("/api/auth") or absolute ("https://api.example.com/api/auth"); a trailing / is ignored',
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client:3",
    "page": "client",
    "type": "text",
    "content":
      "fetch | globalThis.fetch | the fetch to call, e.g. one that keeps cookies on a server, or adds tracing",
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client:4",
    "page": "client",
    "type": "text",
    "content":
      "credentials | \"include\" | RequestInit.credentials: cookies are sent and accepted for the module's origin even when it is not the page's (see CORS)",
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client:5",
    "page": "client",
    "type": "text",
    "content":
      "token | none | a credential sent as Authorization: Bearer: a string, or a function read before each request (returning null sends none)",
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client:6",
    "page": "client",
    "type": "text",
    "content": "headers | none | headers added to every request",
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client:7",
    "page": "client",
    "type": "text",
    "content":
      "Cookie or Bearer. In a browser the module's HttpOnly cookie carries the credential: the client never sees or stores it. Anywhere else (a server, a CLI, a mobile app, or a browser page on another site, where SameSite=Lax keeps the cookie off), keep the token of signUp/signIn and hand it to the client:",
    "url": "/docs/client#options",
    "context": "Typed client › Options",
  },
  {
    "id": "client#results-and-errors",
    "page": "client",
    "type": "heading",
    "content": "Results and errors",
    "url": "/docs/client#results-and-errors",
    "context": "Typed client",
  },
  {
    "id": "client:8",
    "page": "client",
    "type": "text",
    "content":
      "Every method resolves to { data, error } and never rejects for an HTTP or network failure:",
    "url": "/docs/client#results-and-errors",
    "context": "Typed client › Results and errors",
  },
  {
    "id": "client:9",
    "page": "client",
    "type": "text",
    "content":
      "code is a union of string literals: every code of AUTH_ERROR_CODES and the organizations API, the core's (VALIDATION_ERROR, INVALID_JSON, INVALID_HOST, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INTERNAL_ERROR), and two of the client's own: NETWORK_ERROR (status 0: fetch rejected) and INVALID_RESPONSE (an answer that is not the module's JSON, e.g. a proxy's HTML error page). Checking error narrows data to the route's type. Routes answering 204 resolve to { data: null, error: null }.",
    "url": "/docs/client#results-and-errors",
    "context": "Typed client › Results and errors",
  },
  {
    "id": "client#methods",
    "page": "client",
    "type": "heading",
    "content": "Methods",
    "url": "/docs/client#methods",
    "context": "Typed client",
  },
  {
    "id": "client:10",
    "page": "client",
    "type": "text",
    "content": "data's type follows each arrow. Path arguments are URL-encoded by the client.",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:11",
    "page": "client",
    "type": "text",
    "content": "signUp({ email, password }) | POST /sign-up | { token, user, expiresAt }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:12",
    "page": "client",
    "type": "text",
    "content": "signIn({ email, password }) | POST /sign-in | { token, user, expiresAt }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:13",
    "page": "client",
    "type": "text",
    "content": "signOut() | POST /sign-out | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:14",
    "page": "client",
    "type": "text",
    "content": "session() | GET /session | { user, expiresAt }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:15",
    "page": "client",
    "type": "text",
    "content":
      "me() | GET /me | { user, organizations, activeOrganization, invitations, …HasMore }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:16",
    "page": "client",
    "type": "text",
    "content": "verifyEmail({ token }) | POST /verify-email | { user }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:17",
    "page": "client",
    "type": "text",
    "content": "resendVerificationEmail() | POST /verify-email/resend | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:18",
    "page": "client",
    "type": "text",
    "content":
      "organizations.create({ name, slug?, logoUrl?, metadata? }) | POST /organizations | { organization, member }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:19",
    "page": "client",
    "type": "text",
    "content":
      "organizations.list({ pageSize?, cursor? }?) | GET /organizations | { organizations, cursor, hasNextPage }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:20",
    "page": "client",
    "type": "text",
    "content":
      "organizations.get(organizationId) | GET /organizations/:organizationId | { organization, member }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:21",
    "page": "client",
    "type": "text",
    "content":
      "organizations.update(organizationId, { name?, slug?, … }) | PATCH /organizations/:organizationId | { organization }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:22",
    "page": "client",
    "type": "text",
    "content":
      "organizations.delete(organizationId) | DELETE /organizations/:organizationId | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:23",
    "page": "client",
    "type": "text",
    "content":
      "organizations.getActive() | GET /organizations/active | { organization, member } | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:24",
    "page": "client",
    "type": "text",
    "content":
      "organizations.setActive(organizationId | null) | POST /organizations/active | { organization, member } | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:25",
    "page": "client",
    "type": "text",
    "content":
      "members.list(organizationId, { pageSize?, cursor? }?) | GET /organizations/:organizationId/members | { members, cursor, hasNextPage }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:26",
    "page": "client",
    "type": "text",
    "content":
      "members.add(organizationId, { userId, roles? }) | POST /organizations/:organizationId/members | { member }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:27",
    "page": "client",
    "type": "text",
    "content":
      "members.updateRoles(organizationId, memberId, { roles }) | PATCH /organizations/:organizationId/members/:memberId | { member }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:28",
    "page": "client",
    "type": "text",
    "content":
      "members.remove(organizationId, memberId) | DELETE /organizations/:organizationId/members/:memberId | null",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:29",
    "page": "client",
    "type": "text",
    "content":
      "invitations.list(organizationId, { pageSize?, cursor? }?) | GET /organizations/:organizationId/invitations | { invitations, cursor, hasNextPage }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:30",
    "page": "client",
    "type": "text",
    "content":
      "invitations.create(organizationId, { email, roles? }) | POST /organizations/:organizationId/invitations | { invitation } (with its token)",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:31",
    "page": "client",
    "type": "text",
    "content":
      "invitations.listMine({ pageSize?, cursor? }?) | GET /organizations/invitations | { invitations: { invitation, organization }[], … }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:32",
    "page": "client",
    "type": "text",
    "content":
      "invitations.accept(invitationId, { token }) | PATCH /organizations/invitations/:invitationId (accept) | { invitation, organization, member }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:33",
    "page": "client",
    "type": "text",
    "content":
      "invitations.reject(invitationId, { token }) | PATCH /organizations/invitations/:invitationId (reject) | { invitation }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:34",
    "page": "client",
    "type": "text",
    "content":
      "invitations.cancel(invitationId, { token }) | PATCH /organizations/invitations/:invitationId (cancel) | { invitation }",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client:35",
    "page": "client",
    "type": "text",
    "content":
      "The resources (user, organization, member, invitation) are described in auth.md and organizations.md. The module exports their types too: AuthUser, AuthOrganization, AuthMember, AuthInvitation, AuthOrganizationEntry, AuthInvitationEntry.",
    "url": "/docs/client#methods",
    "context": "Typed client › Methods",
  },
  {
    "id": "client#how-the-types-are-derived",
    "page": "client",
    "type": "heading",
    "content": "How the types are derived",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client",
  },
  {
    "id": "client:36",
    "page": "client",
    "type": "text",
    "content": "Nothing in the client restates a route's shape:",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client › How the types are derived",
  },
  {
    "id": "client:37",
    "page": "client",
    "type": "text",
    "content":
      "Each route's request body is a zod schema exported next to its route (signUpBody, signInBody, verifyEmailBody, and src/auth/organizations/bodies.ts), and each answer has one in src/auth/responses.ts. The routes declare these same objects as their body and responses, so the module's OpenAPI document (openapi.md) and the client's types come from one set of schemas (tests/core/openapi.test.ts checks each documented answer against them). JSR's publishing rules want exported values explicitly typed, so each schema carries its declared type through exactSchema<Output, Input>(), which fails to compile unless the schema infers exactly those types (an extra, missing or retyped field is an error, where a plain z.ZodType<T> annotation would let an added field through).",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client › How the types are derived",
  },
  {
    "id": "client:38",
    "page": "client",
    "type": "text",
    "content":
      "AuthContract (src/auth/contract.ts, exported by the auth module) maps every operation to z.input of its body schema and z.output of its response schema.",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client › How the types are derived",
  },
  {
    "id": "client:39",
    "page": "client",
    "type": "text",
    "content":
      "The client's method signatures are written against AuthContract alone, through import type: type imports are erased, so the client's run-time graph holds none of the server, zod or hono.",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client › How the types are derived",
  },
  {
    "id": "client:40",
    "page": "client",
    "type": "text",
    "content":
      "tests/client/auth_client_types.test.ts (type-checked by deno test, so by deno task test in CI) asserts, for every method, that its argument is exactly the body schema's input and its data exactly the response schema's output; it pins the main shapes and lists calls that must not compile (// @ts-expect-error). tests/client/auth_client.test.ts drives every method against the module served over HTTP and parses each answer with its response schema, which must accept it unchanged: the schemas describe what the server really sends.",
    "url": "/docs/client#how-the-types-are-derived",
    "context": "Typed client › How the types are derived",
  },
  {
    "id": "database",
    "page": "database",
    "type": "page",
    "content": "Database schemas",
    "url": "/docs/database",
    "context": "",
  },
  {
    "id": "database:1",
    "page": "database",
    "type": "text",
    "content":
      "A module that stores data declares a schema: a name and an append-only list of steps. Each step is one integer version (the first step is version 1, the second version 2, …). Migrations are planned from the steps alone, without a database; the migration runner records per namespace which version is applied and a fingerprint of each applied step (see the adapter page for running them).",
    "url": "/docs/database",
    "context": "Database schemas",
  },
  {
    "id": "database:2",
    "page": "database",
    "type": "text",
    "content":
      "The code on this page lives in docs/examples/database_*.ts; tests/db/docs_examples.test.ts imports and runs those files, so deno test type-checks them. The API is exported by src/db/mod.ts.",
    "url": "/docs/database",
    "context": "Database schemas",
  },
  {
    "id": "database#defining-a-schema",
    "page": "database",
    "type": "heading",
    "content": "Defining a schema",
    "url": "/docs/database#defining-a-schema",
    "context": "Database schemas",
  },
  {
    "id": "database:3",
    "page": "database",
    "type": "text",
    "content":
      "The schema object has name, version (the latest, here 15) and steps (each with its version and kind). Never edit or reorder a step that has shipped: add a new one. The runner fingerprints every applied step and refuses to run when a step's SQL changed.",
    "url": "/docs/database#defining-a-schema",
    "context": "Database schemas › Defining a schema",
  },
  {
    "id": "database#columns",
    "page": "database",
    "type": "heading",
    "content": "Columns",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema",
  },
  {
    "id": "database:4",
    "page": "database",
    "type": "text",
    "content": "column.text() | text | string",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:5",
    "page": "database",
    "type": "text",
    "content": "column.varchar(n) | varchar(n) | string",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:6",
    "page": "database",
    "type": "text",
    "content": "column.integer() | integer | number",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:7",
    "page": "database",
    "type": "text",
    "content": "column.bigint() | bigint | string (decimal, never a lossy number)",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:8",
    "page": "database",
    "type": "text",
    "content": "column.boolean() | boolean | boolean",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:9",
    "page": "database",
    "type": "text",
    "content": "column.timestamptz() | timestamptz | Date",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:10",
    "page": "database",
    "type": "text",
    "content": "column.jsonb<T>() | jsonb | T (default: any JSON value)",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:11",
    "page": "database",
    "type": "text",
    "content": "column.bytea() | bytea | Uint8Array",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:12",
    "page": "database",
    "type": "text",
    "content": "column.uuid() | uuid | string",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:13",
    "page": "database",
    "type": "text",
    "content": "Columns are NOT NULL unless .nullable(). Modifiers (each returns a new builder):",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:14",
    "page": "database",
    "type": "text",
    "content":
      ".default(value): a constant, checked against the type (bigint takes a digit string, jsonb any JSON value). timestamptz and bytea take no constant default.",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:15",
    "page": "database",
    "type": "text",
    "content":
      ".defaultNow() (timestamptz only): DEFAULT now(). Timestamps are always timestamptz, so a session's time zone never shifts stored instants.",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:16",
    "page": "database",
    "type": "text",
    "content": ".defaultRandom() (uuid only): DEFAULT gen_random_uuid().",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:17",
    "page": "database",
    "type": "text",
    "content": ".identity() (integer, bigint): GENERATED BY DEFAULT AS IDENTITY.",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:18",
    "page": "database",
    "type": "text",
    "content": '.defaultSql("expression"): a raw SQL default, written verbatim.',
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:19",
    "page": "database",
    "type": "text",
    "content":
      ".primaryKey() on one column, or createTable(name, columns, { primaryKey: [...] }) for a composite key. Every table needs exactly one primary key.",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:20",
    "page": "database",
    "type": "text",
    "content": ".unique(): a UNIQUE constraint on the column.",
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:21",
    "page": "database",
    "type": "text",
    "content":
      '.references(table, column, { onDelete }): a foreign key to a primary key or unique column of a table in the same namespace; onDelete is "no action" (default), "cascade", "restrict", "set null" or "set default".',
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database:22",
    "page": "database",
    "type": "text",
    "content":
      'Wrong combinations are type errors where TypeScript can see them (column.text().defaultNow(), column.integer().default("1")) and runtime errors otherwise.',
    "url": "/docs/database#columns",
    "context": "Database schemas › Defining a schema › Columns",
  },
  {
    "id": "database#step-kinds",
    "page": "database",
    "type": "heading",
    "content": "Step kinds",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema",
  },
  {
    "id": "database:23",
    "page": "database",
    "type": "text",
    "content":
      "createTable(table, columns, options?) | CREATE TABLE with the primary key, unique and foreign key constraints",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:24",
    "page": "database",
    "type": "text",
    "content":
      "addColumn(table, column, definition) | ALTER TABLE … ADD COLUMN (with its constraints)",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:25",
    "page": "database",
    "type": "text",
    "content": "dropColumn(table, column) | ALTER TABLE … DROP COLUMN",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:26",
    "page": "database",
    "type": "text",
    "content":
      "renameColumn(table, from, to) | ALTER TABLE … RENAME COLUMN (indexes and foreign keys follow)",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:27",
    "page": "database",
    "type": "text",
    "content":
      "addIndex(table, name, columns, { unique?, where? }) | CREATE [UNIQUE] INDEX … [WHERE …] (multi-column, partial)",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:28",
    "page": "database",
    "type": "text",
    "content": "dropIndex(name) | DROP INDEX",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:29",
    "page": "database",
    "type": "text",
    "content":
      "setNotNull(table, column) / dropNotNull(table, column) | ALTER COLUMN … SET / DROP NOT NULL",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:30",
    "page": "database",
    "type": "text",
    "content": "dropTable(table) | DROP TABLE",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:31",
    "page": "database",
    "type": "text",
    "content":
      "sql(body) | raw statements: a string, a list, or ({ namespace, qualify, quote }) => …",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:32",
    "page": "database",
    "type": "text",
    "content":
      "Raw sql steps are the escape hatch for what the DSL does not model (data backfills, comments, extensions). Use the function form to name tables in whatever namespace is being migrated. They are invisible to the checks below, to row types and to the ORM outputs. Write one statement per string.",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database:33",
    "page": "database",
    "type": "text",
    "content":
      "Constraints get PostgreSQL's own default names, so they are predictable: <table>_pkey, <table>_<column>_key (unique) and <table>_<column>_fkey (foreign key). They keep their name when a column is renamed, as in PostgreSQL.",
    "url": "/docs/database#step-kinds",
    "context": "Database schemas › Defining a schema › Step kinds",
  },
  {
    "id": "database#what-is-rejected-at-definition-time",
    "page": "database",
    "type": "heading",
    "content": "What is rejected at definition time",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema",
  },
  {
    "id": "database:34",
    "page": "database",
    "type": "text",
    "content":
      'defineSchema replays every step as it is added and throws a TypeError that names the schema, the step\'s version and kind, and the table, column or index at fault, e.g. Schema "auth" step 7 (addColumn on table "users"): column "age" is NOT NULL without a default, which fails on a table with rows: give it a .default(…) or make it .nullable() (then backfill and setNotNull). Rejected:',
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:35",
    "page": "database",
    "type": "text",
    "content":
      "names that are not lowercase snake_case ([a-z_][a-z0-9_]*) or are longer than 63 bytes (PostgreSQL would silently truncate them), including derived constraint names;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:36",
    "page": "database",
    "type": "text",
    "content":
      "duplicate tables, columns or indexes, and any name clash among tables, indexes, primary keys and unique constraints (they share one name space per PostgreSQL schema);",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:37",
    "page": "database",
    "type": "text",
    "content":
      "a table without a primary key, a nullable or missing primary key column, a primary key added by addColumn;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:38",
    "page": "database",
    "type": "text",
    "content":
      "foreign keys to a missing table or column, to a column that is neither the single-column primary key nor unique, or of another type; ON DELETE SET NULL on a NOT NULL column; ON DELETE SET DEFAULT without a default;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:39",
    "page": "database",
    "type": "text",
    "content":
      "an index on a missing table or column, an index listing a column twice, an empty where;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:40",
    "page": "database",
    "type": "text",
    "content": "a NOT NULL column without a default added to an existing table;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:41",
    "page": "database",
    "type": "text",
    "content":
      "setNotNull / dropNotNull on a missing column or one already in that state; dropNotNull on a primary key or identity column; setNotNull would also break ON DELETE SET NULL;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:42",
    "page": "database",
    "type": "text",
    "content":
      "dropping a primary key column, the only column, a column an index or foreign key uses, a table another table references, an index that addIndex did not create;",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:43",
    "page": "database",
    "type": "text",
    "content": "a schema with no steps, an empty raw SQL step.",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database:44",
    "page": "database",
    "type": "text",
    "content":
      "What only the data can tell (a setNotNull over existing NULLs, a unique index over duplicates) fails when the migration runs, and the runner then rolls the whole migration back.",
    "url": "/docs/database#what-is-rejected-at-definition-time",
    "context": "Database schemas › Defining a schema › What is rejected at definition time",
  },
  {
    "id": "database#row-types",
    "page": "database",
    "type": "heading",
    "content": "Row types",
    "url": "/docs/database#row-types",
    "context": "Database schemas › Defining a schema",
  },
  {
    "id": "database:45",
    "page": "database",
    "type": "text",
    "content":
      'Types follow the steps: addColumn adds a key, dropColumn and dropTable remove it, renameColumn renames it, setNotNull / dropNotNull change | null. Later steps only accept table and column names that exist at that point (addIndex("users", "x", ["nope"]) is a type error). tests/db/row_types.test.ts holds the type-level tests.',
    "url": "/docs/database#row-types",
    "context": "Database schemas › Defining a schema › Row types",
  },
  {
    "id": "database#namespaces",
    "page": "database",
    "type": "heading",
    "content": "Namespaces",
    "url": "/docs/database#namespaces",
    "context": "Database schemas",
  },
  {
    "id": "database:46",
    "page": "database",
    "type": "text",
    "content":
      "Each schema's tables live in a PostgreSQL schema, its namespace: by default the schema name, overridable so two instances of one module can share a database. The namespace is chosen when planning, not when defining; every identifier is double-quoted (quoteIdent), and foreign keys point at tables of the same namespace. Namespaces follow the same naming rule as tables.",
    "url": "/docs/database#namespaces",
    "context": "Database schemas › Namespaces",
  },
  {
    "id": "database#planning-migrations",
    "page": "database",
    "type": "heading",
    "content": "Planning migrations",
    "url": "/docs/database#planning-migrations",
    "context": "Database schemas",
  },
  {
    "id": "database:47",
    "page": "database",
    "type": "text",
    "content":
      "planMigration(schema, { namespace?, from, to? }) needs 0 ≤ from < to ≤ schema.version (to defaults to the latest) and returns { schema, namespace, from, to, steps } with one { version, kind, description, statements } per step. Statements carry no trailing ;.",
    "url": "/docs/database#planning-migrations",
    "context": "Database schemas › Planning migrations",
  },
  {
    "id": "database:48",
    "page": "database",
    "type": "text",
    "content": 'Step 1 starts with CREATE SCHEMA IF NOT EXISTS "<namespace>".',
    "url": "/docs/database#planning-migrations",
    "context": "Database schemas › Planning migrations",
  },
  {
    "id": "database:49",
    "page": "database",
    "type": "text",
    "content":
      "The output is deterministic byte for byte: the same schema and namespace always give the same text (tests/db/__snapshots__/every_step_schema.sql is compared byte for byte, and applied to PGlite and PostgreSQL by tests/db/migration_apply.test.ts).",
    "url": "/docs/database#planning-migrations",
    "context": "Database schemas › Planning migrations",
  },
  {
    "id": "database:50",
    "page": "database",
    "type": "text",
    "content":
      "Planning writes no version bookkeeping; the migration runner records versions in its own internal tables inside the same transaction. renderMigrationSql(plan, { bookkeeping }) appends such statements when a migration file is written.",
    "url": "/docs/database#planning-migrations",
    "context": "Database schemas › Planning migrations",
  },
  {
    "id": "database#orm-outputs",
    "page": "database",
    "type": "heading",
    "content": "ORM outputs",
    "url": "/docs/database#orm-outputs",
    "context": "Database schemas",
  },
  {
    "id": "database:51",
    "page": "database",
    "type": "text",
    "content":
      "The same schemas produce a Drizzle and a Prisma schema file, without a database. Both take a list of { schema, namespace? } at their latest versions.",
    "url": "/docs/database#orm-outputs",
    "context": "Database schemas › ORM outputs",
  },
  {
    "id": "database#drizzle",
    "page": "database",
    "type": "heading",
    "content": "Drizzle",
    "url": "/docs/database#drizzle",
    "context": "Database schemas › ORM outputs",
  },
  {
    "id": "database:52",
    "page": "database",
    "type": "text",
    "content":
      'Imports from drizzle-orm and drizzle-orm/pg-core; per namespace export const <ns>Schema = pgSchema("<ns>") and export const <ns>SchemaVersion = <version> (camelCased: auth_admin → authAdminSchema).',
    "url": "/docs/database#drizzle",
    "context": "Database schemas › ORM outputs › Drizzle",
  },
  {
    "id": "database:53",
    "page": "database",
    "type": "text",
    "content":
      'One export const <ns><Table> = <ns>Schema.table("<table>", { … }, (table) => [ … ]) per table: columns keyed by their SQL names, .notNull(), defaults (defaultNow(), defaultRandom(), generatedByDefaultAsIdentity(), constants, sql`…`), .unique("<name>"), composite primaryKey({ name, columns }), index / uniqueIndex (with .where(sql…) for partial ones), and foreignKey({ name, columns, foreignColumns }).onDelete(…), all with the same names as the migrations. bigint columns use mode: "bigint"; bytea is a small customType.',
    "url": "/docs/database#drizzle",
    "context": "Database schemas › ORM outputs › Drizzle",
  },
  {
    "id": "database:54",
    "page": "database",
    "type": "text",
    "content":
      "relations(…) on both sides of every foreign key (one on the referencing table, many — or one when the column is unique — on the referenced table), named by the constraint.",
    "url": "/docs/database#drizzle",
    "context": "Database schemas › ORM outputs › Drizzle",
  },
  {
    "id": "database:55",
    "page": "database",
    "type": "text",
    "content":
      "Checked by tests/db/orm_outputs.test.ts: drizzle-kit's programmatic API (generateDrizzleJson + generateMigration from drizzle-kit/api, offline) turns the file into SQL; that SQL and our migrations are applied side by side to PGlite and to PostgreSQL, and the catalogs (tables, columns, types, nullability, defaults, identity, indexes and constraints) are compared and must be equal.",
    "url": "/docs/database#drizzle",
    "context": "Database schemas › ORM outputs › Drizzle",
  },
  {
    "id": "database#prisma",
    "page": "database",
    "type": "heading",
    "content": "Prisma",
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs",
  },
  {
    "id": "database:56",
    "page": "database",
    "type": "text",
    "content": "A header comment naming every namespace with its schema and version.",
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "database:57",
    "page": "database",
    "type": "text",
    "content":
      'A generator client { provider = "prisma-client-js" } block (another provider with { generator: "prisma-client" }, none with { generator: false }). When a partial index is present it enables previewFeatures = ["partialIndexes"], which Prisma needs for @@index(…, where: raw("…")).',
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "database:58",
    "page": "database",
    "type": "text",
    "content":
      'Decision: the datasource db { provider = "postgresql" schemas = [...] } block is included, because @@schema attributes only validate with it, but without url: Prisma 7 (the version whose schema engine, @prisma/prisma-schema-wasm 8.1, we validate against) rejects url in schema files; the connection URL goes in prisma.config.ts. schemas needs no preview feature in Prisma 7 (Prisma 5/6 needed previewFeatures = ["multiSchema"], and url = env("DATABASE_URL")).',
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "database:59",
    "page": "database",
    "type": "text",
    "content":
      'One model per table, <PascalTable>_<namespace> (e.g. OrderTags_shop), with @@map("<table>") and @@schema("<namespace>"); @id(map:) / @@id([…], map:), @unique(map:), @@index / @@unique with map: names; native types (@db.Uuid, @db.VarChar(n), @db.Timestamptz(6)); defaults now(), autoincrement() (identity), dbgenerated("gen_random_uuid()") and constants; relation fields on both sides with @relation("<fk name>", fields, references, onDelete, map).',
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "database:60",
    "page": "database",
    "type": "text",
    "content":
      "Checked by tests/db/orm_outputs.test.ts with @prisma/prisma-schema-wasm: validate accepts the file and format leaves it unchanged.",
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "database:61",
    "page": "database",
    "type": "text",
    "content":
      "Both outputs are byte-for-byte snapshots in tests/db/__snapshots__/. Not reflected in either: raw sql steps, and a partial index's where text after a rename of a column it mentions (the text is kept as written).",
    "url": "/docs/database#prisma",
    "context": "Database schemas › ORM outputs › Prisma",
  },
  {
    "id": "development",
    "page": "development",
    "type": "page",
    "content": "Development: tests, checks and packaging",
    "url": "/docs/development",
    "context": "",
  },
  {
    "id": "development#tests-on-three-runtimes",
    "page": "development",
    "type": "heading",
    "content": "Tests on three runtimes",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:1",
    "page": "development",
    "type": "text",
    "content":
      "npx -y deno@2 task test runs deno task check (format, lint, type check, deno publish --dry-run), then every tests/**/*.test.ts file under:",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:2",
    "page": "development",
    "type": "text",
    "content": "Deno (deno test -A),",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:3",
    "page": "development",
    "type": "text",
    "content":
      'Node 22 from npm (npx -y node@22 --test): Node strips the types of the .ts sources itself and resolves bare specifiers (hono, zod, …) from the node_modules that Deno creates ("nodeModulesDir": "auto" in deno.json),',
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:4",
    "page": "development",
    "type": "text",
    "content": "Bun from npm (npx -y bun@1 test).",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:5",
    "page": "development",
    "type": "text",
    "content":
      "Tests use only node:test (describe, it, before, after) and node:assert/strict, so the same files run everywhere. Each runner writes a JUnit report; the task counts leaf test cases and prints a summary per runtime, then one line N passed, N failed. A failure on any runtime fails the task. tests/package/ (which drives Node and Bun itself) runs under Deno only, and so do tests/bench/ and tests/reliability/processes/ (they start their own processes, on other runtimes where it matters).",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:6",
    "page": "development",
    "type": "text",
    "content":
      "npx -y deno@2 task test:reliability runs only the reliability suite (tests/reliability/: crashes, outages, migration faults, concurrency, fuzzing, secrets); guarantees lists what each of its tests proves. The route fuzzer prints its seed: FUZZ_SEED=<n> replays a run, FUZZ_RUNS=<n> changes its number of cases (5,000 per database under Deno, 1,000 under Node and Bun).",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:7",
    "page": "development",
    "type": "text",
    "content": "Run a part: deno task test --skip-check --runtime node tests/core.",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development:8",
    "page": "development",
    "type": "text",
    "content":
      "Tests that spawn processes use tests/helpers/spawn_runtime.ts, which runs a script on the runtime the test itself runs on.",
    "url": "/docs/development#tests-on-three-runtimes",
    "context": "Development: tests, checks and packaging › Tests on three runtimes",
  },
  {
    "id": "development#browser-tests",
    "page": "development",
    "type": "heading",
    "content": "Browser tests",
    "url": "/docs/development#browser-tests",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:9",
    "page": "development",
    "type": "text",
    "content":
      "tests/browser/ drives headless Chromium with playwright-core (no browser download: it uses the Debian package chromium, at /usr/bin/chromium or CHROMIUM_PATH), under all three runtimes: the example SPA's whole flow from the API's own origin and from a second, trusted origin (CORS with the cookie), and a hostile third origin's cross-site write and login CSRF, which must fail. Without Chromium they are skipped, and the run prints why (Skipping the browser tests: …); .ci/run installs it (apt-get install -y chromium), so CI always runs them. Locally: apt-get install -y chromium, then deno task test --skip-check tests/browser. The same-origin test saves the signed-in page to docs/images/spa.png (the README links it): commit it when the page changes.",
    "url": "/docs/development#browser-tests",
    "context": "Development: tests, checks and packaging › Browser tests",
  },
  {
    "id": "development:10",
    "page": "development",
    "type": "text",
    "content":
      "The SPA imports examples/spa/client.js, the typed client of src/client/ bundled for browsers (deno bundle). After changing src/client/, run npx -y deno@2 task spa:client and commit the bundle; tests/package/spa_client_bundle.test.ts fails while it is stale.",
    "url": "/docs/development#browser-tests",
    "context": "Development: tests, checks and packaging › Browser tests",
  },
  {
    "id": "development#npm-package",
    "page": "development",
    "type": "heading",
    "content": "npm package",
    "url": "/docs/development#npm-package",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:11",
    "page": "development",
    "type": "text",
    "content":
      "deno task build:npm writes npm/ (git-ignored): ESM JavaScript and .d.ts emitted by tsc (rewriteRelativeImportExtensions turns ./x.ts imports into ./x.js), a package.json named fragment-cli with a fragment-cli bin (Node ≥ 20), the npm dependencies the sources import with the version ranges of deno.json, README and LICENSE. The bin runs esm/src/cli/bin_entry.js, an esbuild bundle of what every invocation loads (commands import their implementation from the tsc output when they run), and turns on Node's compile cache where Node has one (≥ 22.3), which speeds up later starts, not the first. tests/package/npm_package.test.ts packs it with npm pack, installs the tarball into a scratch folder and runs the bin under Node 20 and Bun, and through npx and bunx (which starts the bin under Node, its shebang, and the bin hands over to Bun). The bin's shebang stays Node's for npx; bin/on_bun.js runs it again on the Bun of npm_execpath when Bun's user agent started it. tests/package/deno_lock.test.ts checks that serve and db leave a user's deno.lock as it was, and tests/package/import_graph.test.ts that the graph Deno builds from cli.ts, mod.ts and each command reaches only the runtime packages it needs (no dev-only package: they are for scripts/ and tests/, which, like deno.lock, are not published).",
    "url": "/docs/development#npm-package",
    "context": "Development: tests, checks and packaging › npm package",
  },
  {
    "id": "development#docs-and-the-search-index",
    "page": "development",
    "type": "heading",
    "content": "Docs and the search index",
    "url": "/docs/development#docs-and-the-search-index",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:12",
    "page": "development",
    "type": "text",
    "content":
      "docs/*.md is the content of the reference site and of fragment-cli search. The package ships the search records of these pages in src/search/docs_index.ts (generated, never edited by hand), so search works offline. After editing anything under docs/, run",
    "url": "/docs/development#docs-and-the-search-index",
    "context": "Development: tests, checks and packaging › Docs and the search index",
  },
  {
    "id": "development:13",
    "page": "development",
    "type": "text",
    "content":
      "and commit the regenerated file with your docs; tests/search/docs_index.test.ts fails while it is stale and names this task. npx -y deno@2 task site serves docs/ on http://localhost:8000 to read the pages as HTML and try the search (see search).",
    "url": "/docs/development#docs-and-the-search-index",
    "context": "Development: tests, checks and packaging › Docs and the search index",
  },
  {
    "id": "development#jsr",
    "page": "development",
    "type": "heading",
    "content": "JSR",
    "url": "/docs/development#jsr",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:14",
    "page": "development",
    "type": "text",
    "content":
      "deno publish --dry-run runs in deno task check: every export has explicit types (no slow types). tests/, scripts/, examples/ are excluded from the published package.",
    "url": "/docs/development#jsr",
    "context": "Development: tests, checks and packaging › JSR",
  },
  {
    "id": "development#ci",
    "page": "development",
    "type": "heading",
    "content": "CI",
    "url": "/docs/development#ci",
    "context": "Development: tests, checks and packaging",
  },
  {
    "id": "development:15",
    "page": "development",
    "type": "text",
    "content":
      ".ci/run starts PostgreSQL if it is down, installs Chromium if it is missing (quietly; on failure the browser tests skip and say why), then runs exactly npx -y deno@2 task test.",
    "url": "/docs/development#ci",
    "context": "Development: tests, checks and packaging › CI",
  },
  {
    "id": "getting-started",
    "page": "getting-started",
    "type": "page",
    "content": "Getting started",
    "url": "/docs/getting-started",
    "context": "",
  },
  {
    "id": "getting-started:1",
    "page": "getting-started",
    "type": "text",
    "content":
      'fragment-cli gives TypeScript servers modules ("fragments") that bundle HTTP routes, a versioned Postgres schema and durable background hooks, and the fragment-cli command that serves, migrates and inspects them. This page takes you from a fresh clone to authenticated requests against the two first-party modules, auth and messenger.',
    "url": "/docs/getting-started",
    "context": "Getting started",
  },
  {
    "id": "getting-started#requirements",
    "page": "getting-started",
    "type": "heading",
    "content": "Requirements",
    "url": "/docs/getting-started#requirements",
    "context": "Getting started",
  },
  {
    "id": "getting-started:2",
    "page": "getting-started",
    "type": "text",
    "content":
      "Only Node.js and npm. Deno 2, Node 22 and Bun all come from npm through npx, so nothing else has to be installed. No database server is needed either: the example runs on PGlite, a real PostgreSQL compiled to WebAssembly, in-process.",
    "url": "/docs/getting-started#requirements",
    "context": "Getting started › Requirements",
  },
  {
    "id": "getting-started#the-two-commands",
    "page": "getting-started",
    "type": "heading",
    "content": "The two commands",
    "url": "/docs/getting-started#the-two-commands",
    "context": "Getting started",
  },
  {
    "id": "getting-started:3",
    "page": "getting-started",
    "type": "text",
    "content":
      "deno task start runs fragment-cli serve examples/app.ts --static examples/spa. It loads the file, finds the module instances it exports (auth and messenger), migrates their tables in the embedded database (stored in ./.data/pglite, kept between runs), serves the example single-page app of examples/spa/ beside them and prints what it serves:",
    "url": "/docs/getting-started#the-two-commands",
    "context": "Getting started › The two commands",
  },
  {
    "id": "getting-started:4",
    "page": "getting-started",
    "type": "text",
    "content":
      "Each module answers under its mount route, /api/<module-name>, and describes its routes in an OpenAPI 3.1 document at <mount>/openapi.json (openapi.md); the files of examples/spa/ answer the other paths (index.html at /). Any path that is neither answers 404 with the list of mounts:",
    "url": "/docs/getting-started#the-two-commands",
    "context": "Getting started › The two commands",
  },
  {
    "id": "getting-started:5",
    "page": "getting-started",
    "type": "text",
    "content":
      "Set DATABASE_URL=postgres://… to use a PostgreSQL server instead of PGlite (see the CLI page for --migrate and the db commands), and then set FRAGMENT_SECRET too (openssl rand -base64 32, the same value in every process): it signs the API's list cursors. On PGlite, serve generates one at the first start and keeps it in .data/fragment-secret (see auth). Stop the server with Ctrl-C: it finishes the requests in flight and the background work, then exits.",
    "url": "/docs/getting-started#the-two-commands",
    "context": "Getting started › The two commands",
  },
  {
    "id": "getting-started#the-single-page-app",
    "page": "getting-started",
    "type": "heading",
    "content": "The single-page app",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started",
  },
  {
    "id": "getting-started:6",
    "page": "getting-started",
    "type": "text",
    "content":
      "Open http://localhost:8080/ in a browser while deno task start runs. The page is examples/spa/: plain HTML and one script, app.js, on the typed auth client. It needs no build step and no other server: serve hands out its files and the API on the same origin.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:7",
    "page": "getting-started",
    "type": "text",
    "content":
      "Type an email and a password (8 characters or more) and press Sign up: you are signed in, and the header says as whom. Sign out, then Sign in with the same credentials.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:8",
    "page": "getting-started",
    "type": "text",
    "content":
      "Under Your organizations, give a name (and, if you like, a slug such as engines) and press Create organization. Your first organization becomes the active one: its card lists its members (you, as owner).",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:9",
    "page": "getting-started",
    "type": "text",
    "content":
      "Type a colleague's email under the active organization and press Invite: the invitation shows under Pending invitations.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:10",
    "page": "getting-started",
    "type": "text",
    "content":
      "Create a second organization, then press its Switch button: it becomes the active one.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:11",
    "page": "getting-started",
    "type": "text",
    "content":
      "Reload the page. The app starts from one request, GET /api/auth/me, which carries the user, their organizations, the active one and their invitations; the active organization's members and invitations follow. Sign out ends the session: a reload shows the sign-in form again.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:12",
    "page": "getting-started",
    "type": "text",
    "content": "The example SPA, signed in",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:13",
    "page": "getting-started",
    "type": "text",
    "content": "How it works:",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:14",
    "page": "getting-started",
    "type": "text",
    "content":
      "The credential is the service_auth cookie the API sets (HttpOnly, SameSite=Lax): the page's script never sees it, and the browser sends it with every API call.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:15",
    "page": "getting-started",
    "type": "text",
    "content":
      "examples/spa/client.js is the typed client of src/client/ (createAuthClient from @app/fragment-cli/client, see the client page) bundled into one browser module by deno task spa:client (deno bundle). It is committed, so the page runs as cloned; run the task after changing src/client/ (a test fails while the bundle is stale).",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:16",
    "page": "getting-started",
    "type": "text",
    "content": "examples/spa/config.js says where the API is: /api/auth on the page's own origin.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:17",
    "page": "getting-started",
    "type": "text",
    "content":
      "Hosting the page elsewhere. To serve the same files from another origin (a CDN, or a dev server on another port), put the API's absolute address in config.js (export const API_BASE_URL = \"http://localhost:8080/api/auth\";) and list the page's origin in TRUSTED_ORIGINS (comma-separated) when starting the API:",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started:18",
    "page": "getting-started",
    "type": "text",
    "content":
      "The auth module then answers that origin's CORS preflights and requests with Access-Control-Allow-Credentials: true, so the cookie flows; every other origin is refused (no CORS headers, and a state-changing request from a page of an untrusted origin is answered 403 CSRF_REJECTED or 415). The browser tests (tests/browser/) run this very flow in headless Chromium from the API's origin and from a second, trusted origin, and check that a hostile third origin can neither write with the user's cookie nor sign them in to another account.",
    "url": "/docs/getting-started#the-single-page-app",
    "context": "Getting started › The single-page app",
  },
  {
    "id": "getting-started#sign-up-and-call-the-api",
    "page": "getting-started",
    "type": "heading",
    "content": "Sign up and call the API",
    "url": "/docs/getting-started#sign-up-and-call-the-api",
    "context": "Getting started",
  },
  {
    "id": "getting-started:19",
    "page": "getting-started",
    "type": "text",
    "content":
      'Every request and response body is JSON. Errors always have the same shape, {"error": {"code": "SNAKE_CASE_CODE", "message": "…"}}, plus issues for validation failures.',
    "url": "/docs/getting-started#sign-up-and-call-the-api",
    "context": "Getting started › Sign up and call the API",
  },
  {
    "id": "getting-started:20",
    "page": "getting-started",
    "type": "text",
    "content":
      "Create a user. The answer carries a bearer token, and a service_auth cookie with the same credential (HttpOnly, SameSite=Lax):",
    "url": "/docs/getting-started#sign-up-and-call-the-api",
    "context": "Getting started › Sign up and call the API",
  },
  {
    "id": "getting-started:21",
    "page": "getting-started",
    "type": "text",
    "content":
      "Keep the token and use it as Authorization: Bearer <token> (or send the cookie back):",
    "url": "/docs/getting-started#sign-up-and-call-the-api",
    "context": "Getting started › Sign up and call the API",
  },
  {
    "id": "getting-started:22",
    "page": "getting-started",
    "type": "text",
    "content":
      "GET /me is the start-up payload of a single-page application: the user, their organizations (each with their membership; the first 100), the active organization and their pending invitations (the first 100). Without a credential it answers 401.",
    "url": "/docs/getting-started#sign-up-and-call-the-api",
    "context": "Getting started › Sign up and call the API",
  },
  {
    "id": "getting-started#organizations",
    "page": "getting-started",
    "type": "heading",
    "content": "Organizations",
    "url": "/docs/getting-started#organizations",
    "context": "Getting started",
  },
  {
    "id": "getting-started:23",
    "page": "getting-started",
    "type": "text",
    "content": "Organizations are on by default. Create one, list yours, make it the active one:",
    "url": "/docs/getting-started#organizations",
    "context": "Getting started › Organizations",
  },
  {
    "id": "getting-started:24",
    "page": "getting-started",
    "type": "text",
    "content":
      "Members, roles and invitations (invite by email, accept or reject with the invitation token) are on the organizations page; credentials, cookies and sessions on the auth page.",
    "url": "/docs/getting-started#organizations",
    "context": "Getting started › Organizations",
  },
  {
    "id": "getting-started#send-a-webhook-update",
    "page": "getting-started",
    "type": "heading",
    "content": "Send a webhook update",
    "url": "/docs/getting-started#send-a-webhook-update",
    "context": "Getting started",
  },
  {
    "id": "getting-started:25",
    "page": "getting-started",
    "type": "text",
    "content":
      "The messenger module receives chat-messenger updates at POST /api/messenger/messenger/webhook (the route /messenger/webhook inside the module's mount). The header X-Messenger-Bot-Api-Secret-Token must equal the configured secret. The example app reads it from WEBHOOK_SECRET; when that is unset it makes up a random secret for the run, which it never shows (it only says on stderr that it did), so the webhook refuses every delivery. Start it with a secret you know:",
    "url": "/docs/getting-started#send-a-webhook-update",
    "context": "Getting started › Send a webhook update",
  },
  {
    "id": "getting-started:26",
    "page": "getting-started",
    "type": "text",
    "content":
      'The update is stored, then processed in the background as a durable hook: the example\'s handler logs [messenger] update 1001 (message) processed (its id and kind, never the text). Send the same update_id again and the answer is {"ok":true,"duplicate":true}: the update is stored and processed once, whatever the retries. A missing or wrong secret is a 401 and nothing is stored. See the webhook page; for a Telegram bot (WEBHOOK_SECRET_HEADER, setWebhook, grammY), Telegram bots.',
    "url": "/docs/getting-started#send-a-webhook-update",
    "context": "Getting started › Send a webhook update",
  },
  {
    "id": "getting-started#where-next",
    "page": "getting-started",
    "type": "heading",
    "content": "Where next",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started",
  },
  {
    "id": "getting-started:27",
    "page": "getting-started",
    "type": "text",
    "content": "Modules: write your own module: routes, validation, errors, mounting anywhere.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "getting-started:28",
    "page": "getting-started",
    "type": "text",
    "content":
      "Auth, organizations and webhook: the first-party modules in full; durable hooks: background work that survives restarts.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "getting-started:29",
    "page": "getting-started",
    "type": "text",
    "content": "Database and adapters: schemas, migrations, PGlite and PostgreSQL.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "getting-started:30",
    "page": "getting-started",
    "type": "text",
    "content": "CLI: serve, db generate, db migrate, db info.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "getting-started:31",
    "page": "getting-started",
    "type": "text",
    "content": "Search: fragment-cli search and this reference site.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "getting-started:32",
    "page": "getting-started",
    "type": "text",
    "content": "Development: tests on three runtimes, checks and packaging.",
    "url": "/docs/getting-started#where-next",
    "context": "Getting started › Where next",
  },
  {
    "id": "guarantees",
    "page": "guarantees",
    "type": "page",
    "content": "Guarantees",
    "url": "/docs/guarantees",
    "context": "",
  },
  {
    "id": "guarantees:1",
    "page": "guarantees",
    "type": "text",
    "content":
      "What fragment-cli promises while it runs as users run it: fragment-cli serve processes, a PostgreSQL server, real sockets, crashes and outages. Each promise below is backed by a test in tests/reliability/ that fails when the promise breaks; run them with",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:2",
    "page": "guarantees",
    "type": "text",
    "content": "(they are also part of deno task test, see How the tests run).",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:3",
    "page": "guarantees",
    "type": "text",
    "content":
      "Exactly-once storage | one record per update_id, however many deliveries reach however many processes | webhook_two_processes.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:4",
    "page": "guarantees",
    "type": "text",
    "content":
      "Acknowledged means stored | a webhook answered 200 is committed, even if the process dies right after | webhook_crash.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:5",
    "page": "guarantees",
    "type": "text",
    "content":
      "At-least-once hooks | every stored update is processed to the end, never by two workers at once | webhook_two_processes.test.ts, webhook_crash.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:6",
    "page": "guarantees",
    "type": "text",
    "content":
      "Database outages | 503 promptly while the database is down, nothing half-written, service resumes by itself | database_outage.test.ts, postgres_connection_loss.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:7",
    "page": "guarantees",
    "type": "text",
    "content":
      "Atomic migrations | a killed db migrate changes nothing; concurrent ones apply once and all succeed | migration_faults.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:8",
    "page": "guarantees",
    "type": "text",
    "content":
      "Bad input | no input produces a 5xx or a write; every error is the one JSON shape | route_fuzz.test.ts, unstorable_text.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:9",
    "page": "guarantees",
    "type": "text",
    "content":
      "Last owner | an organization always keeps an owner, also under concurrent demotions and departures | authorization_concurrency.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:10",
    "page": "guarantees",
    "type": "text",
    "content":
      "Single accept | an invitation is answered once; one membership | authorization_concurrency.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:11",
    "page": "guarantees",
    "type": "text",
    "content":
      "Revocation | a signed-out credential or a removed member is refused on the very next request | authorization_concurrency.test.ts",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:12",
    "page": "guarantees",
    "type": "text",
    "content":
      "No secrets in logs | no password, token, invitation token, webhook secret or database password is printed or echoed | secrets_in_output.test.ts and the last test of every file",
    "url": "/docs/guarantees",
    "context": "Guarantees",
  },
  {
    "id": "guarantees#exactly-once-storage",
    "page": "guarantees",
    "type": "heading",
    "content": "Exactly-once storage",
    "url": "/docs/guarantees#exactly-once-storage",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:13",
    "page": "guarantees",
    "type": "text",
    "content":
      'Each accepted update is stored once per update_id, atomically with the durable hook occurrence that processes it (one statement). Repeated deliveries, also concurrent ones on different serve processes sharing one database, answer 200 {"ok": true, "duplicate": true} and write nothing; exactly one delivery per update_id answers 200 {"ok": true}. The stored body is the request body byte for byte.',
    "url": "/docs/guarantees#exactly-once-storage",
    "context": "Guarantees › Exactly-once storage",
  },
  {
    "id": "guarantees:14",
    "page": "guarantees",
    "type": "text",
    "content":
      'Test. Two serve processes, one on Deno and one on Node, on one PostgreSQL database take 2,000 deliveries of 200 distinct update_ids (each id 10 times, the copies in flight at once on both processes, 32 connections): every answer is 200, exactly one per id is "new", the table holds exactly the 200 ids with their bodies verbatim, and each has one hook occurrence done in one attempt.',
    "url": "/docs/guarantees#exactly-once-storage",
    "context": "Guarantees › Exactly-once storage",
  },
  {
    "id": "guarantees#acknowledged-means-stored",
    "page": "guarantees",
    "type": "heading",
    "content": "Acknowledged means stored",
    "url": "/docs/guarantees#acknowledged-means-stored",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:15",
    "page": "guarantees",
    "type": "text",
    "content":
      "The webhook answers 200 only after the statement storing the update and its hook committed. A process killed mid-load (kill -9) loses no acknowledged update. A delivery that got no answer (the process died before or after committing) is safe to retry: it is stored once either way.",
    "url": "/docs/guarantees#acknowledged-means-stored",
    "context": "Guarantees › Acknowledged means stored",
  },
  {
    "id": "guarantees:16",
    "page": "guarantees",
    "type": "text",
    "content":
      "Test. Two serve processes take 600 deliveries; one is killed with SIGKILL while its worker is inside handlers. Every delivery answered 200 is in the table; the deliveries that got no answer are retried on the restarted process and all answer 200.",
    "url": "/docs/guarantees#acknowledged-means-stored",
    "context": "Guarantees › Acknowledged means stored",
  },
  {
    "id": "guarantees#at-least-once-hooks",
    "page": "guarantees",
    "type": "heading",
    "content": "At-least-once hooks",
    "url": "/docs/guarantees#at-least-once-hooks",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:17",
    "page": "guarantees",
    "type": "text",
    "content":
      "Every stored update's hook runs until it succeeds (with backoff, up to maxAttempts), outside the webhook request. A claimed occurrence is leased to one worker (FOR UPDATE SKIP LOCKED, lease renewed while the handler runs, completion fenced by the attempt number), so two workers never run one occurrence at the same time, whichever processes they live in. Without failures each occurrence runs exactly once. A worker that dies mid-run leaves its occurrence leased; it runs again once the lease expires (leaseMs, default 60 s) — the handler may then run a second time for the same update, so make handlers idempotent (key the work by event.updateId).",
    "url": "/docs/guarantees#at-least-once-hooks",
    "context": "Guarantees › At-least-once hooks",
  },
  {
    "id": "guarantees:18",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. With two processes, the 200 updates give exactly 200 handler runs, all completed (the handler records each run's start and end in a table). After the kill -9, every stored update's handler completes, the runs the kill interrupted are rerun by another worker, and no two runs of one update overlap in time (a run of the killed process ends, at the latest, when it died).",
    "url": "/docs/guarantees#at-least-once-hooks",
    "context": "Guarantees › At-least-once hooks",
  },
  {
    "id": "guarantees#database-outages",
    "page": "guarantees",
    "type": "heading",
    "content": "Database outages",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:19",
    "page": "guarantees",
    "type": "text",
    "content": "While PostgreSQL is unreachable:",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:20",
    "page": "guarantees",
    "type": "text",
    "content":
      'every request that needs the database answers 503 {"error": {"code": "SERVICE_UNAVAILABLE", …}} with Retry-After: 5, within the adapter\'s connect timeout (10 s); a refused connection is retried after at most 2 s, so in practice the answer comes within about 2 s (the test measures and prints it; about 1.5 s on the 2-core CI machine);',
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:21",
    "page": "guarantees",
    "type": "text",
    "content":
      "nothing is half-written: an update and its hook occurrence (one statement), a user and their first session, an organization and its owner's membership (one transaction each) are stored together or not at all;",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:22",
    "page": "guarantees",
    "type": "text",
    "content":
      "the hook worker keeps polling; attempts the outage interrupted run again (after their lease when their outcome could not be written).",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:23",
    "page": "guarantees",
    "type": "text",
    "content":
      "When it is back, the same serve process answers normally within about a second, without a restart, and the hook worker processes what was stored.",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:24",
    "page": "guarantees",
    "type": "text",
    "content":
      "A transaction whose connection the server closes (restart, failover, pg_terminate_backend) fails with DatabaseUnavailableError (503 at the HTTP boundary) and leaves the process running.",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:25",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. database_outage.test.ts starts a private PostgreSQL cluster (initdb in a temporary directory, its own port, a password), serves the auth and messenger modules on it from three serve processes — one per runtime (Deno, Node, Bun), since drivers fail and recover differently on each — and stops it with pg_ctl stop -m immediate under mixed load (webhook deliveries, sign-ups, GET /me, organization creation, 4 connections, every kind on every process): the 60+ requests sent while it is down all answer 503 in the error shape before the client's 10 s deadline; after pg_ctl start the same processes serve again (a whole round of 30 mixed requests succeeds; rounds before it are printed), no update lacks its hook occurrence (or the reverse), no user lacks a session, no organization lacks a member, every sign-up answered 200 has its user, and every stored update is processed. postgres_connection_loss.test.ts terminates the backend of running transactions in six ways (next statement, after the close, COMMIT, ROLLBACK, a swallowed error, a savepoint) in a child process on each runtime: each transaction rejects, writes nothing, and the process survives.",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees:26",
    "page": "guarantees",
    "type": "text",
    "content":
      "Fixes made for this. postgres.js 3.4.9 crashed the process (an uncaught TypeError from its write of COMMIT/ROLLBACK on the closed socket, porsager/postgres#1208) — postgresAdapter now never lets postgres.js write on a transaction's connection once it is gone. postgres.js's reconnect backoff grew to 20 s, so requests took up to 20 s to fail during an outage and kept failing up to 20 s after it; the adapter caps it at 2 s.",
    "url": "/docs/guarantees#database-outages",
    "context": "Guarantees › Database outages",
  },
  {
    "id": "guarantees#atomic-migrations",
    "page": "guarantees",
    "type": "heading",
    "content": "Atomic migrations",
    "url": "/docs/guarantees#atomic-migrations",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:27",
    "page": "guarantees",
    "type": "text",
    "content":
      "db migrate applies all pending steps of one namespace in one transaction under an advisory lock and moves the recorded version with a compare-and-set (see database). A migrator killed at any point leaves the version, the DDL and the data as they were (the server rolls the transaction back when the client is gone); the next run applies everything. Two migrators at once both exit 0; the steps are applied once.",
    "url": "/docs/guarantees#atomic-migrations",
    "context": "Guarantees › Atomic migrations",
  },
  {
    "id": "guarantees:28",
    "page": "guarantees",
    "type": "text",
    "content":
      'Test. A namespace at version 1 with 1,000,000 rows; db migrate to version 4 (create a table, rewrite every row, create an index) is killed with SIGKILL while the row rewrite runs: afterwards db info says version 1, the new table and index do not exist, the row count and the sum of the rewritten column are unchanged, no advisory lock is held; a rerun reports version 1 → 4 and the rows were rewritten once. Two concurrent db migrate on another namespace: both exit 0, exactly one reports applying, the other "already at version 4", and the rewrite happened once (the sum moved by the row count, not twice).',
    "url": "/docs/guarantees#atomic-migrations",
    "context": "Guarantees › Atomic migrations",
  },
  {
    "id": "guarantees#bad-input",
    "page": "guarantees",
    "type": "heading",
    "content": "Bad input",
    "url": "/docs/guarantees#bad-input",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:29",
    "page": "guarantees",
    "type": "text",
    "content":
      'No request, however malformed, makes a route answer 5xx or write anything it rejects. Every error is {"error": {"code": "SNAKE_CASE", "message": "…"}} with Content-Type: application/json (405 with Allow), and no error body contains a secret.',
    "url": "/docs/guarantees#bad-input",
    "context": "Guarantees › Bad input",
  },
  {
    "id": "guarantees:30",
    "page": "guarantees",
    "type": "text",
    "content":
      "Test. Property-based fuzzing with fast-check of every route of every first-party module (authModule.routes and messengerModule.routes: 21 routes), in-process through fetch, on PGlite and on the PostgreSQL server, 5,000 cases per database per run under Deno (1,000 under Node and Bun, which rerun the generators against their own Request, URL and Headers). Requests mix the route's own method with others; path parameters from real ids (some spoiled) or odd text (bad percent-encoding, %00, dot segments, lone surrogates, SQL and HTML); query strings with real cursors tampered (a character flipped, truncated, doubled, upper-cased) and absurd page sizes; credentials valid, tampered, missing, duplicated, conflicting (cookie vs Bearer), cross-origin; right, wrong, duplicated and padded webhook secrets; bodies shaped like what each route reads with one field spoiled or carrying U+0000 or a lone surrogate, random JSON, invalid JSON, invalid UTF-8, 64 to 100,000 levels of nesting, and bodies over the limits. After every rejected request the row count and an MD5 of the rows of every table in the auth and messenger namespaces must be unchanged; after an accepted one the world repairs itself (signs people in again, recreates the organizations) and takes a new baseline. Half of the cases are well-formed around their body (the route's own method and path, real ids for its path parameters, a valid Bearer credential), so the spoiled fields reach the handlers' deep branches; fully random cases alone answered 201 about 3 times in 1,000 and, in one run of about twenty, not at all. Three cases run first (a created organization, a slug conflict, a body over the limit). The run also requires every route to be exercised and 200, 201, 204, 400, 401, 403, 404, 405, 409 and 413 to occur, so generators that stop reaching the routes fail the test.",
    "url": "/docs/guarantees#bad-input",
    "context": "Guarantees › Bad input",
  },
  {
    "id": "guarantees:31",
    "page": "guarantees",
    "type": "text",
    "content":
      "The seed is printed (route fuzzing (postgres): seed 835982542 …); FUZZ_SEED=<n> replays a run exactly (the same seed gives the same statuses on PGlite and PostgreSQL), FUZZ_RUNS=<n> changes the number of cases. On failure fast-check prints the shrunk request.",
    "url": "/docs/guarantees#bad-input",
    "context": "Guarantees › Bad input",
  },
  {
    "id": "guarantees:32",
    "page": "guarantees",
    "type": "text",
    "content":
      "Found by the fuzzer and fixed: an organization name, logo URL or metadata containing U+0000 answered 500 (PostgreSQL text and jsonb cannot hold NUL), and a lone surrogate was either refused by the server (500) or silently stored as U+FFFD; they are now 400 VALIDATION_ERROR. A sign-in with such an email address answered 500; it is now 401 INVALID_CREDENTIALS like any unknown address (unstorable_text.test.ts keeps these cases on both databases).",
    "url": "/docs/guarantees#bad-input",
    "context": "Guarantees › Bad input",
  },
  {
    "id": "guarantees#last-owner",
    "page": "guarantees",
    "type": "heading",
    "content": "Last owner",
    "url": "/docs/guarantees#last-owner",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:33",
    "page": "guarantees",
    "type": "text",
    "content":
      "An organization always has at least one owner. Every change of roles and every removal locks the organization row first, then counts the other owners, so concurrent requests serialize on it, in one process or many.",
    "url": "/docs/guarantees#last-owner",
    "context": "Guarantees › Last owner",
  },
  {
    "id": "guarantees:34",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. Over two serve processes: 50 owners of one organization demote themselves or leave, all at once: exactly 49 succeed, exactly one gets 409 LAST_OWNER, and that one is the owner left. Two owners removing each other, 25 requests each at once: one removal wins, the others get 404, and the winner is the only owner.",
    "url": "/docs/guarantees#last-owner",
    "context": "Guarantees › Last owner",
  },
  {
    "id": "guarantees#single-accept",
    "page": "guarantees",
    "type": "heading",
    "content": "Single accept",
    "url": "/docs/guarantees#single-accept",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:35",
    "page": "guarantees",
    "type": "text",
    "content":
      "An invitation leaves pending once: the status change is a conditional update inside the accepting transaction. Concurrent answers give one success and 409 INVITATION_NOT_PENDING for the rest, and one membership.",
    "url": "/docs/guarantees#single-accept",
    "context": "Guarantees › Single accept",
  },
  {
    "id": "guarantees:36",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. 50 concurrent accepts of one invitation from four credentials of the invitee over two processes: one 200, 49 × 409, one membership row. 25 accepts and 25 rejects at once: exactly one applies, and the stored status and membership match it.",
    "url": "/docs/guarantees#single-accept",
    "context": "Guarantees › Single accept",
  },
  {
    "id": "guarantees#revocation",
    "page": "guarantees",
    "type": "heading",
    "content": "Revocation",
    "url": "/docs/guarantees#revocation",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:37",
    "page": "guarantees",
    "type": "text",
    "content":
      "Credentials and memberships are read from the database on every request. No process answers from a cache it has not checked in that request: GET /me keeps its organization entries and invitations, but reuses them only when the request's own statement finds their rows unchanged (see organizations.md). After POST /sign-out answered, the credential gets 401 on the very next request, on any process; after a member's removal answered, that member gets 404 for the organization on the very next request.",
    "url": "/docs/guarantees#revocation",
    "context": "Guarantees › Revocation",
  },
  {
    "id": "guarantees:38",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. 20 rounds of sign-in, GET /me on one process, sign-out on it, GET /me on the other process: 401 every time. A credential used by 16 concurrent request loops on both processes: every request sent after the sign-out answered gets 401. 10 rounds of add member, read, remove, read on the other process: 404 every time. me_kept (PGlite and PostgreSQL): after every kind of change made by another module instance or by plain SQL (rename, role change, membership added or removed, organization deleted, invitation sent, answered or expired), the kept /me answer is the one a fresh instance gives.",
    "url": "/docs/guarantees#revocation",
    "context": "Guarantees › Revocation",
  },
  {
    "id": "guarantees#no-secrets-in-logs",
    "page": "guarantees",
    "type": "heading",
    "content": "No secrets in logs",
    "url": "/docs/guarantees#no-secrets-in-logs",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:39",
    "page": "guarantees",
    "type": "text",
    "content":
      "No password, session token, invitation token, webhook secret or database password appears in what the processes print (with DEBUG=1 and --verbose too) or in an error body. Database URLs are printed with *** for the password; a malformed DATABASE_URL is reported without repeating it (postgres.js quoted it whole, password included: fixed in postgresAdapter). A printed SqlError shows no query parameters: PGlite attached every parameter of the failed query to its error, which became the SqlError's cause and was printed with it; the adapters now keep that copy non-enumerable, as postgres.js does (adapter_contract.test.ts). PostgreSQL's own message may still quote the one value it rejected (invalid input syntax for type integer: \"…\").",
    "url": "/docs/guarantees#no-secrets-in-logs",
    "context": "Guarantees › No secrets in logs",
  },
  {
    "id": "guarantees:40",
    "page": "guarantees",
    "type": "text",
    "content":
      "Tests. Every test file of the suite captures the stdout and stderr of every process it starts (and, for the fuzzer, the console of the modules called in-process), registers every secret it creates, and ends with a test searching all of it. secrets_in_output.test.ts adds the risky paths: db info, db migrate --verbose and serve with a malformed and an unreachable DATABASE_URL carrying a password, with and without DEBUG=1; and a served system (DEBUG=1) taking failed sign-ins (the wrong password is a secret too), tampered tokens as Bearer and cookie, a CSRF-rejected cookie request, conflicting credentials, a wrong invitation token, and near-miss, lower-cased and missing webhook secrets — searching the output and every error body.",
    "url": "/docs/guarantees#no-secrets-in-logs",
    "context": "Guarantees › No secrets in logs",
  },
  {
    "id": "guarantees#how-the-tests-run",
    "page": "guarantees",
    "type": "heading",
    "content": "How the tests run",
    "url": "/docs/guarantees#how-the-tests-run",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:41",
    "page": "guarantees",
    "type": "text",
    "content":
      'Real processes: fragment-cli serve and db migrate started with tests/reliability/helpers/serve_process.ts (any runtime; kill("SIGKILL") is a real kill -9), the app tests/reliability/fixtures/system_app.ts (auth + messenger on DATABASE_URL, the handler recording its runs), a fresh PostgreSQL database per file on 127.0.0.1:5432, real sockets; traffic only to 127.0.0.1. Every scenario is bounded in count and time and stops by itself; waits are bounded against hanging, not timing thresholds.',
    "url": "/docs/guarantees#how-the-tests-run",
    "context": "Guarantees › How the tests run",
  },
  {
    "id": "guarantees:42",
    "page": "guarantees",
    "type": "text",
    "content":
      "The outage test needs the PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin) to run its own cluster; as root it runs them as the postgres OS user with runuser. Without the binaries it is skipped.",
    "url": "/docs/guarantees#how-the-tests-run",
    "context": "Guarantees › How the tests run",
  },
  {
    "id": "guarantees:43",
    "page": "guarantees",
    "type": "text",
    "content":
      "Runtimes. The tests that start processes (tests/reliability/processes/) run under Deno only (DENO_ONLY in scripts/test.ts) and start serve on other runtimes themselves where the runtime matters: the outage test runs one serve per runtime, the exactly-once test a Deno and a Node process. Run under all three runtimes they cost about 5 more minutes of deno task test for the same processes on a different runner. The in-process tests (route_fuzz, unstorable_text, and postgres_connection_loss, whose child process is the runtime under test) run under Deno, Node and Bun: how Request, URL, Headers, the body decoder and the driver behave is runtime-specific.",
    "url": "/docs/guarantees#how-the-tests-run",
    "context": "Guarantees › How the tests run",
  },
  {
    "id": "guarantees:44",
    "page": "guarantees",
    "type": "text",
    "content":
      "Duration, measured on the 2-core machine: deno task test:reliability 2 min 49 s quiet, 4 min 20 s while other work ran on it (load average 6–8); most of it is the process tests and the 2 × 5,000 fuzz cases under Deno. The whole deno task test (without its check step) took 16 min 19 s under that load with these tests, about 12 minutes of it the rest of the suite; run under all three runtimes the process tests took it past 20 minutes, hence the split above.",
    "url": "/docs/guarantees#how-the-tests-run",
    "context": "Guarantees › How the tests run",
  },
  {
    "id": "guarantees#each-test-fails-when-its-promise-breaks",
    "page": "guarantees",
    "type": "heading",
    "content": "Each test fails when its promise breaks",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:45",
    "page": "guarantees",
    "type": "text",
    "content":
      "Every property was broken on purpose once, in a scratch checkout, and its test was seen failing:",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:46",
    "page": "guarantees",
    "type": "text",
    "content":
      'the webhook reports a repeated update_id as new | webhook_two_processes: "no update_id answered as new twice"',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:47",
    "page": "guarantees",
    "type": "text",
    "content":
      'the update insert without ON CONFLICT DO NOTHING | webhook_two_processes: "1800 deliveries did not answer 200 ok"',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:48",
    "page": "guarantees",
    "type": "text",
    "content":
      'the hook claim without FOR UPDATE SKIP LOCKED | webhook_two_processes: "each ran in one attempt"',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:49",
    "page": "guarantees",
    "type": "text",
    "content":
      'lease renewal that does not extend the lease (lease 400 ms, handler 150 ms; passes with renewal) | webhook_crash: "no run overlaps another"',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:50",
    "page": "guarantees",
    "type": "text",
    "content":
      "postgres.js's 20 s reconnect backoff restored | database_outage: requests time out at the 10 s deadline",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:51",
    "page": "guarantees",
    "type": "text",
    "content":
      "the transaction guard of postgresAdapter removed | postgres_connection_loss: the child process dies (Deno, Node, Bun)",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:52",
    "page": "guarantees",
    "type": "text",
    "content":
      'each migration step in its own transaction | migration_faults: "version 1, no audit table, rows unchanged" (audit: true)',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:53",
    "page": "guarantees",
    "type": "text",
    "content":
      "the migration runner without its advisory lock | migration_faults: the second concurrent db migrate exits 1",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:54",
    "page": "guarantees",
    "type": "text",
    "content":
      'organization names no longer checked for U+0000 | route_fuzz (FUZZ_SEED=42): 500, shrunk to {"name": "\\u0000Acme", "slug": "0-a"}',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:55",
    "page": "guarantees",
    "type": "text",
    "content":
      'a failed sign-in that touches the user row | route_fuzz: "a rejected request wrote", shrunk to one wrong-password sign-in',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:56",
    "page": "guarantees",
    "type": "text",
    "content":
      "member routes without the organization row lock | authorization_concurrency: all 50 demotions succeed, no owner left",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:57",
    "page": "guarantees",
    "type": "text",
    "content":
      "the invitation answer without status = 'pending' in its update | authorization_concurrency: 44 accepts answered 200",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:58",
    "page": "guarantees",
    "type": "text",
    "content":
      "an in-process cache of sessions | authorization_concurrency: GET /me after sign-out answers 200",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:59",
    "page": "guarantees",
    "type": "text",
    "content":
      'GET /me reusing its kept entries without the request\'s validator | me_kept: "shows every change made by another instance in the next answer"',
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:60",
    "page": "guarantees",
    "type": "text",
    "content":
      "sign-in logs the email and password | secrets_in_output (and every file's last test): the leaks list is not empty",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees:61",
    "page": "guarantees",
    "type": "text",
    "content":
      "the malformed-URL check of postgresAdapter removed | secrets_in_output: the password is in db info's error line",
    "url": "/docs/guarantees#each-test-fails-when-its-promise-breaks",
    "context": "Guarantees › Each test fails when its promise breaks",
  },
  {
    "id": "guarantees#what-is-not-promised",
    "page": "guarantees",
    "type": "heading",
    "content": "What is not promised",
    "url": "/docs/guarantees#what-is-not-promised",
    "context": "Guarantees",
  },
  {
    "id": "guarantees:62",
    "page": "guarantees",
    "type": "text",
    "content":
      "Exactly-once processing. Hooks are at-least-once: after a crash (or a lost connection while an outcome was being written) a handler can run again for the same update.",
    "url": "/docs/guarantees#what-is-not-promised",
    "context": "Guarantees › What is not promised",
  },
  {
    "id": "guarantees:63",
    "page": "guarantees",
    "type": "text",
    "content":
      "Instant takeover. A killed worker's occurrences wait for their lease (leaseMs) before another worker runs them.",
    "url": "/docs/guarantees#what-is-not-promised",
    "context": "Guarantees › What is not promised",
  },
  {
    "id": "guarantees:64",
    "page": "guarantees",
    "type": "text",
    "content":
      "Unlimited retries through long outages. Each interrupted attempt counts towards maxAttempts; an update whose attempts run out is failed and needs api.retryFailed().",
    "url": "/docs/guarantees#what-is-not-promised",
    "context": "Guarantees › What is not promised",
  },
  {
    "id": "guarantees:65",
    "page": "guarantees",
    "type": "text",
    "content":
      "Known upstream defects of postgres.js 3.4.9 (the PostgreSQL driver), seen while testing and not worked around: after the server terminates a pooled connection, the first query that reconnects it can fail once with the old 57P01 error (one extra 503 per such connection); and serve may take up to 5 s to stop after an outage, while the pool closes connections it was still reconnecting.",
    "url": "/docs/guarantees#what-is-not-promised",
    "context": "Guarantees › What is not promised",
  },
  {
    "id": "hooks",
    "page": "hooks",
    "type": "page",
    "content": "Durable hooks",
    "url": "/docs/hooks",
    "context": "",
  },
  {
    "id": "hooks:1",
    "page": "hooks",
    "type": "text",
    "content":
      "A durable hook is background work a module promises to do because something happened: send the welcome mail of a new user, process a received webhook update. The module records an occurrence of the hook in the same transaction as the data that caused it; a worker runs it afterwards, outside the request, and retries it until it succeeds or runs out of attempts. Nothing is lost when the process stops or no worker runs: occurrences wait in the database.",
    "url": "/docs/hooks",
    "context": "Durable hooks",
  },
  {
    "id": "hooks#in-a-module",
    "page": "hooks",
    "type": "heading",
    "content": "In a module",
    "url": "/docs/hooks#in-a-module",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:2",
    "page": "hooks",
    "type": "text",
    "content":
      "The same code is in docs/examples/durable_hooks.ts, run by the test suite. A module hands the hooks to createModule({ …, background: hooks }): the module's first request then starts the worker, wherever the module is mounted (serve() and fragment-cli serve also start it once they listen), and module.close() (or serve()'s shutdown) stops it. autoStart: false leaves it to module.background.start() or module.background.drain(); see background work, with the Deno Deploy set-up (Deno.cron and a drain after each response).",
    "url": "/docs/hooks#in-a-module",
    "context": "Durable hooks › In a module",
  },
  {
    "id": "hooks#the-hook-table",
    "page": "hooks",
    "type": "heading",
    "content": "The hook table",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:3",
    "page": "hooks",
    "type": "text",
    "content":
      "withHookTable(builder) appends the table hook_occurrences to the module's schema (one createTable and three addIndex steps, four versions), so it lives in the module's namespace and is created by the module's migrations. Those steps never change: schema histories are append-only and fingerprinted, so a future change to the table will be a new helper appended after it.",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:4",
    "page": "hooks",
    "type": "text",
    "content": "id | bigint identity, given to handlers as a decimal string",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:5",
    "page": "hooks",
    "type": "text",
    "content": "name, key | the hook and the deduplication key; (name, key) is unique",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:6",
    "page": "hooks",
    "type": "text",
    "content": "payload | jsonb data for the handler",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:7",
    "page": "hooks",
    "type": "text",
    "content": "status | pending, running, done, failed, cancelled or blocked",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:8",
    "page": "hooks",
    "type": "text",
    "content": "attempts | attempts started so far",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:9",
    "page": "hooks",
    "type": "text",
    "content": "due_at | pending: when it is due; running: when its lease expires",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:10",
    "page": "hooks",
    "type": "text",
    "content": "leased_by | the worker running it (process id and a random suffix)",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:11",
    "page": "hooks",
    "type": "text",
    "content":
      "last_error | the error (stack) of the latest failed attempt, kept after a later success",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:12",
    "page": "hooks",
    "type": "text",
    "content":
      "created_at, updated_at, finished_at | timestamps (finished_at: done, failed or cancelled)",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:13",
    "page": "hooks",
    "type": "text",
    "content": "errors | with withHookErrorLog: the latest 20 failed attempts' errors (see below)",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:14",
    "page": "hooks",
    "type": "text",
    "content": "order_key | with withHookOrdering: the ordering key (ordering)",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks:15",
    "page": "hooks",
    "type": "text",
    "content":
      "The error log. withHookErrorLog(builder), appended after withHookTable (one addColumn step, one version), adds errors: a jsonb array of { attempt, at, error }, oldest first, the latest 20 failed attempts of the occurrence (HOOK_ERROR_LOG_LENGTH), kept across a retry by an operator. fragment-cli hooks show prints it. The auth and messenger modules append it (auth version 25, messenger version 6). A hook table without it keeps only last_error; the workers find out which by asking the database, so code and databases at either version work together.",
    "url": "/docs/hooks#the-hook-table",
    "context": "Durable hooks › The hook table",
  },
  {
    "id": "hooks#enqueueing",
    "page": "hooks",
    "type": "heading",
    "content": "Enqueueing",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:16",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.enqueue(tx, { name, key?, payload?, runAt?, orderKey? }) inserts through the transaction tx (or the adapter, for an occurrence on its own):",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:17",
    "page": "hooks",
    "type": "text",
    "content":
      "Rolled back with the transaction: no occurrence without its data, no data without its occurrence.",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:18",
    "page": "hooks",
    "type": "text",
    "content":
      "key deduplicates per namespace: enqueueing an existing (name, key) inserts nothing and answers { id: <the existing id>, duplicate: true }, not an error. Two instances of a module in two namespaces of one database never collide. Without a key every enqueue is a new occurrence.",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:19",
    "page": "hooks",
    "type": "text",
    "content": "runAt delays it (a Date); the default is now.",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:20",
    "page": "hooks",
    "type": "text",
    "content": "orderKey orders it after the unfinished occurrences of the same key (ordering).",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:21",
    "page": "hooks",
    "type": "text",
    "content": "Unknown hook names throw a TypeError at once.",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:22",
    "page": "hooks",
    "type": "text",
    "content":
      "In your own statement. hooks.enqueueSql(occurrence, { from?, firstParam?, payloadSql?, keySql? }) returns the same INSERT as { sql, params }, to embed as a CTE of a statement that writes the data: one round trip, no BEGIN/COMMIT, atomic all the same. With from (a relation of that statement) it inserts one occurrence per row of it, so none when the row was not written; payloadSql computes the payload from that row (values the statement itself creates, such as a generated id), and keySql its key, so that a statement writing many rows enqueues one occurrence per row, each with its own key. It sends no notification: call hooks.wake() after the statement. The messenger stores its updates this way (a group of deliveries per statement, keyed by inserted.update_id::text), and the auth module adds members this way:",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks:23",
    "page": "hooks",
    "type": "text",
    "content": "(signUpInOneStatement in docs/examples/durable_hooks.ts, run by the test suite.)",
    "url": "/docs/hooks#enqueueing",
    "context": "Durable hooks › Enqueueing",
  },
  {
    "id": "hooks#workers",
    "page": "hooks",
    "type": "heading",
    "content": "Workers",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:24",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.start() starts a worker in this process; a module's first request (and serve()) does it for the module's hooks. hooks.stop() stops claiming and waits for the running handlers to finish. The worker's idle waits do not keep a process alive (a server, or whatever else the process waits for, does), and a worker whose database adapter the application closed stops quietly. A worker:",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:25",
    "page": "hooks",
    "type": "text",
    "content":
      "claims due occurrences of its hooks with SELECT … FOR UPDATE SKIP LOCKED and a lease (leaseMs): several processes on one database share the work and never run one occurrence at the same time. It runs at most concurrency handlers at once; while its handlers are quick (under 20 ms on average) it claims up to 32 per statement and starts the others as slots free (a claimed occurrence that waited a third of its lease has it renewed first), so a backlog costs one claim per 32 occurrences, not one each. Slow handlers get no prefetch, so a worker never holds occurrences that an idle worker elsewhere could run. stop() hands the claimed occurrences that have not started back at once (attempt not counted). A claim reads the due index in order and stops after its batch, however many occurrences wait, even on a table PostgreSQL has no statistics for yet (a new one, or one that grew faster than autovacuum analyzes it): its transaction turns sequential scans and sorts off for itself, where PostgreSQL would otherwise read and sort every waiting row for each claim (16 ms per claim at 20,000 waiting instead of 0.1 ms);",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:26",
    "page": "hooks",
    "type": "text",
    "content":
      "runs the handlers outside any transaction, renewing the lease while a handler runs;",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:27",
    "page": "hooks",
    "type": "text",
    "content":
      "marks the occurrence done (attempts that end in the same turn of the event loop, or while such a write is in flight, are marked together by one statement, found by primary key the same way), or records the error and schedules the next attempt after an exponential backoff with jitter (retryDelayMs × 2^(attempt-1), capped at maxRetryDelayMs, then scaled by a random factor in [0.5, 1)), or marks it failed after maxAttempts attempts with its last error kept.",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:28",
    "page": "hooks",
    "type": "text",
    "content":
      "A worker that dies leaves its occurrences running; once their lease expires they are due again and another worker runs them (attempt n + 1). A dead worker's last allowed attempt ends failed with the reason. Every write of an outcome is fenced by the attempt number, so a worker whose lease was taken over cannot overwrite the newer attempt's result.",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:29",
    "page": "hooks",
    "type": "text",
    "content":
      "Wake-up: enqueue() sends a PostgreSQL NOTIFY inside the transaction, so every listening worker, in this process or another, looks for work as soon as the transaction commits (PGlite delivers it in-process). wake() wakes this process's worker without a round trip, and the other processes with a NOTIFY sent outside any transaction: at most one every 20 ms, one in flight at a time (under load wake() runs per request, and a NOTIFY each would add a statement to every request). Polling every pollIntervalMs bounds the delay when a notification is missed or LISTEN is unavailable, and the worker sleeps exactly until the next scheduled retry otherwise.",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:30",
    "page": "hooks",
    "type": "text",
    "content":
      "Across processes on PostgreSQL, an idle worker starts an occurrence committed by another process 3.6 ms after the commit at the median (13 ms at p99), the same as a worker in the committing process (3.3 ms), with workers polling only every 30 s: the notification starts it, not the poll (benchmark scenario 9). PGlite is single-process: its NOTIFY reaches the workers of the process that holds the database only, and a PGlite data directory is open in one process at a time, so every worker of a PGlite database runs in that process.",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks:31",
    "page": "hooks",
    "type": "text",
    "content":
      "Hooks are at-least-once: a handler can run again after a crash between its side effect and the done write. Handlers receive { id, name, key, attempt, maxAttempts } to make their effect idempotent (an idempotency key, an upsert, a check of what was already done).",
    "url": "/docs/hooks#workers",
    "context": "Durable hooks › Workers",
  },
  {
    "id": "hooks#ordering",
    "page": "hooks",
    "type": "heading",
    "content": "Ordering",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:32",
    "page": "hooks",
    "type": "text",
    "content":
      "An occurrence may carry an ordering key: occurrences with the same key run one at a time, in the order they were enqueued; different keys (and occurrences without a key) run in parallel, on any worker of any process. Use it for work whose effects must not cross: the replies of a bot in one chat, the events of one account sent to a partner.",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:33",
    "page": "hooks",
    "type": "text",
    "content":
      "It needs the ordering steps in the module's schema: withHookOrdering(builder), appended after withHookTable (three steps: the column order_key, a partial index on (order_key, id) over the unfinished occurrences, and two trigger functions, raw SQL). The auth module appends it as versions 26–28, the messenger as 7–9. On a hook table without them, enqueue() with an orderKey throws a TypeError naming withHookOrdering(), and everything else works as before. enqueueSql() takes orderKeySql, an expression of the row of from (NULL: no key), like keySql.",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:34",
    "page": "hooks",
    "type": "text",
    "content":
      "How it works. An occurrence enqueued while its key has an unfinished one (pending, including one waiting for a retry, running or blocked) is stored blocked; a claim never reads blocked rows (they are not in the due index), so a deep backlog on a few keys costs the claim nothing. When the key's pending or running occurrence finishes (done, failed out of attempts, cancelled, or deleted), the key's oldest blocked occurrence becomes pending in the same transaction. Both sides are triggers on the hook table, and both take a transaction-scoped advisory lock on (namespace, key): an enqueue and a finish of one key never miss each other, across processes. Statements that enqueue many keys (the messenger's grouped deliveries) insert them in the order of the locks' ids, so two of them never deadlock; a finishing worker holding several keys only tries their locks and finishes the busy ones one key per transaction. (A transaction of your own that enqueues several keys takes their locks in the order it enqueues; two such transactions enqueueing the same keys in opposite orders can deadlock, and PostgreSQL then fails one of them.)",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:35",
    "page": "hooks",
    "type": "text",
    "content":
      "Retries and failures. An occurrence waiting for a retry holds its key: the later ones wait for it to succeed. Once it has failed (out of attempts) or an operator cancelled it, the key moves on, and the failed occurrence stays visible (fragment-cli hooks list --status failed).",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:36",
    "page": "hooks",
    "type": "text",
    "content":
      "retry of a failed occurrence whose key moved on. It re-enters its key's chain where it can: if the key has an unfinished occurrence at that moment, it becomes blocked behind the one pending or running, and runs right after it, before the key's later occurrences still blocked (it was enqueued before them, and release goes by enqueue order); if the key is idle, it is pending at once. It never overtakes an occurrence already running, and occurrences of the key that ran meanwhile are not run again. Several failed occurrences of one key retried together keep their order. Cancelling a blocked occurrence releases nothing (the key's pending one still holds it); cancelling the pending or running one releases the next.",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:37",
    "page": "hooks",
    "type": "text",
    "content":
      'Operators see blocked hooks with fragment-cli hooks app.ts list --status blocked (their next run reads "after the earlier hooks of its order key"), show prints the order key, and db info adds N blocked to a namespace\'s hooks line when there are any (blocked in --json always).',
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks:38",
    "page": "hooks",
    "type": "text",
    "content":
      "Throughput (benchmark scenario 10): unordered occurrences pay nothing (the triggers' WHEN clauses skip rows without a key). Ordered drains run one claim, one run and one commit per occurrence and key in turn, so a few long chains drain more slowly than many short ones.",
    "url": "/docs/hooks#ordering",
    "context": "Durable hooks › Ordering",
  },
  {
    "id": "hooks#settings",
    "page": "hooks",
    "type": "heading",
    "content": "Settings",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:39",
    "page": "hooks",
    "type": "text",
    "content": "maxAttempts | 12 | attempts before failed; per hook { handler, maxAttempts }",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:40",
    "page": "hooks",
    "type": "text",
    "content": "retryDelayMs | 1000 | delay before the first retry, doubled at each retry",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:41",
    "page": "hooks",
    "type": "text",
    "content": "maxRetryDelayMs | 600000 (10 min) | cap of the delay",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:42",
    "page": "hooks",
    "type": "text",
    "content": "leaseMs | 60000 | lease of a running attempt (renewed every third of it)",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:43",
    "page": "hooks",
    "type": "text",
    "content": "pollIntervalMs | 2000 | longest wait between two looks for work",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:44",
    "page": "hooks",
    "type": "text",
    "content": "concurrency | 4 | handlers one worker runs at once",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:45",
    "page": "hooks",
    "type": "text",
    "content": "onError | console.error | receives failed attempts and worker errors",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:46",
    "page": "hooks",
    "type": "text",
    "content": 'retention | none (keep all) | { done: "7d" }: purge done occurrences (retention)',
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks:47",
    "page": "hooks",
    "type": "text",
    "content":
      "With the defaults an occurrence is tried 12 times over 14 to 27 minutes (jittered delays of about 1 s, 2 s, 4 s, … up to 10 minutes); raise maxAttempts for work that may wait on a dependency for hours (each further delay is 5 to 10 minutes).",
    "url": "/docs/hooks#settings",
    "context": "Durable hooks › Settings",
  },
  {
    "id": "hooks#inspecting-and-re-queueing",
    "page": "hooks",
    "type": "heading",
    "content": "Inspecting and re-queueing",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:48",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.get(id), hooks.find(name, key): one occurrence with its status, attempts, lastError.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks:49",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.list({ status?, name?, pageSize?, cursor? }): oldest first, with the cursor pagination of every list ({ occurrences, cursor, hasNextPage }). A server-side API: its cursors are signed with a random key of the process, so they are valid until the process exits.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks:50",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.requeue({ ids?, name? }): puts failed occurrences back to pending with a fresh attempt budget and wakes the workers; returns how many.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks:51",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.describe(occurrence): what the occurrence is about, from its hook's optional describe(occurrence) (a hook defined as { handler, describe }); the messenger returns the stored update. fragment-cli hooks show prints it.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks:52",
    "page": "hooks",
    "type": "text",
    "content":
      "hookAdmin({ adapter, namespace }): the operator's API, without the handlers (what fragment-cli hooks runs): list({ status?, name?, limit? }) newest first, get(id) with the error log, retry(ids), retryFailed(), cancel(ids), purgeDone(olderThanMs), counts(), exists(). retry and cancel are all or nothing: with an unknown id nothing changes, and the answer is { changed, unchanged, unknown }.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks:53",
    "page": "hooks",
    "type": "text",
    "content":
      "hooks.drain({ waitForScheduled?, timeoutMs? }): runs what is due in the foreground until nothing is due (with waitForScheduled, also waits for retries and runAt times), and returns { done, retried, failed }. For tests, scripts and serverless handlers that cannot keep a worker.",
    "url": "/docs/hooks#inspecting-and-re-queueing",
    "context": "Durable hooks › Inspecting and re-queueing",
  },
  {
    "id": "hooks#operating-hooks",
    "page": "hooks",
    "type": "heading",
    "content": "Operating hooks",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:54",
    "page": "hooks",
    "type": "text",
    "content":
      "fragment-cli hooks <file> <subcommand> operates the hooks of the modules a file exports, on their database, the way db info reads it: DATABASE_URL (PostgreSQL) or the PGlite directory ./.data/pglite. It acts on every namespace whose schema has the hook table (withHookTable), or on one with --namespace N. Every subcommand takes --json (only JSON on stdout). The reference of the options and outputs is in cli.md.",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:55",
    "page": "hooks",
    "type": "text",
    "content":
      "list [--status S] [--namespace N] [--limit N] | the newest hooks (50 by default): status, attempts, next run, error",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:56",
    "page": "hooks",
    "type": "text",
    "content": "show <id> | one hook: payload, attempts, every error with its time, next run",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:57",
    "page": "hooks",
    "type": "text",
    "content":
      "retry <id…> or retry --failed | redrive failed (or cancelled) hooks: pending now, attempts reset",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:58",
    "page": "hooks",
    "type": "text",
    "content": "cancel <id…> | stop a pending, running or failed hook from running again",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:59",
    "page": "hooks",
    "type": "text",
    "content":
      "purge --done --older-than <30d|12h|0s> | delete done hooks finished at least that long ago",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:60",
    "page": "hooks",
    "type": "text",
    "content":
      "States. A hook is pending (due, or waiting for its next retry: Next run says when), running (leased by a worker until the time shown), done, failed (out of attempts: its maxAttempts are spent), cancelled, or blocked (waiting for an earlier hook of its ordering key, see ordering).",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:61",
    "page": "hooks",
    "type": "text",
    "content":
      "retry puts failed and cancelled hooks back to pending, due now, with attempts reset to 0 (a fresh budget of maxAttempts), and wakes the workers. Their error log is kept, so show still tells what happened before. Any other status is left alone and said so: retrying twice is harmless. retry --failed redrives every failed hook (never the cancelled ones, which an operator stopped on purpose; retry those by id). A hook with an ordering key re-enters its key's chain (ordering): blocked behind the key's pending or running hook, if any.",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:62",
    "page": "hooks",
    "type": "text",
    "content":
      "cancel marks pending, running, blocked and failed hooks cancelled: no worker claims them again. An attempt running at that moment may still do its work, but its outcome is not recorded (every outcome write is fenced on running). done and cancelled hooks are left alone. To undo a cancel, retry the hook.",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:63",
    "page": "hooks",
    "type": "text",
    "content":
      "show prints the payload, the attempts, each failed attempt's error (the stack) with its time, and the next run. For a messenger hook it also prints the stored update it processes (the hook's describe).",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:64",
    "page": "hooks",
    "type": "text",
    "content":
      "Ids are per namespace. An id that two namespaces of the file have needs --namespace; an id that none has exits 1 with one line (error: no hook occurrence 99 in app.ts), and changes nothing.",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:65",
    "page": "hooks",
    "type": "text",
    "content":
      "db info adds one line per namespace with hooks: Hooks [messenger]: 0 pending, 0 running, 1 failed, oldest pending 2m 5s (the age is the time since the oldest pending hook was enqueued), and hooks with the same counts in --json.",
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:66",
    "page": "hooks",
    "type": "text",
    "content":
      'On PGlite. A PGlite directory is open in one process at a time, and a running fragment-cli serve holds it while it runs. The commands then exit 1 with error: the PGlite data directory "./.data/pglite" is held by process 4242, most likely a running "fragment-cli serve" …: stop the server and run the command again. On PostgreSQL, the commands run beside any number of servers, and a retried hook is picked up at once (the retry sends a NOTIFY).',
    "url": "/docs/hooks#operating-hooks",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks#retention",
    "page": "hooks",
    "type": "heading",
    "content": "Retention",
    "url": "/docs/hooks#retention",
    "context": "Durable hooks › Operating hooks",
  },
  {
    "id": "hooks:67",
    "page": "hooks",
    "type": "text",
    "content":
      "Done hooks stay in the table until deleted. Two ways to delete them; failed, cancelled and unfinished hooks are never purged:",
    "url": "/docs/hooks#retention",
    "context": "Durable hooks › Operating hooks › Retention",
  },
  {
    "id": "hooks:68",
    "page": "hooks",
    "type": "text",
    "content":
      "by hand, or from cron: fragment-cli hooks app.ts purge --done --older-than 30d (units s, m, h, d; 0s purges every done hook). It deletes in batches of 5,000 and prints how many per namespace.",
    "url": "/docs/hooks#retention",
    "context": "Durable hooks › Operating hooks › Retention",
  },
  {
    "id": "hooks:69",
    "page": "hooks",
    "type": "text",
    "content":
      'automatically: durableHooks({ …, retention: { done: "7d" } }), or the messenger\'s retention: { done: "7d" } option. The worker deletes done hooks older than that at most once a minute (a retention under a minute: at every look for work), and drain() once when it ends.',
    "url": "/docs/hooks#retention",
    "context": "Durable hooks › Operating hooks › Retention",
  },
  {
    "id": "hooks:70",
    "page": "hooks",
    "type": "text",
    "content":
      "The messenger's stored updates are never purged with their hooks: an update whose hook was purged reads as done in getUpdate() and listUpdates().",
    "url": "/docs/hooks#retention",
    "context": "Durable hooks › Operating hooks › Retention",
  },
  {
    "id": "hooks#tracing",
    "page": "hooks",
    "type": "heading",
    "content": "Tracing",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:71",
    "page": "hooks",
    "type": "text",
    "content":
      "Each hook run and each webhook request is an OpenTelemetry span, made through @opentelemetry/api with the tracer fragment-cli (version: the package's). Without an OpenTelemetry SDK in the application the API does nothing: no span is recorded, nothing is sent.",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:72",
    "page": "hooks",
    "type": "text",
    "content":
      "A hook run (one attempt): process <hook name>, kind CONSUMER, following OpenTelemetry's messaging conventions. The handler runs inside it, so the spans it starts (a fetch, a query of an instrumented driver) are its children when the SDK has a context manager.",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:73",
    "page": "hooks",
    "type": "text",
    "content": "messaging.system | fragment-cli",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:74",
    "page": "hooks",
    "type": "text",
    "content": "messaging.operation.type | process (also messaging.operation.name)",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:75",
    "page": "hooks",
    "type": "text",
    "content": "messaging.destination.name | <namespace>.<hook name>",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:76",
    "page": "hooks",
    "type": "text",
    "content": "messaging.message.id | the occurrence id",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:77",
    "page": "hooks",
    "type": "text",
    "content": "fragment.hook.namespace | the namespace",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:78",
    "page": "hooks",
    "type": "text",
    "content": "fragment.hook.name | the hook name",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:79",
    "page": "hooks",
    "type": "text",
    "content": "fragment.hook.attempt | the attempt, from 1",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:80",
    "page": "hooks",
    "type": "text",
    "content": "fragment.hook.max_attempts | the attempts allowed",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:81",
    "page": "hooks",
    "type": "text",
    "content":
      "fragment.hook.outcome | done, retry (failed, another attempt is scheduled) or failed (no more)",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:82",
    "page": "hooks",
    "type": "text",
    "content":
      "A failed attempt (retry or failed) records the error as an exception event and sets the span's status to ERROR. The key and the payload are not recorded.",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:83",
    "page": "hooks",
    "type": "text",
    "content":
      "A webhook request (messenger): POST <route> (e.g. POST /api/messenger/messenger/webhook), kind SERVER, or INTERNAL inside the request's span when the application's HTTP instrumentation already made one (Deno's Deno.serve, Node's http instrumentation). Attributes: http.request.method, http.route, http.response.status_code, fragment.messenger.update_id (as text: ids beyond 2^53 stay exact), fragment.messenger.update_kind (message, edited_message, …) and fragment.messenger.outcome: stored, duplicate, rejected (a 4xx: wrong secret, bad body, too large; error.type is the error code, the status stays unset) or error (the database failed: status ERROR, the exception recorded). The secret and the payload are never recorded.",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:84",
    "page": "hooks",
    "type": "text",
    "content":
      "Sending them to an OTLP collector. On Node (and Bun), install @opentelemetry/sdk-node and @opentelemetry/exporter-trace-otlp-http, and start the SDK before the application is imported:",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks:85",
    "page": "hooks",
    "type": "text",
    "content":
      "Without auto-instrumentation, @opentelemetry/sdk-trace-node does the same with less: a NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] }) and its register(). On Deno, no package is needed: OTEL_DENO=true (with --unstable-otel before Deno 2.4) exports every @opentelemetry/api span, these included, to OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318), with Deno.serve's own request spans around the webhook's.",
    "url": "/docs/hooks#tracing",
    "context": "Durable hooks › Tracing",
  },
  {
    "id": "hooks#compared-with-fragnos-hooks",
    "page": "hooks",
    "type": "heading",
    "content": "Compared with Fragno's hooks",
    "url": "/docs/hooks#compared-with-fragnos-hooks",
    "context": "Durable hooks",
  },
  {
    "id": "hooks:86",
    "page": "hooks",
    "type": "text",
    "content":
      "Fragno's @fragno-dev/db has the same outbox shape. fragment-cli differs where Fragno is weak: without a worker nothing is silently dropped (occurrences wait and drain() exists); the retry policy is configurable and maxAttempts is actually consulted; each outcome is written on its own (one conflict never aborts a batch); deduplication keys are per namespace, so two bots in one database do not collide on equal update ids; claims use SKIP LOCKED and renewed leases instead of a fixed ten-minute timeout.",
    "url": "/docs/hooks#compared-with-fragnos-hooks",
    "context": "Durable hooks › Compared with Fragno's hooks",
  },
  {
    "id": "modules",
    "page": "modules",
    "type": "page",
    "content": "Modules",
    "url": "/docs/modules",
    "context": "",
  },
  {
    "id": "modules:1",
    "page": "modules",
    "type": "text",
    "content":
      'A module ("fragment") bundles HTTP routes, optionally a versioned database schema and durable hooks. You declare it once and instantiate it with options; the instance is a plain object with a Web-standard fetch that mounts anywhere.',
    "url": "/docs/modules",
    "context": "Modules",
  },
  {
    "id": "modules#declaring-a-module",
    "page": "modules",
    "type": "heading",
    "content": "Declaring a module",
    "url": "/docs/modules#declaring-a-module",
    "context": "Modules",
  },
  {
    "id": "modules:2",
    "page": "modules",
    "type": "text",
    "content": "name: lower-case letters, digits and dashes. The default mount is /api/<name>.",
    "url": "/docs/modules#declaring-a-module",
    "context": "Modules › Declaring a module",
  },
  {
    "id": "modules:3",
    "page": "modules",
    "type": "text",
    "content":
      'config: a zod schema, validated at instantiation. A bad value throws ModuleConfigError naming the module and each bad option (Invalid configuration for module "notes": maxLength: …).',
    "url": "/docs/modules#declaring-a-module",
    "context": "Modules › Declaring a module",
  },
  {
    "id": "modules:4",
    "page": "modules",
    "type": "text",
    "content": "routes: a function of the validated config returning routes made by route().",
    "url": "/docs/modules#declaring-a-module",
    "context": "Modules › Declaring a module",
  },
  {
    "id": "modules:5",
    "page": "modules",
    "type": "text",
    "content":
      "createModule({ name, routes, mountRoute?, bodyLimit?, database?, background?, autoStart? }) builds an instance directly; the first-party modules use it to add a server-side API. background is the module's work outside requests ({ start, stop, drain? }, e.g. durable hooks); see background work.",
    "url": "/docs/modules#declaring-a-module",
    "context": "Modules › Declaring a module",
  },
  {
    "id": "modules#routes",
    "page": "modules",
    "type": "heading",
    "content": "Routes",
    "url": "/docs/modules#routes",
    "context": "Modules",
  },
  {
    "id": "modules:6",
    "page": "modules",
    "type": "text",
    "content":
      "route({ method, path, params?, query?, body?, responses?, errors?, security?, summary?, input?, handler }):",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:7",
    "page": "modules",
    "type": "text",
    "content":
      "method: GET, POST, PUT, PATCH or DELETE. HEAD is answered for every GET route and OPTIONS for every known path (204 with Allow).",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:8",
    "page": "modules",
    "type": "text",
    "content":
      "path: relative to the mount, with :name parameters (/notes/:id). A trailing slash is optional in requests: GET / of a module mounted at /api/ping answers /api/ping and /api/ping/, /notes answers /notes/ (unless a route of the same method declares that path).",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:9",
    "page": "modules",
    "type": "text",
    "content":
      'params, query, body: zod schemas. The handler\'s arguments are typed from them and validation always runs before the handler. Query values arrive as strings (use z.coerce). Declaring body makes a JSON body required, labelled Content-Type: application/json (or a +json type such as application/merge-patch+json; a charset parameter must say UTF-8): anything else, a missing Content-Type included, is a 415 before the body is read. A page on another site can send text/plain, form and multipart bodies without a CORS preflight; a JSON content type cannot be sent cross-origin without one, so this keeps forms on other sites away from JSON routes. A route that must take other bodies (the messenger webhook) declares no body and reads it itself with readBodyText(), keeping the body schema for the document with input: "raw".',
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:10",
    "page": "modules",
    "type": "text",
    "content":
      "responses: the zod schema of each answer by status ({ 200: note, 204: null }, null for no body); errors: the codes the handler answers by status ({ 404: [\"NOT_FOUND\"] }); security: the names of the module's securitySchemes (an option of createModule) any one of which the route needs; summary: one line. They document the route in the module's OpenAPI document (openapi.md) and are not checked at run time.",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:11",
    "page": "modules",
    "type": "text",
    "content":
      'input: "validated" (default, the core validates before the handler), "parsed" (the handler validates the same schemas itself, after a check that must come first, such as the auth module\'s credential check), or "raw" (as "parsed", and the core does not read the body).',
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:12",
    "page": "modules",
    "type": "text",
    "content":
      "handler({ params, query, body, request }) returns a Response (sent as is), a JSON value (200) or nothing (204). Throw HttpError(status, code, message) for an error response.",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules:13",
    "page": "modules",
    "type": "text",
    "content":
      "Every module also answers GET <mount>/openapi.json (no credential needed) with its OpenAPI 3.1 document, generated from these definitions: see openapi.md.",
    "url": "/docs/modules#routes",
    "context": "Modules › Routes",
  },
  {
    "id": "modules#http-behaviour-of-every-module",
    "page": "modules",
    "type": "heading",
    "content": "HTTP behaviour of every module",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules",
  },
  {
    "id": "modules:14",
    "page": "modules",
    "type": "text",
    "content": "body is not JSON (or empty when required) | 400 | INVALID_JSON",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:15",
    "page": "modules",
    "type": "text",
    "content":
      "params, query or body fail their schema | 400 | VALIDATION_ERROR, plus issues: [{path, message}]",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:16",
    "page": "modules",
    "type": "text",
    "content": "unknown path | 404 | NOT_FOUND",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:17",
    "page": "modules",
    "type": "text",
    "content":
      "known path, other method | 405 with Allow (each of its methods succeeds) | METHOD_NOT_ALLOWED",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:18",
    "page": "modules",
    "type": "text",
    "content": "body over the limit (default 1 MiB, bodyLimit) | 413 | PAYLOAD_TOO_LARGE",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:19",
    "page": "modules",
    "type": "text",
    "content": "declared body not labelled JSON | 415 | UNSUPPORTED_MEDIA_TYPE",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:20",
    "page": "modules",
    "type": "text",
    "content":
      "Host header not a host name or IP with a port | 400, before routing (also in serve's server) | INVALID_HOST",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:21",
    "page": "modules",
    "type": "text",
    "content":
      "an exception in a handler | 500, logged once on stderr, no stack in the body | INTERNAL_ERROR",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:22",
    "page": "modules",
    "type": "text",
    "content": "Every error body has one shape:",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules:23",
    "page": "modules",
    "type": "text",
    "content":
      "The body limit is enforced on the declared Content-Length and, for chunked bodies, while reading, so an oversized body is never buffered.",
    "url": "/docs/modules#http-behaviour-of-every-module",
    "context": "Modules › HTTP behaviour of every module",
  },
  {
    "id": "modules#mounting-and-serving",
    "page": "modules",
    "type": "heading",
    "content": "Mounting and serving",
    "url": "/docs/modules#mounting-and-serving",
    "context": "Modules",
  },
  {
    "id": "modules:24",
    "page": "modules",
    "type": "text",
    "content":
      "composeModules([a, b]) returns one fetch that gives each module the paths under its mount, on a path-segment boundary (/api/auth does not catch /api/authx), and answers anything else with:",
    "url": "/docs/modules#mounting-and-serving",
    "context": "Modules › Mounting and serving",
  },
  {
    "id": "modules:25",
    "page": "modules",
    "type": "text",
    "content": "Two modules on one mount throw DuplicateMountError.",
    "url": "/docs/modules#mounting-and-serving",
    "context": "Modules › Mounting and serving",
  },
  {
    "id": "modules:26",
    "page": "modules",
    "type": "text",
    "content":
      "serve(modules, { port = 8080, hostname = \"localhost\", handleSignals = true, onShutdown }) listens on the current runtime — Deno.serve, Bun.serve, or Node's http through @hono/node-server — and starts the modules' background work (durable hook workers; see background work). On SIGINT or SIGTERM it stops accepting connections, lets in-flight requests finish, stops background work, runs onShutdown and exits with code 0. A taken port rejects with AddressInUseError.",
    "url": "/docs/modules#mounting-and-serving",
    "context": "Modules › Mounting and serving",
  },
  {
    "id": "modules:27",
    "page": "modules",
    "type": "text",
    "content":
      "Every instance also lists its routes with full paths (instance.routes) and carries a string brand (isModuleInstance(value)) that fragment-cli uses to find modules among a file's exports, whatever their export names.",
    "url": "/docs/modules#mounting-and-serving",
    "context": "Modules › Mounting and serving",
  },
  {
    "id": "modules#background-work",
    "page": "modules",
    "type": "heading",
    "content": "Background work",
    "url": "/docs/modules#background-work",
    "context": "Modules",
  },
  {
    "id": "modules:28",
    "page": "modules",
    "type": "text",
    "content":
      "A module with durable hooks (auth's organization events, the messenger's updates) has a worker that runs them outside requests. It runs wherever the module is mounted, with no extra wiring:",
    "url": "/docs/modules#background-work",
    "context": "Modules › Background work",
  },
  {
    "id": "modules:29",
    "page": "modules",
    "type": "text",
    "content":
      "Start: the module's first request starts it — through serve(), fragment-cli serve, Deno.serve(module.fetch), Bun.serve, @hono/node-server or a Hono app alike. serve() also starts it once it listens; a request and serve() (or concurrent requests) share one start, so there is never a second worker in a process.",
    "url": "/docs/modules#background-work",
    "context": "Modules › Background work",
  },
  {
    "id": "modules:30",
    "page": "modules",
    "type": "text",
    "content":
      "Stop: await module.close() (also module[Symbol.asyncDispose](), for await using where the runtime has it) stops claiming work, waits for the running handlers and any drain in flight, then releases the worker's timers and database listener. Close the module before its database adapter (the adapter is yours: several modules may share it); after that nothing of the module holds the process, which exits once its server has stopped. A closed module still answers requests, but none starts the worker again. serve() stops the work on shutdown.",
    "url": "/docs/modules#background-work",
    "context": "Modules › Background work",
  },
  {
    "id": "modules:31",
    "page": "modules",
    "type": "text",
    "content":
      "Explicit control: autoStart: false (an option of createModule, of a defined module's instantiation and of auth() and messenger()) leaves the worker to you; module.background.start() and module.background.stop() start and stop it (once either is called, requests leave it alone); module.background.running tells whether it runs; await module.background.drain() runs the work due now in the foreground and resolves when it is done, worker or not.",
    "url": "/docs/modules#background-work",
    "context": "Modules › Background work",
  },
  {
    "id": "modules:32",
    "page": "modules",
    "type": "text",
    "content":
      "Occurrences wait in the database until something runs them, so nothing is lost while no worker runs: a worker started later, or a drain, processes them.",
    "url": "/docs/modules#background-work",
    "context": "Modules › Background work",
  },
  {
    "id": "modules#deno-deploy-and-other-platforms-without-a-long-lived-process",
    "page": "modules",
    "type": "heading",
    "content": "Deno Deploy and other platforms without a long-lived process",
    "url": "/docs/modules#deno-deploy-and-other-platforms-without-a-long-lived-process",
    "context": "Modules › Background work",
  },
  {
    "id": "modules:33",
    "page": "modules",
    "type": "text",
    "content":
      "Where an isolate lives only while it serves requests, do not count on a worker polling between requests. Create the module with autoStart: false and run due work with drain() — on a schedule, after responses, or both:",
    "url": "/docs/modules#deno-deploy-and-other-platforms-without-a-long-lived-process",
    "context":
      "Modules › Background work › Deno Deploy and other platforms without a long-lived process",
  },
  {
    "id": "modules:34",
    "page": "modules",
    "type": "text",
    "content":
      "The drain after the answer runs while the isolate lives; if the platform stops it first, the occurrence's lease expires and the next drain (the cron's) runs it again (hooks are at-least-once). On a platform with waitUntil (Cloudflare's ctx.waitUntil, Vercel's waitUntil, Netlify's context.waitUntil), hand it the drain's promise to keep the instance alive until it is done. Deno.cron needs --unstable-cron outside Deno Deploy.",
    "url": "/docs/modules#deno-deploy-and-other-platforms-without-a-long-lived-process",
    "context":
      "Modules › Background work › Deno Deploy and other platforms without a long-lived process",
  },
  {
    "id": "openapi",
    "page": "openapi",
    "type": "page",
    "content": "OpenAPI documents",
    "url": "/docs/openapi",
    "context": "",
  },
  {
    "id": "openapi:1",
    "page": "openapi",
    "type": "text",
    "content":
      "Every module answers GET <mount>/openapi.json (e.g. GET /api/auth/openapi.json) with an OpenAPI 3.1 document generated from the same zod schemas that validate its routes. fragment-cli openapi <file> [-o path] writes the merged document of every module of a file (cli.md); mergeOpenApiDocuments(documents, { title }) does the same in code.",
    "url": "/docs/openapi",
    "context": "OpenAPI documents",
  },
  {
    "id": "openapi#what-the-document-holds",
    "page": "openapi",
    "type": "heading",
    "content": "What the document holds",
    "url": "/docs/openapi#what-the-document-holds",
    "context": "OpenAPI documents",
  },
  {
    "id": "openapi:2",
    "page": "openapi",
    "type": "text",
    "content":
      "info: the module's name as title, the package version as version. servers: the module's mount (/api/auth); paths are relative to it (the merged document prefixes them instead).",
    "url": "/docs/openapi#what-the-document-holds",
    "context": "OpenAPI documents › What the document holds",
  },
  {
    "id": "openapi:3",
    "page": "openapi",
    "type": "text",
    "content":
      "One operation per route (operationId such as postSignUp, tags: [<module>], summary): path parameters, query parameters and the JSON request body with their schemas, converted by zod's own z.toJSONSchema to JSON Schema 2020-12 (the dialect of OpenAPI 3.1): the request side as the input the route accepts, the answers as the output it sends. A refinement or a transform documents as the type it checks (a password is a string; its length rules live in the code).",
    "url": "/docs/openapi#what-the-document-holds",
    "context": "OpenAPI documents › What the document holds",
  },
  {
    "id": "openapi:4",
    "page": "openapi",
    "type": "text",
    "content":
      'Every answer: each success status with its schema (204 without a body), and each error status with the one error shape, {"error": {"code", "message"}} (plus issues with VALIDATION_ERROR), its code an enum of the codes the route answers with that status.',
    "url": "/docs/openapi#what-the-document-holds",
    "context": "OpenAPI documents › What the document holds",
  },
  {
    "id": "openapi:5",
    "page": "openapi",
    "type": "text",
    "content":
      "Security: the auth module declares sessionCookie (an apiKey in the cookie service_auth) and bearerToken (HTTP bearer), and every route that needs a credential lists both (either one authenticates). The messenger declares webhookSecret, an apiKey in its configured secret header (X-Messenger-Bot-Api-Secret-Token by default) that the webhook requires.",
    "url": "/docs/openapi#what-the-document-holds",
    "context": "OpenAPI documents › What the document holds",
  },
  {
    "id": "openapi#which-error-codes-a-route-lists",
    "page": "openapi",
    "type": "heading",
    "content": "Which error codes a route lists",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents",
  },
  {
    "id": "openapi:6",
    "page": "openapi",
    "type": "text",
    "content": "The codes listed for a route are the ones it can answer, no more:",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:7",
    "page": "openapi",
    "type": "text",
    "content":
      "the core, on every route | 400 INVALID_HOST, 413 PAYLOAD_TOO_LARGE, 500 INTERNAL_ERROR",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:8",
    "page": "openapi",
    "type": "text",
    "content": "the core, when the route has params, query or body | 400 VALIDATION_ERROR",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:9",
    "page": "openapi",
    "type": "text",
    "content":
      "the core, when it reads the route's JSON body | 400 INVALID_JSON, INVALID_BODY; 415 UNSUPPORTED_MEDIA_TYPE",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:10",
    "page": "openapi",
    "type": "text",
    "content":
      "the auth module, on each API route (all read the database) | 503 SERVICE_UNAVAILABLE",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:11",
    "page": "openapi",
    "type": "text",
    "content":
      "the auth module, on a route that needs a credential | 400 CONFLICTING_CREDENTIALS, 401 UNAUTHENTICATED",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:12",
    "page": "openapi",
    "type": "text",
    "content": "the auth module, on every POST/PATCH/DELETE | 403 CSRF_REJECTED",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:13",
    "page": "openapi",
    "type": "text",
    "content":
      "the route's own errors | e.g. POST /sign-in: 401 INVALID_CREDENTIALS, 429 RATE_LIMITED, 503 SERVICE_BUSY",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi:14",
    "page": "openapi",
    "type": "text",
    "content":
      "404 NOT_FOUND for an unknown path and 405 METHOD_NOT_ALLOWED are not any route's answers and are not listed; a route's own NOT_FOUND (an organization the caller cannot see) is. A test provokes a sample of these errors over HTTP and checks that each answered code is listed for its route (tests/core/openapi.test.ts).",
    "url": "/docs/openapi#which-error-codes-a-route-lists",
    "context": "OpenAPI documents › Which error codes a route lists",
  },
  {
    "id": "openapi#declaring-it-in-your-module",
    "page": "openapi",
    "type": "heading",
    "content": "Declaring it in your module",
    "url": "/docs/openapi#declaring-it-in-your-module",
    "context": "OpenAPI documents",
  },
  {
    "id": "openapi:15",
    "page": "openapi",
    "type": "text",
    "content":
      "The document follows the route definitions (modules.md): give each route its responses (zod schemas by status) and the errors its handler throws, and name the security schemes of createModule({ securitySchemes }) in the routes' security:",
    "url": "/docs/openapi#declaring-it-in-your-module",
    "context": "OpenAPI documents › Declaring it in your module",
  },
  {
    "id": "openapi:16",
    "page": "openapi",
    "type": "text",
    "content":
      "A route without responses is documented with a default answer only. A recursive schema (such as z.json()) moves its shared definitions to components.schemas, named after the module.",
    "url": "/docs/openapi#declaring-it-in-your-module",
    "context": "OpenAPI documents › Declaring it in your module",
  },
  {
    "id": "openapi:17",
    "page": "openapi",
    "type": "text",
    "content":
      "A module that declares its own GET /openapi.json route keeps it (no document is added). The document is built at the first request and kept: the routes of an instance never change. It needs no credential (it describes the API, not anyone's data) and is sent with Cache-Control: no-cache. A test validates the documents of examples/app.ts with @readme/openapi-parser under Deno, Node and Bun, and checks that every route of every module appears with real schemas.",
    "url": "/docs/openapi#declaring-it-in-your-module",
    "context": "OpenAPI documents › Declaring it in your module",
  },
  {
    "id": "organizations",
    "page": "organizations",
    "type": "page",
    "content": "Organizations",
    "url": "/docs/organizations",
    "context": "",
  },
  {
    "id": "organizations:1",
    "page": "organizations",
    "type": "text",
    "content":
      "The auth module (auth.md) includes an organizations API: organizations, members with roles, token-based invitations, a per-credential active organization, and the organization fields of GET /me. It is on by default:",
    "url": "/docs/organizations",
    "context": "Organizations",
  },
  {
    "id": "organizations:2",
    "page": "organizations",
    "type": "text",
    "content":
      "Every route below requires a credential (the service_auth cookie or Authorization: Bearer, see auth.md) and is relative to the module's mount (/api/auth).",
    "url": "/docs/organizations",
    "context": "Organizations",
  },
  {
    "id": "organizations#configuration",
    "page": "organizations",
    "type": "heading",
    "content": "Configuration",
    "url": "/docs/organizations#configuration",
    "context": "Organizations",
  },
  {
    "id": "organizations:3",
    "page": "organizations",
    "type": "text",
    "content":
      "organizations | {} (enabled) | false mounts none of the routes below; GET /me then answers empty organizations/invitations and activeOrganization: null",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:4",
    "page": "organizations",
    "type": "text",
    "content":
      'roles | ["owner", "admin", "member"] | the role names members can have (lower-case letters, digits, _, -); must include owner',
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:5",
    "page": "organizations",
    "type": "text",
    "content":
      'creatorRoles | ["owner"] | roles of an organization\'s creator; must include owner and be among roles',
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:6",
    "page": "organizations",
    "type": "text",
    "content":
      'defaultMemberRoles | ["member"] | roles of a member added or invited without roles; among roles (required when roles has no member)',
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:7",
    "page": "organizations",
    "type": "text",
    "content":
      "autoCreateOrganization | off | { name?(email), slug?(userId) }: every new user (sign-up and api.createUser) gets an organization, see below",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:8",
    "page": "organizations",
    "type": "text",
    "content": "invitationTtlDays | 7 | how long an invitation can be accepted",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:9",
    "page": "organizations",
    "type": "text",
    "content": "maxMetadataBytes | 8192 | largest organization metadata, in bytes of its JSON",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:10",
    "page": "organizations",
    "type": "text",
    "content": "hooks | {} | handlers of the notifications, by event name",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:11",
    "page": "organizations",
    "type": "text",
    "content":
      "canAddMember | unset (direct add refused) | ({ actor, organization, user, roles }) => boolean | Promise<boolean>: may an owner or admin add a user without an invitation; see Consent",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:12",
    "page": "organizations",
    "type": "text",
    "content":
      "organizationLimit | 100 | live organizations one user may have created (and still belong to); false for no limit; 403 ORGANIZATION_LIMIT_REACHED",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:13",
    "page": "organizations",
    "type": "text",
    "content":
      "membershipLimit | 100 | members per organization (direct adds, acceptances, api.addMember); false for no limit; 403 MEMBERSHIP_LIMIT_REACHED",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:14",
    "page": "organizations",
    "type": "text",
    "content":
      "invitationLimit | 100 | pending, unexpired invitations per organization; false for no limit; 403 INVITATION_LIMIT_REACHED",
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:15",
    "page": "organizations",
    "type": "text",
    "content":
      'An invalid value throws ModuleConfigError when the module is instantiated, naming the option: Invalid configuration for module "auth": organizations.creatorRoles: "boss" is not one of organizations.roles (owner, admin, member).',
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations:16",
    "page": "organizations",
    "type": "text",
    "content":
      'autoCreateOrganization creates the organization in the same transaction as the user (if it fails, the user is not created either), makes the creator a member with creatorRoles, and makes it the active organization of the credential the sign-up issues. name(email) defaults to "<local part>\'s Organization" (trimmed, cut at 120 characters); slug(userId) defaults to the user id. The slug is normalized like any other; a taken slug gets a suffix (-2 … -5, then a random one) instead of failing the sign-up; an unusable one becomes org-<userId>.',
    "url": "/docs/organizations#configuration",
    "context": "Organizations › Configuration",
  },
  {
    "id": "organizations#consent",
    "page": "organizations",
    "type": "heading",
    "content": "Consent",
    "url": "/docs/organizations#consent",
    "context": "Organizations",
  },
  {
    "id": "organizations:17",
    "page": "organizations",
    "type": "text",
    "content":
      "Nobody joins an organization without saying yes. A stranger who knows a user's id (every member list shows the ids of its members) could otherwise put that user into organizations of their own, which then fill the user's GET /me. So:",
    "url": "/docs/organizations#consent",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations:18",
    "page": "organizations",
    "type": "text",
    "content":
      "Invitations are the way in. An owner or admin invites an email; the user signed in with that email accepts (see the invitation flow).",
    "url": "/docs/organizations#consent",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations:19",
    "page": "organizations",
    "type": "text",
    "content":
      "Direct add (POST /organizations/:organizationId/members) is refused by default with 403 DIRECT_ADD_NOT_ALLOWED, whose message points to invitations. The route stays (it is in the specification); a deployment opens it with canAddMember, asked after the caller's own rights are checked (an owner or admin of the organization, an owner to grant owner) and once the user is known to exist. Only true allows the add:",
    "url": "/docs/organizations#consent",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations:20",
    "page": "organizations",
    "type": "text",
    "content":
      'Global admins get no exception by default (users.role = "admin" is an operator\'s role, not a user\'s consent): canAddMember: ({ actor }) => actor.role === "admin" grants one, and the admin must still be an owner or admin of the organization.',
    "url": "/docs/organizations#consent",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations:21",
    "page": "organizations",
    "type": "text",
    "content":
      "The server adds directly with authModule.api.addMember({ organizationId, userId, roles? }) (no policy, no caller; membershipLimit applies; memberAdded carries actorUserId: null), like better-auth's server-only addMember. Clerk and GitHub likewise require an invitation.",
    "url": "/docs/organizations#consent",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations#limits",
    "page": "organizations",
    "type": "heading",
    "content": "Limits",
    "url": "/docs/organizations#limits",
    "context": "Organizations › Consent",
  },
  {
    "id": "organizations:22",
    "page": "organizations",
    "type": "text",
    "content":
      "organizationLimit, membershipLimit and invitationLimit (100 each by default, false for none) bound what one user or one organization can pile up. Reaching one is a 403 with its own code, and concurrent requests cannot overshoot: each count runs in the inserting transaction after a row lock every competing insert takes too (the user's row for organizations, the organization's row for members and invitations).",
    "url": "/docs/organizations#limits",
    "context": "Organizations › Consent › Limits",
  },
  {
    "id": "organizations:23",
    "page": "organizations",
    "type": "text",
    "content":
      "organizationLimit counts the live organizations the user created and is still a member of (soft-deleted ones free their place; so does handing an organization over and leaving it). The organization of autoCreateOrganization counts. better-auth has no such limit by default; 100 keeps one account from creating organizations without end while no real user meets it.",
    "url": "/docs/organizations#limits",
    "context": "Organizations › Consent › Limits",
  },
  {
    "id": "organizations:24",
    "page": "organizations",
    "type": "text",
    "content":
      "membershipLimit counts every member, the owners included, and applies to direct adds, acceptances (a refused acceptance leaves the invitation pending, to accept once there is room) and api.addMember. 100 is better-auth's default.",
    "url": "/docs/organizations#limits",
    "context": "Organizations › Consent › Limits",
  },
  {
    "id": "organizations:25",
    "page": "organizations",
    "type": "text",
    "content":
      "invitationLimit counts the pending, unexpired invitations; re-sending the pending invitation of an email adds none, and canceled, answered or expired ones free their place. 100 is better-auth's default.",
    "url": "/docs/organizations#limits",
    "context": "Organizations › Consent › Limits",
  },
  {
    "id": "organizations#roles",
    "page": "organizations",
    "type": "heading",
    "content": "Roles",
    "url": "/docs/organizations#roles",
    "context": "Organizations",
  },
  {
    "id": "organizations:26",
    "page": "organizations",
    "type": "text",
    "content":
      "any member | read the organization and its members; leave; set it as the active organization",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:27",
    "page": "organizations",
    "type": "text",
    "content":
      "admin | also update the organization; add (with canAddMember), re-role and remove members who are not owners; invite (not as owner); list and cancel invitations",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:28",
    "page": "organizations",
    "type": "text",
    "content":
      "owner | everything: also delete the organization, grant or revoke owner, change or remove owners",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:29",
    "page": "organizations",
    "type": "text",
    "content": "the inviter (while a member) | cancel their own invitation",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:30",
    "page": "organizations",
    "type": "text",
    "content":
      "the invitee (matching, verified email) | accept or reject the invitation (accept: while the inviter may still send it)",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:31",
    "page": "organizations",
    "type": "text",
    "content": "anyone else | nothing inside the organization: 404, as if it did not exist",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations:32",
    "page": "organizations",
    "type": "text",
    "content":
      "At least one owner always remains: demoting or removing the last owner (also leaving as the last owner) answers 409 LAST_OWNER. Other roles (member, or your own such as billing) carry no permission in this module; your application gives them meaning (member.roles is in every entry). The global user role (admin in user.role) grants nothing inside organizations.",
    "url": "/docs/organizations#roles",
    "context": "Organizations › Roles",
  },
  {
    "id": "organizations#resources",
    "page": "organizations",
    "type": "heading",
    "content": "Resources",
    "url": "/docs/organizations#resources",
    "context": "Organizations",
  },
  {
    "id": "organizations:33",
    "page": "organizations",
    "type": "text",
    "content": "All ids are strings, all timestamps ISO 8601 in UTC (2026-11-21T15:05:58.123Z).",
    "url": "/docs/organizations#resources",
    "context": "Organizations › Resources",
  },
  {
    "id": "organizations:34",
    "page": "organizations",
    "type": "text",
    "content":
      "That pair is an organization entry: an organization with the current user's membership.",
    "url": "/docs/organizations#resources",
    "context": "Organizations › Resources",
  },
  {
    "id": "organizations:35",
    "page": "organizations",
    "type": "text",
    "content": "An invitation:",
    "url": "/docs/organizations#resources",
    "context": "Organizations › Resources",
  },
  {
    "id": "organizations:36",
    "page": "organizations",
    "type": "text",
    "content":
      "status is pending, accepted, rejected, canceled or expired (a pending invitation past expiresAt reads as expired everywhere, and is marked so for good at its expiry or at the first attempt to use it). token appears in one answer only: the inviter's creation (or re-send) response, so the inviter or your invitationCreated hook can send it. The database keeps its SHA-256 alone; no list, /me, accept/reject/cancel response or event other than invitationCreated carries it.",
    "url": "/docs/organizations#resources",
    "context": "Organizations › Resources",
  },
  {
    "id": "organizations#lists",
    "page": "organizations",
    "type": "heading",
    "content": "Lists",
    "url": "/docs/organizations#lists",
    "context": "Organizations",
  },
  {
    "id": "organizations:37",
    "page": "organizations",
    "type": "text",
    "content":
      "GET /organizations, GET /organizations/:organizationId/members, GET /organizations/:organizationId/invitations and GET /organizations/invitations are keyset pages, oldest first:",
    "url": "/docs/organizations#lists",
    "context": "Organizations › Lists",
  },
  {
    "id": "organizations:38",
    "page": "organizations",
    "type": "text",
    "content":
      "pageSize defaults to 20 and is clamped to 100; a non-positive or non-integer one is 400 INVALID_PAGE_SIZE. A cursor is opaque, signed with the module's secret (FRAGMENT_SECRET, see auth), bound to its list, and its values are checked against the sort columns' types: another user's or another organization's cursor, an altered or forged one, is 400 INVALID_CURSOR. Without a configured secret, cursors are signed with a key of the process and do not survive a restart or cross processes. Deleted organizations are filtered in the query, so pages are never short.",
    "url": "/docs/organizations#lists",
    "context": "Organizations › Lists",
  },
  {
    "id": "organizations#routes",
    "page": "organizations",
    "type": "heading",
    "content": "Routes",
    "url": "/docs/organizations#routes",
    "context": "Organizations",
  },
  {
    "id": "organizations#post-organizations",
    "page": "organizations",
    "type": "heading",
    "content": "POST /organizations",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:39",
    "page": "organizations",
    "type": "text",
    "content":
      '→ 201 {"organization": {…, "slug": "acme-corp"}, "member": {…, "roles": ["owner"]}}',
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations:40",
    "page": "organizations",
    "type": "text",
    "content":
      "name: 1–120 characters (trimmed). slug: optional, derived from name when absent; normalized (accents stripped, lower-cased, other characters → -), then 3–63 characters of a-z0-9- starting and ending with a letter or digit, and not reserved (active, invitations, members, me, new, settings, admin, api, auth). Invalid → 400; taken → 409 SLUG_TAKEN (slugs of deleted organizations stay taken).",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations:41",
    "page": "organizations",
    "type": "text",
    "content":
      "logoUrl: an http: or https: URL (at most 2048 characters, before and after normalization) or null. It is stored as the parsed URL's normalized href: lower-case scheme and host, no default port, dot segments resolved, spaces and other unsafe characters percent-encoded (HTTPS://CDN.Example.com:443/a/../logo 1.png → https://cdn.example.com/logo%201.png).",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations:42",
    "page": "organizations",
    "type": "text",
    "content": "metadata: any JSON value up to maxMetadataBytes, or null.",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations:43",
    "page": "organizations",
    "type": "text",
    "content":
      "The creator gets creatorRoles. The organization becomes the presented credential's active organization if it had none.",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations:44",
    "page": "organizations",
    "type": "text",
    "content":
      "A user who already created organizationLimit live organizations → 403 ORGANIZATION_LIMIT_REACHED.",
    "url": "/docs/organizations#post-organizations",
    "context": "Organizations › Routes › POST /organizations",
  },
  {
    "id": "organizations#get-organizations",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations",
    "url": "/docs/organizations#get-organizations",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:45",
    "page": "organizations",
    "type": "text",
    "content":
      'The caller\'s organizations as entries: {"organizations": [...], "cursor", "hasNextPage"}.',
    "url": "/docs/organizations#get-organizations",
    "context": "Organizations › Routes › GET /organizations",
  },
  {
    "id": "organizations#get-organizationsorganizationid",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations/:organizationId",
    "url": "/docs/organizations#get-organizationsorganizationid",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:46",
    "page": "organizations",
    "type": "text",
    "content":
      '→ 200 {"organization": …, "member": …} (the caller\'s membership); 404 for non-members.',
    "url": "/docs/organizations#get-organizationsorganizationid",
    "context": "Organizations › Routes › GET /organizations/:organizationId",
  },
  {
    "id": "organizations#patch-organizationsorganizationid-owner-admin",
    "page": "organizations",
    "type": "heading",
    "content": "PATCH /organizations/:organizationId (owner, admin)",
    "url": "/docs/organizations#patch-organizationsorganizationid-owner-admin",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:47",
    "page": "organizations",
    "type": "text",
    "content": 'At least one field; null clears logoUrl or metadata. → 200 {"organization": …}.',
    "url": "/docs/organizations#patch-organizationsorganizationid-owner-admin",
    "context": "Organizations › Routes › PATCH /organizations/:organizationId (owner, admin)",
  },
  {
    "id": "organizations#delete-organizationsorganizationid-owner",
    "page": "organizations",
    "type": "heading",
    "content": "DELETE /organizations/:organizationId (owner)",
    "url": "/docs/organizations#delete-organizationsorganizationid-owner",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:48",
    "page": "organizations",
    "type": "text",
    "content":
      "→ 204. A soft delete: the row stays with deletedAt set, its pending invitations are canceled, no credential keeps it active, and from then on it answers 404 to every read and write and is absent from every list and from /me.",
    "url": "/docs/organizations#delete-organizationsorganizationid-owner",
    "context": "Organizations › Routes › DELETE /organizations/:organizationId (owner)",
  },
  {
    "id": "organizations#get-organizationsactive",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations/active",
    "url": "/docs/organizations#get-organizationsactive",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:49",
    "page": "organizations",
    "type": "text",
    "content":
      "→ 200 with the active organization's entry, or null (none set, or it was deleted, or the caller was removed from it).",
    "url": "/docs/organizations#get-organizationsactive",
    "context": "Organizations › Routes › GET /organizations/active",
  },
  {
    "id": "organizations#post-organizationsactive",
    "page": "organizations",
    "type": "heading",
    "content": "POST /organizations/active",
    "url": "/docs/organizations#post-organizationsactive",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:50",
    "page": "organizations",
    "type": "text",
    "content":
      '→ 200 with the entry (404 if the caller is not a member). {"organizationId": null} clears it and answers null. The active organization belongs to the credential: another session of the same user keeps its own. A new sign-in starts with none (read /me and choose); creating an organization or accepting an invitation sets it when the credential has none.',
    "url": "/docs/organizations#post-organizationsactive",
    "context": "Organizations › Routes › POST /organizations/active",
  },
  {
    "id": "organizations#get-organizationsorganizationidmembers",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations/:organizationId/members",
    "url": "/docs/organizations#get-organizationsorganizationidmembers",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:51",
    "page": "organizations",
    "type": "text",
    "content": 'Any member. → {"members": [Member, …], "cursor", "hasNextPage"}.',
    "url": "/docs/organizations#get-organizationsorganizationidmembers",
    "context": "Organizations › Routes › GET /organizations/:organizationId/members",
  },
  {
    "id": "organizations#post-organizationsorganizationidmembers-owner-admin",
    "page": "organizations",
    "type": "heading",
    "content": "POST /organizations/:organizationId/members (owner, admin)",
    "url": "/docs/organizations#post-organizationsorganizationidmembers-owner-admin",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:52",
    "page": "organizations",
    "type": "text",
    "content":
      "→ 201 {\"member\": …}, only when canAddMember allows it (see Consent). roles defaults to defaultMemberRoles; every role must be one of roles (400 otherwise); only owners may give owner. Checked in this order: the caller's membership (404) and roles (403 FORBIDDEN); the policy (403 DIRECT_ADD_NOT_ALLOWED: always without canAddMember, before the user is looked up); unknown user → 404 USER_NOT_FOUND; the policy's answer (403 DIRECT_ADD_NOT_ALLOWED unless true); a full organization → 403 MEMBERSHIP_LIMIT_REACHED; already a member → 409 ALREADY_MEMBER.",
    "url": "/docs/organizations#post-organizationsorganizationidmembers-owner-admin",
    "context":
      "Organizations › Routes › POST /organizations/:organizationId/members (owner, admin)",
  },
  {
    "id": "organizations#patch-organizationsorganizationidmembersmemberid-owner-admin",
    "page": "organizations",
    "type": "heading",
    "content": "PATCH /organizations/:organizationId/members/:memberId (owner, admin)",
    "url": "/docs/organizations#patch-organizationsorganizationidmembersmemberid-owner-admin",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:53",
    "page": "organizations",
    "type": "text",
    "content":
      '{"roles": ["admin"]} replaces the whole list → 200 {"member": …}. Only owners may grant or revoke owner or change an owner\'s roles; demoting the last owner → 409 LAST_OWNER.',
    "url": "/docs/organizations#patch-organizationsorganizationidmembersmemberid-owner-admin",
    "context":
      "Organizations › Routes › PATCH /organizations/:organizationId/members/:memberId (owner, admin)",
  },
  {
    "id": "organizations#delete-organizationsorganizationidmembersmemberid",
    "page": "organizations",
    "type": "heading",
    "content": "DELETE /organizations/:organizationId/members/:memberId",
    "url": "/docs/organizations#delete-organizationsorganizationidmembersmemberid",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:54",
    "page": "organizations",
    "type": "text",
    "content":
      "→ 204. Owners and admins remove members; any member removes themself (leaves). Only owners remove owners; the last owner cannot go (409 LAST_OWNER). The removed user's credentials drop it as their active organization. A member id of another organization is 404.",
    "url": "/docs/organizations#delete-organizationsorganizationidmembersmemberid",
    "context": "Organizations › Routes › DELETE /organizations/:organizationId/members/:memberId",
  },
  {
    "id": "organizations#get-organizationsorganizationidinvitations-owner-admin",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations/:organizationId/invitations (owner, admin)",
    "url": "/docs/organizations#get-organizationsorganizationidinvitations-owner-admin",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:55",
    "page": "organizations",
    "type": "text",
    "content":
      'Every invitation of the organization, any status, without tokens: {"invitations": [Invitation, …], "cursor", "hasNextPage"}.',
    "url": "/docs/organizations#get-organizationsorganizationidinvitations-owner-admin",
    "context":
      "Organizations › Routes › GET /organizations/:organizationId/invitations (owner, admin)",
  },
  {
    "id": "organizations#post-organizationsorganizationidinvitations-owner-admin",
    "page": "organizations",
    "type": "heading",
    "content": "POST /organizations/:organizationId/invitations (owner, admin)",
    "url": "/docs/organizations#post-organizationsorganizationidinvitations-owner-admin",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:56",
    "page": "organizations",
    "type": "text",
    "content":
      '→ 201 {"invitation": {…, "email": "bob@example.com", "token": "…"}}. The token is 32 random bytes (256 bits), base64url. Inviting an email that already has a pending invitation re-sends it: 200 with the same invitation, a new token (the old one stops working), the new roles and a new expiry, and the caller as its inviter. Inviting a member\'s email → 409 ALREADY_MEMBER; only owners invite as owner. An organization with invitationLimit pending invitations → 403 INVITATION_LIMIT_REACHED (re-sending a pending one still works). This answer is the only one that ever carries the token.',
    "url": "/docs/organizations#post-organizationsorganizationidinvitations-owner-admin",
    "context":
      "Organizations › Routes › POST /organizations/:organizationId/invitations (owner, admin)",
  },
  {
    "id": "organizations#get-organizationsinvitations",
    "page": "organizations",
    "type": "heading",
    "content": "GET /organizations/invitations",
    "url": "/docs/organizations#get-organizationsinvitations",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:57",
    "page": "organizations",
    "type": "text",
    "content":
      'The caller\'s pending, unexpired invitations (matched by the caller\'s email), without tokens, with their organization: {"invitations": [{"invitation": …, "organization": …}], "cursor", "hasNextPage"}. Only for a verified address (auth.md): until the caller verified it, the answer is an empty list ({"invitations": [], "cursor": null, "hasNextPage": false}), since anyone can sign up with any address.',
    "url": "/docs/organizations#get-organizationsinvitations",
    "context": "Organizations › Routes › GET /organizations/invitations",
  },
  {
    "id": "organizations#patch-organizationsinvitationsinvitationid",
    "page": "organizations",
    "type": "heading",
    "content": "PATCH /organizations/invitations/:invitationId",
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:58",
    "page": "organizations",
    "type": "text",
    "content":
      "action is accept, reject or cancel; the token is required for all three and compared in constant time.",
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:59",
    "page": "organizations",
    "type": "text",
    "content":
      'accept | the user whose verified email is the invitation\'s | {"invitation", "organization", "member"}: a membership with the invitation\'s roles',
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:60",
    "page": "organizations",
    "type": "text",
    "content": 'reject | the same | {"invitation"}',
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:61",
    "page": "organizations",
    "type": "text",
    "content": 'cancel | the inviter (still a member), owners, admins | {"invitation"}',
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:62",
    "page": "organizations",
    "type": "text",
    "content":
      "Checked in this order: the invitation must exist in a live organization and be visible to the caller (404 otherwise: neither the invitee nor a member); the caller must be allowed the action (403 FORBIDDEN), and an invitee must have verified their address to accept or reject (403 EMAIL_NOT_VERIFIED); the token must match (403 INVALID_INVITATION_TOKEN); an expired invitation is 410 INVITATION_EXPIRED; one already accepted, rejected or canceled is 409 INVITATION_NOT_PENDING; at acceptance, the inviter must still be allowed to grant it (409 INVITATION_REVOKED, below).",
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:63",
    "page": "organizations",
    "type": "text",
    "content":
      "An invitation speaks for its inviter only while they could still send it. Accepting re-reads, inside the accepting transaction, the inviter's current membership: the inviter must still be an owner or admin of the organization, and still an owner when the invitation grants owner. Otherwise → 409 INVITATION_REVOKED, and nothing changes: the invitation stays pending (the invitee may still reject it; a current owner or admin re-sending it to the same email makes it theirs, with a new token, and valid again; or cancels it). Reject and cancel do not depend on the inviter.",
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations:64",
    "page": "organizations",
    "type": "text",
    "content":
      "Accepting is a conditional update (WHERE status = 'pending' AND expires_at > now()): of two concurrent accepts exactly one succeeds and creates the membership; the other gets 409. Accepting when already a member (added directly meanwhile) keeps the existing membership and roles. Accepting sets the organization active for the credential when it had none. Accepting into an organization that has membershipLimit members → 403 MEMBERSHIP_LIMIT_REACHED, and the invitation stays pending.",
    "url": "/docs/organizations#patch-organizationsinvitationsinvitationid",
    "context": "Organizations › Routes › PATCH /organizations/invitations/:invitationId",
  },
  {
    "id": "organizations#get-me",
    "page": "organizations",
    "type": "heading",
    "content": "GET /me",
    "url": "/docs/organizations#get-me",
    "context": "Organizations › Routes",
  },
  {
    "id": "organizations:65",
    "page": "organizations",
    "type": "text",
    "content":
      "Bounded. At most 100 organizations (the oldest first, the order of GET /organizations) and 100 pending invitations (the oldest first, the order of GET /organizations/invitations). organizationsHasMore / invitationsHasMore say there are more: page through all of them with GET /organizations?pageSize=100 (its first page is the list /me carries; follow cursor) or GET /organizations/invitations. activeOrganization is the active organization's entry even when it is not among the listed ones (one more query, only then). Three queries otherwise (the credential, the entries, the invitations) whatever the number of organizations; 100 entries with small metadata are about 60 KB (a user in 500 organizations got 293 KB before the bound). Invitations, like GET /organizations/invitations, stay empty until the caller's address is verified (two queries then).",
    "url": "/docs/organizations#get-me",
    "context": "Organizations › Routes › GET /me",
  },
  {
    "id": "organizations:66",
    "page": "organizations",
    "type": "text",
    "content":
      "Kept between requests, never stale. Each module instance keeps the organization entries and the invitations it last answered, per user (up to about 8 MB of entries and 2 MB of invitations, least recently used out first). Every request still asks the database, in the same two queries: each computes a validator over the rows the part comes from (their xmin, the transaction that wrote each row version) and returns the rows only when the validator differs from the one held. So a change made by any process, or by plain SQL, is in the next answer, an invitation that expires drops out at once, and a user in 50 organizations is answered without PostgreSQL formatting 50 entries or the server writing them again. The benchmark (scenario 3 of benchmarks.md) measures it.",
    "url": "/docs/organizations#get-me",
    "context": "Organizations › Routes › GET /me",
  },
  {
    "id": "organizations#the-invitation-flow",
    "page": "organizations",
    "type": "heading",
    "content": "The invitation flow",
    "url": "/docs/organizations#the-invitation-flow",
    "context": "Organizations",
  },
  {
    "id": "organizations:67",
    "page": "organizations",
    "type": "text",
    "content":
      'An owner or admin invites: POST /organizations/:id/invitations {"email"} (and your invitationCreated hook sends the email with the token and the invitation id; the creation answer is the only other place the token appears).',
    "url": "/docs/organizations#the-invitation-flow",
    "context": "Organizations › The invitation flow",
  },
  {
    "id": "organizations:68",
    "page": "organizations",
    "type": "text",
    "content":
      "The invitee signs up (or in) with that email and verifies it (POST /verify-email with the token of the verification mail, see auth.md).",
    "url": "/docs/organizations#the-invitation-flow",
    "context": "Organizations › The invitation flow",
  },
  {
    "id": "organizations:69",
    "page": "organizations",
    "type": "text",
    "content":
      'They accept or reject with the token of the invitation mail: PATCH /organizations/invitations/:invitationId {"action": "accept", "token"}; this works while their inviter is still an owner or admin.',
    "url": "/docs/organizations#the-invitation-flow",
    "context": "Organizations › The invitation flow",
  },
  {
    "id": "organizations:70",
    "page": "organizations",
    "type": "text",
    "content":
      "Once verified, their pending invitations are listed by GET /organizations/invitations and carried in GET /me, never with tokens.",
    "url": "/docs/organizations#the-invitation-flow",
    "context": "Organizations › The invitation flow",
  },
  {
    "id": "organizations#errors",
    "page": "organizations",
    "type": "heading",
    "content": "Errors",
    "url": "/docs/organizations#errors",
    "context": "Organizations",
  },
  {
    "id": "organizations:71",
    "page": "organizations",
    "type": "text",
    "content": "400 | VALIDATION_ERROR | a field fails validation (issues lists them)",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:72",
    "page": "organizations",
    "type": "text",
    "content": "400 | INVALID_CURSOR | a cursor this list did not issue",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:73",
    "page": "organizations",
    "type": "text",
    "content": "400 | INVALID_PAGE_SIZE | pageSize not a positive integer",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:74",
    "page": "organizations",
    "type": "text",
    "content": "401 | UNAUTHENTICATED | no valid credential",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:75",
    "page": "organizations",
    "type": "text",
    "content": "403 | CSRF_REJECTED | cookie-authenticated unsafe request from another origin",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:76",
    "page": "organizations",
    "type": "text",
    "content": "403 | FORBIDDEN | a member whose roles do not allow it",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:77",
    "page": "organizations",
    "type": "text",
    "content": "403 | EMAIL_NOT_VERIFIED | accepting or rejecting before verifying the address",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:78",
    "page": "organizations",
    "type": "text",
    "content": "403 | INVALID_INVITATION_TOKEN | the token does not match",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:79",
    "page": "organizations",
    "type": "text",
    "content":
      "403 | DIRECT_ADD_NOT_ALLOWED | adding a user directly without canAddMember's consent: invite",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:80",
    "page": "organizations",
    "type": "text",
    "content":
      "403 | ORGANIZATION_LIMIT_REACHED | creating more than organizationLimit organizations",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:81",
    "page": "organizations",
    "type": "text",
    "content":
      "403 | MEMBERSHIP_LIMIT_REACHED | adding or accepting into an organization with membershipLimit members",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:82",
    "page": "organizations",
    "type": "text",
    "content":
      "403 | INVITATION_LIMIT_REACHED | inviting beyond invitationLimit pending invitations",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:83",
    "page": "organizations",
    "type": "text",
    "content":
      "404 | NOT_FOUND | no such organization, member or invitation, or not visible to you",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:84",
    "page": "organizations",
    "type": "text",
    "content": "404 | USER_NOT_FOUND | adding a user who does not exist",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:85",
    "page": "organizations",
    "type": "text",
    "content": "409 | SLUG_TAKEN | the slug is in use (deleted organizations included)",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:86",
    "page": "organizations",
    "type": "text",
    "content": "409 | ALREADY_MEMBER | adding or inviting a member",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:87",
    "page": "organizations",
    "type": "text",
    "content": "409 | LAST_OWNER | the change would leave no owner",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:88",
    "page": "organizations",
    "type": "text",
    "content":
      "409 | INVITATION_NOT_PENDING | the invitation was already accepted, rejected or canceled",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:89",
    "page": "organizations",
    "type": "text",
    "content": "409 | INVITATION_REVOKED | accepting after the inviter lost the right to send it",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:90",
    "page": "organizations",
    "type": "text",
    "content": "410 | INVITATION_EXPIRED | the invitation expired",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:91",
    "page": "organizations",
    "type": "text",
    "content": "503 | SERVICE_UNAVAILABLE | the database cannot be reached",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations:92",
    "page": "organizations",
    "type": "text",
    "content":
      "Order of checks on every route: credential (401), origin (403 CSRF_REJECTED), input (400), membership (404), role (403), then the route's own conflicts (409/410).",
    "url": "/docs/organizations#errors",
    "context": "Organizations › Errors",
  },
  {
    "id": "organizations#notifications",
    "page": "organizations",
    "type": "heading",
    "content": "Notifications",
    "url": "/docs/organizations#notifications",
    "context": "Organizations",
  },
  {
    "id": "organizations:93",
    "page": "organizations",
    "type": "text",
    "content":
      "Eleven events, each recorded in the transaction of its change (an event exists exactly when its change committed) and delivered afterwards to the handler in organizations.hooks, through the durable hooks of the database layer: outside any transaction, retried with backoff when the handler throws (at-least-once: use context.id to make a handler idempotent). Only events with a handler are recorded.",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:94",
    "page": "organizations",
    "type": "text",
    "content":
      "organizationCreated | {organization, member, actorUserId} (also for autoCreateOrganization)",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:95",
    "page": "organizations",
    "type": "text",
    "content": 'organizationUpdated | {organization, changed: ["name", …], actorUserId}',
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:96",
    "page": "organizations",
    "type": "text",
    "content": "organizationDeleted | {organization, canceledInvitationIds, actorUserId}",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:97",
    "page": "organizations",
    "type": "text",
    "content":
      'memberAdded | {member, via: "added" | "invitation", actorUserId} (null for api.addMember)',
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:98",
    "page": "organizations",
    "type": "text",
    "content": "memberRemoved | {member, actorUserId} (removed or left)",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:99",
    "page": "organizations",
    "type": "text",
    "content": "memberRolesChanged | {member, previousRoles, actorUserId}",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:100",
    "page": "organizations",
    "type": "text",
    "content":
      "invitationCreated | {invitation (with token), organization, rotated, actorUserId}: send the email here",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:101",
    "page": "organizations",
    "type": "text",
    "content": "invitationAccepted | {invitation, member, actorUserId}",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:102",
    "page": "organizations",
    "type": "text",
    "content": "invitationRejected | {invitation, actorUserId}",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:103",
    "page": "organizations",
    "type": "text",
    "content":
      "invitationCanceled | {invitation, actorUserId} (also for each pending one of a deleted organization)",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:104",
    "page": "organizations",
    "type": "text",
    "content": "invitationExpired | {invitation}",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:105",
    "page": "organizations",
    "type": "text",
    "content":
      "The token at rest. Only invitationCreated carries a token, and the hook table does not keep it in plain text: the stored payload holds the invitation without its token, the token sealed with AES-256-GCM (sealedToken, bound to the invitation id) under a key derived (HKDF-SHA-256) from the deployment's secret (see auth.md), and its SHA-256 (tokenHash). The worker opens it just before calling your handler, which receives the documented payload, token included; api.hooks.list() and a database dump show only the sealed form. Trade-off: a token sealed under a key the delivering process does not have (the secret changed, or no secret is set, which means a random key per process, and another process or an earlier run sealed it) cannot be opened; rather than lose the mail, the delivery gives the invitation a new token (if it is still pending with the sealed one) and records a new invitationCreated (rotated: true) that this process can open; the token of the inviter's creation answer then stops working. Set secret (the same on every process) to avoid it.",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations:106",
    "page": "organizations",
    "type": "text",
    "content":
      "The delivery worker is the module's background: the module's first request starts it, wherever the module is mounted (fragment-cli serve, serve(), Deno.serve(authModule.fetch), a Hono app…), and await authModule.close() stops it after the deliveries in flight. With autoStart: false it is yours to start (authModule.background?.start()) or to replace with authModule.background?.drain() (see background work, Deno Deploy included); until something runs them, events wait in the database, none is lost. authModule.api.hooks exposes the hooks for inspection (list({status: \"failed\"})), requeue() and, in tests, drain(). Besides the application's events, one internal occurrence per invitation is scheduled at its expiry to mark it expired (and emit invitationExpired).",
    "url": "/docs/organizations#notifications",
    "context": "Organizations › Notifications",
  },
  {
    "id": "organizations#storage",
    "page": "organizations",
    "type": "heading",
    "content": "Storage",
    "url": "/docs/organizations#storage",
    "context": "Organizations",
  },
  {
    "id": "organizations:107",
    "page": "organizations",
    "type": "text",
    "content": "The organizations tables are versions 4–16 of the auth schema (namespace auth):",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:108",
    "page": "organizations",
    "type": "text",
    "content":
      "4 | organizations (id, name, slug unique, logo_url, metadata jsonb, created_by → users, created_at, updated_at, deleted_at)",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:109",
    "page": "organizations",
    "type": "text",
    "content":
      "5 | members (id, organization_id → organizations on delete cascade, user_id → users on delete cascade, roles jsonb, …)",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:110",
    "page": "organizations",
    "type": "text",
    "content": "6 | unique index members_organization_user_key (organization_id, user_id)",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:111",
    "page": "organizations",
    "type": "text",
    "content": "7 | index members_user_id_idx",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:112",
    "page": "organizations",
    "type": "text",
    "content":
      "8 | invitations (id, organization_id, email, roles jsonb, status, token_hash unique, inviter_id, expires_at, created_at, updated_at, responded_at); the column was token until version 21",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:113",
    "page": "organizations",
    "type": "text",
    "content":
      "9 | unique partial index invitations_pending_email_key (organization_id, email) where status = 'pending'",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:114",
    "page": "organizations",
    "type": "text",
    "content": "10 | index invitations_email_idx (email, status)",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:115",
    "page": "organizations",
    "type": "text",
    "content": "11 | index invitations_organization_idx (organization_id, created_at, id)",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:116",
    "page": "organizations",
    "type": "text",
    "content": "12 | sessions.active_organization_id → organizations on delete set null",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:117",
    "page": "organizations",
    "type": "text",
    "content": "13–16 | the durable hook table hook_occurrences and its indexes",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations:118",
    "page": "organizations",
    "type": "text",
    "content":
      "21–22 | invitations.token renamed token_hash; tokens stored before in plain text replaced by their SHA-256 (hex) in place: they keep working",
    "url": "/docs/organizations#storage",
    "context": "Organizations › Storage",
  },
  {
    "id": "organizations#security-notes",
    "page": "organizations",
    "type": "heading",
    "content": "Security notes",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations",
  },
  {
    "id": "organizations:119",
    "page": "organizations",
    "type": "text",
    "content":
      "Tokens (credentials and invitations) are 256-bit CSPRNG values, stored as SHA-256 only; an invitation token is compared (as its digest) in constant time and returned only in the inviter's creation answer. The one copy at rest is sealed in the invitationCreated event (see Notifications).",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:120",
    "page": "organizations",
    "type": "text",
    "content":
      "Accepting needs the token and the caller's email (normalized the same way everywhere), verified; the status, the expiry, the organization's deletion and the inviter's current rights are re-checked inside the accepting transaction, whose conditional update makes a double accept produce one membership. See security.md.",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:121",
    "page": "organizations",
    "type": "text",
    "content":
      "Roles are validated against roles; only owners grant, revoke or touch owner; the last-owner rule holds under concurrent requests because every role change and removal first locks the organization row, then re-reads the caller's roles and counts the other owners. Adding a member directly is one statement (it checks the caller's roles, the user and the member count, inserts the member and enqueues memberAdded); with a membershipLimit it runs right after locking the organization row, as an acceptance counts the members after the same lock, so concurrent adds and acceptances never overshoot the limit. Without a limit it takes no lock: adding a member removes no owner, and a role change committed before it is seen, one committed while it runs is ordered after it.",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:122",
    "page": "organizations",
    "type": "text",
    "content":
      "Membership needs consent: direct adds only with canAddMember, invitations otherwise (see Consent); GET /me is bounded to 100 organizations and 100 invitations.",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:123",
    "page": "organizations",
    "type": "text",
    "content":
      "Every member and invitation lookup is scoped by organization id; non-members get 404 for anything inside an organization; soft-deleted organizations are filtered in every query.",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:124",
    "page": "organizations",
    "type": "text",
    "content":
      "Cursors are signed with the deployment's secret, bound to their list and type-checked before any query (see security: cursors), pageSize is clamped; logoUrl must be http(s); metadata is size-bounded; bodies are limited (bodyLimit, 64 KiB by default).",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:125",
    "page": "organizations",
    "type": "text",
    "content":
      "Organizations per user, members per organization and pending invitations per organization are limited (organizationLimit, membershipLimit, invitationLimit, 100 each by default).",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "organizations:126",
    "page": "organizations",
    "type": "text",
    "content": "Invitations reach verified addresses only, and die with their inviter's rights.",
    "url": "/docs/organizations#security-notes",
    "context": "Organizations › Security notes",
  },
  {
    "id": "search",
    "page": "search",
    "type": "page",
    "content": "Search and the reference site",
    "url": "/docs/search",
    "context": "",
  },
  {
    "id": "search:1",
    "page": "search",
    "type": "text",
    "content":
      "fragment-cli search searches this documentation from the terminal. It asks the project's reference site, a small site that serves the pages of docs/, and works offline from an index of the same pages shipped inside the package.",
    "url": "/docs/search",
    "context": "Search and the reference site",
  },
  {
    "id": "search#fragment-cli-search",
    "page": "search",
    "type": "heading",
    "content": "fragment-cli search",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site",
  },
  {
    "id": "search:2",
    "page": "search",
    "type": "text",
    "content":
      "The words of the query are joined with spaces and sent to <base-url>/api/search?query=<query>. The hits come back ranked; the command groups them by page (the hit's URL without its #anchor), keeping the pages in the order of their first hit and, on each page, all its sections in rank order.",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:3",
    "page": "search",
    "type": "text",
    "content":
      "--limit <pages> | Maximum number of pages to show (pages, not raw hits: each page keeps all its sections) | 10",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:4",
    "page": "search",
    "type": "text",
    "content": "--json | Print only a JSON array on stdout (shape below) | off",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:5",
    "page": "search",
    "type": "text",
    "content":
      "--base-url <url> | The site to search: an http:// or https:// URL, its path kept (https://example.org/handbook asks https://example.org/handbook/api/search); a bare host means https | https://fragment-cli.dev",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:6",
    "page": "search",
    "type": "text",
    "content": "--timeout <seconds> | How long to wait for the site's whole answer | 10",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:7",
    "page": "search",
    "type": "text",
    "content": "Examples:",
    "url": "/docs/search#fragment-cli-search",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search#markdown-output",
    "page": "search",
    "type": "heading",
    "content": "Markdown output",
    "url": "/docs/search#markdown-output",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:8",
    "page": "search",
    "type": "text",
    "content":
      'Per page: its title, its breadcrumbs when the site gives any (Breadcrumbs: Guides › Deploy), its URL, the URL of its Markdown source, and its sections: headings in bold, text blocks shortened to 240 characters, each with its #anchor. When --limit hides pages the first line says (showing N; raise --limit to see more). No hit prints No results for "<query>". and exits 0.',
    "url": "/docs/search#markdown-output",
    "context": "Search and the reference site › fragment-cli search › Markdown output",
  },
  {
    "id": "search#json-output",
    "page": "search",
    "type": "heading",
    "content": "JSON output",
    "url": "/docs/search#json-output",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:9",
    "page": "search",
    "type": "text",
    "content":
      "With --json, stdout holds exactly one JSON array (an empty one when nothing matched); notes go to stderr:",
    "url": "/docs/search#json-output",
    "context": "Search and the reference site › fragment-cli search › JSON output",
  },
  {
    "id": "search:10",
    "page": "search",
    "type": "text",
    "content":
      "title: the page title; url, mdUrl: absolute URLs of the page as HTML and as Markdown.",
    "url": "/docs/search#json-output",
    "context": "Search and the reference site › fragment-cli search › JSON output",
  },
  {
    "id": "search:11",
    "page": "search",
    "type": "text",
    "content":
      'breadcrumbs: where the page sits in the site, e.g. ["Guides"]; [] for a top-level page.',
    "url": "/docs/search#json-output",
    "context": "Search and the reference site › fragment-cli search › JSON output",
  },
  {
    "id": "search:12",
    "page": "search",
    "type": "text",
    "content":
      'sections: the page\'s relevant sections in rank order, each {type, content, url} with type "heading" or "text", content in full (not shortened) and url absolute with its anchor.',
    "url": "/docs/search#json-output",
    "context": "Search and the reference site › fragment-cli search › JSON output",
  },
  {
    "id": "search#failures-and-exit-codes",
    "page": "search",
    "type": "heading",
    "content": "Failures and exit codes",
    "url": "/docs/search#failures-and-exit-codes",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:13",
    "page": "search",
    "type": "text",
    "content": "results, or none | 0 | Markdown or JSON on stdout",
    "url": "/docs/search#failures-and-exit-codes",
    "context": "Search and the reference site › fragment-cli search › Failures and exit codes",
  },
  {
    "id": "search:14",
    "page": "search",
    "type": "text",
    "content":
      "no query, a bad --limit/--timeout/--base-url, an unknown option | 2 | one reason line and the usage on stderr",
    "url": "/docs/search#failures-and-exit-codes",
    "context": "Search and the reference site › fragment-cli search › Failures and exit codes",
  },
  {
    "id": "search:15",
    "page": "search",
    "type": "text",
    "content":
      "the site answers an HTTP error, something that is not JSON, or JSON that is not a list of search hits | 1 | one line naming the URL and the cause, e.g. error: https://example.org/api/search?query=hooks answered HTTP 500 Internal Server Error",
    "url": "/docs/search#failures-and-exit-codes",
    "context": "Search and the reference site › fragment-cli search › Failures and exit codes",
  },
  {
    "id": "search:16",
    "page": "search",
    "type": "text",
    "content":
      "the site cannot be reached, or does not answer within --timeout | 1 | error: cannot reach <url>: <cause> or error: <url> did not answer within 10 s",
    "url": "/docs/search#failures-and-exit-codes",
    "context": "Search and the reference site › fragment-cli search › Failures and exit codes",
  },
  {
    "id": "search#offline-the-bundled-index",
    "page": "search",
    "type": "heading",
    "content": "Offline: the bundled index",
    "url": "/docs/search#offline-the-bundled-index",
    "context": "Search and the reference site › fragment-cli search",
  },
  {
    "id": "search:17",
    "page": "search",
    "type": "text",
    "content":
      "The package ships the search records of its own docs/ (src/search/docs_index.ts). When the default site fails in any way (unreachable, no answer in time, an HTTP error, not search JSON) the command searches that index instead, ranks it exactly as the site does, and says so on stderr:",
    "url": "/docs/search#offline-the-bundled-index",
    "context": "Search and the reference site › fragment-cli search › Offline: the bundled index",
  },
  {
    "id": "search:18",
    "page": "search",
    "type": "text",
    "content":
      "So search works on an air-gapped machine, answering for the docs of the installed version; the URLs it prints still point at the site. A network error arrives at once, so the fallback is immediate offline; a network that swallows packets costs at most --timeout. With an explicit --base-url there is no fallback: a failure is an error (exit 1).",
    "url": "/docs/search#offline-the-bundled-index",
    "context": "Search and the reference site › fragment-cli search › Offline: the bundled index",
  },
  {
    "id": "search:19",
    "page": "search",
    "type": "text",
    "content":
      "The environment variable FRAGMENT_CLI_SEARCH_URL replaces the default address (a mirror, or a site on your machine) and keeps the fallback; --base-url still wins over it.",
    "url": "/docs/search#offline-the-bundled-index",
    "context": "Search and the reference site › fragment-cli search › Offline: the bundled index",
  },
  {
    "id": "search#any-site-with-the-same-search-json",
    "page": "search",
    "type": "heading",
    "content": "Any site with the same search JSON",
    "url": "/docs/search#any-site-with-the-same-search-json",
    "context": "Search and the reference site",
  },
  {
    "id": "search:20",
    "page": "search",
    "type": "text",
    "content":
      "search reads the response of a Fumadocs (Orama) documentation-search endpoint, so it works with any site that serves one: an array, best first, of",
    "url": "/docs/search#any-site-with-the-same-search-json",
    "context": "Search and the reference site › Any site with the same search JSON",
  },
  {
    "id": "search:21",
    "page": "search",
    "type": "text",
    "content":
      "url may be relative to the site or absolute; breadcrumbs is optional; other fields are ignored. A page hit gives its page's title and breadcrumbs; a page with hits but no page hit is titled after the last segment of its URL.",
    "url": "/docs/search#any-site-with-the-same-search-json",
    "context": "Search and the reference site › Any site with the same search JSON",
  },
  {
    "id": "search#the-reference-site",
    "page": "search",
    "type": "heading",
    "content": "The reference site",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site",
  },
  {
    "id": "search:22",
    "page": "search",
    "type": "text",
    "content": "The site serves docs/ (every *.md file, sub-folders included):",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:23",
    "page": "search",
    "type": "text",
    "content": "GET /docs | the list of pages",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:24",
    "page": "search",
    "type": "text",
    "content":
      "GET /docs/<page> | the page as HTML; headings carry GitHub-style anchors (## db migrate → #db-migrate), links between .md files become site links",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:25",
    "page": "search",
    "type": "text",
    "content": "GET /docs/<page>.md | the page's Markdown source (text/markdown)",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:26",
    "page": "search",
    "type": "text",
    "content": "GET /api/search?query=<q> | the search JSON above, ranked; [] for an empty query",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:27",
    "page": "search",
    "type": "text",
    "content":
      "GET /search?query=<q> | the same results as an HTML page (the search box of every page)",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:28",
    "page": "search",
    "type": "text",
    "content":
      'Other methods answer 405, unknown API paths 404 in the {"error": {…}} shape, unknown pages an HTML 404.',
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:29",
    "page": "search",
    "type": "text",
    "content": "Run it locally (it reads docs/ when it starts):",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:30",
    "page": "search",
    "type": "text",
    "content":
      "scripts/site/deploy.ts is the same site as a Web-standard module, export default { fetch }, for Deno Deploy or deno serve -A scripts/site/deploy.ts. The site is part of the repository, not of the published package: its Markdown renderer (marked, with github-slugger for the anchors) is never loaded by the CLI.",
    "url": "/docs/search#the-reference-site",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search#how-pages-become-search-hits",
    "page": "search",
    "type": "heading",
    "content": "How pages become search hits",
    "url": "/docs/search#how-pages-become-search-hits",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:31",
    "page": "search",
    "type": "text",
    "content":
      "Each page gives one page record (its first # heading is the title), one heading record per other heading and one text record per paragraph, list item, blockquote or table row, each text pointing at the anchor of the heading above it. Code blocks are not indexed (as in Fumadocs): the prose around them says what they do.",
    "url": "/docs/search#how-pages-become-search-hits",
    "context": "Search and the reference site › The reference site › How pages become search hits",
  },
  {
    "id": "search:32",
    "page": "search",
    "type": "text",
    "content":
      "Ranking is MiniSearch (BM25): the words of the query must all be found in a record (its own text, or the page title and headings above it, which weigh less); when no record holds them all, any word will do. Words are matched by prefix (migr finds migrate), with one typo forgiven in words of five letters or more, plurals folded to singulars, and a few English stop words ignored. A page title weighs more than a heading, a heading more than text; a record found only through the headings above it is not a hit. Pages rank by their best hit and list at most 8 sections, the best first.",
    "url": "/docs/search#how-pages-become-search-hits",
    "context": "Search and the reference site › The reference site › How pages become search hits",
  },
  {
    "id": "search#keeping-the-bundled-index-fresh",
    "page": "search",
    "type": "heading",
    "content": "Keeping the bundled index fresh",
    "url": "/docs/search#keeping-the-bundled-index-fresh",
    "context": "Search and the reference site › The reference site",
  },
  {
    "id": "search:33",
    "page": "search",
    "type": "text",
    "content": "After editing anything in docs/, rebuild the index and commit it with the docs:",
    "url": "/docs/search#keeping-the-bundled-index-fresh",
    "context":
      "Search and the reference site › The reference site › Keeping the bundled index fresh",
  },
  {
    "id": "search:34",
    "page": "search",
    "type": "text",
    "content":
      "tests/search/docs_index.test.ts fails while the index is stale and names this task.",
    "url": "/docs/search#keeping-the-bundled-index-fresh",
    "context":
      "Search and the reference site › The reference site › Keeping the bundled index fresh",
  },
  {
    "id": "security",
    "page": "security",
    "type": "page",
    "content": "Security",
    "url": "/docs/security",
    "context": "",
  },
  {
    "id": "security:1",
    "page": "security",
    "type": "text",
    "content":
      "What the auth and messenger modules defend against, what a deployment must configure for those defences to hold, and the test that backs each claim. Every attack below is replayed through HTTP against a served module by one test file, tests/security/attacks.test.ts (each finding's attacks in a module of its own under tests/security/attacks/), and each test fails if its fix is removed. Randomized attacks are seeded.",
    "url": "/docs/security",
    "context": "Security",
  },
  {
    "id": "security#threat-model",
    "page": "security",
    "type": "heading",
    "content": "Threat model",
    "url": "/docs/security#threat-model",
    "context": "Security",
  },
  {
    "id": "security:2",
    "page": "security",
    "type": "text",
    "content":
      "an anonymous client on the network | send any request with any headers (Host, Origin, X-Forwarded-For, cookies), any body, at any rate | crash a route (every bad input is a 4xx), exhaust the password hasher, guess passwords at volume, mint cursors",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security:3",
    "page": "security",
    "type": "text",
    "content":
      "a signed-up user (any email, unverified) | use every route their membership allows; read ids in the member lists of organizations they share | read or accept invitations sent to an address they have not proven, add strangers to organizations, bloat their /me",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security:4",
    "page": "security",
    "type": "text",
    "content":
      "a hostile web page visited by a victim | make the victim's browser send cross-site requests carrying the victim's cookie (forms, no-cors fetch) | write anything in the victim's name (CSRF), sign the victim into the attacker's account (login CSRF)",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security:5",
    "page": "security",
    "type": "text",
    "content":
      "a removed or demoted admin | keep invitation tokens they created | let someone join through those tokens after losing the right to invite",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security:6",
    "page": "security",
    "type": "text",
    "content":
      "someone with a copy of the database | read every row, including backups | use a stored session, invitation or verification token (all SHA-256 only; event payloads sealed with secret)",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security:7",
    "page": "security",
    "type": "text",
    "content":
      "Out of scope: an attacker who runs code in the server process or holds the deployment's secret (they can forge cursors, which then still cannot crash a route: cursor values are type-checked), and the network between the client and a TLS-terminating proxy (use HTTPS: cookies are Secure except on plain-http localhost).",
    "url": "/docs/security#threat-model",
    "context": "Security › Threat model",
  },
  {
    "id": "security#what-the-deployment-must-configure",
    "page": "security",
    "type": "heading",
    "content": "What the deployment must configure",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security",
  },
  {
    "id": "security:8",
    "page": "security",
    "type": "text",
    "content":
      "secret / FRAGMENT_SECRET (≥ 32 chars) | signs cursors and seals invitation tokens in stored events; the same value in every process | fragment-cli serve on PGlite generates .data/fragment-secret; otherwise a random key per process + warning",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:9",
    "page": "security",
    "type": "text",
    "content":
      "publicOrigin (PUBLIC_ORIGIN in the example) | origin and Secure-cookie decisions and email links; without it they use the request's own origin | the request's origin (fine for local development only)",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:10",
    "page": "security",
    "type": "text",
    "content":
      "trustedOrigins | front ends on other origins that may send unsafe requests and read answers with cookies (CORS): list exact origins, only yours | none",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:11",
    "page": "security",
    "type": "text",
    "content":
      "trustProxy | behind a proxy, the header that carries the client address (rate limits per address); never set it without a proxy that overwrites that header | the socket's address",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:12",
    "page": "security",
    "type": "text",
    "content":
      "sendVerificationEmail | delivers verification mail; invitations reach verified addresses only | logs the link on the console (development)",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:13",
    "page": "security",
    "type": "text",
    "content":
      "rateLimit | per-account and per-address limits on sign-in and sign-up | on, see rate limits",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:14",
    "page": "security",
    "type": "text",
    "content":
      "organizations.canAddMember, limits | who may add a member without an invitation; how many organizations, members and invitations | direct add refused; 100 each",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security:15",
    "page": "security",
    "type": "text",
    "content":
      "WEBHOOK_SECRET (messenger) | the secret header of the webhook | examples/app.ts generates one per start and does not print it",
    "url": "/docs/security#what-the-deployment-must-configure",
    "context": "Security › What the deployment must configure",
  },
  {
    "id": "security#findings-defences-and-their-tests",
    "page": "security",
    "type": "heading",
    "content": "Findings, defences and their tests",
    "url": "/docs/security#findings-defences-and-their-tests",
    "context": "Security",
  },
  {
    "id": "security:16",
    "page": "security",
    "type": "text",
    "content":
      "The sections below come from the adversarial review of issue 20. Each says what the attack was, what defends against it, what the deployment must do, and which tests back it.",
    "url": "/docs/security#findings-defences-and-their-tests",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security#forged-cursors-finding-1",
    "page": "security",
    "type": "heading",
    "content": "Forged cursors (finding 1)",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security:17",
    "page": "security",
    "type": "text",
    "content":
      "The attack. Every list of the auth module (GET /organizations, GET /organizations/:organizationId/members, GET /organizations/:organizationId/invitations, GET /organizations/invitations) pages with an opaque cursor: base64url JSON (the list's fingerprint, the direction, the page size and the last row's sort key) followed by an HMAC-SHA-256 of it. Until this fix the HMAC key was a constant shipped in the package (src/db/cursor.ts), so anyone could decode a cursor, change its sort key and sign it again. A value of the wrong type then reached SQL: a word where the created_at timestamp is, a malformed uuid, a NUL byte, a date like 2024-02-30, and the route answered 500 (SQLSTATE 22007, 22P02, 22021, 22008). The same follows from any leaked key, so the key alone cannot be the defence.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:18",
    "page": "security",
    "type": "text",
    "content": "What defends against it.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:19",
    "page": "security",
    "type": "text",
    "content":
      "No packaged key. keysetQuery() has no default key: its secret option is required. The auth module signs with its secret option, else FRAGMENT_SECRET (at least 32 characters, checked at instantiation). With neither, it signs with a random key of its process, and says so once on stderr; a client can never mint a cursor the server accepts.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:20",
    "page": "security",
    "type": "text",
    "content":
      "Typed cursor values. Every sort column is declared with its type (created_at: timestamptz, id: uuid for the four lists). After the signature and the list binding are checked, each decoded value must be one PostgreSQL reads back unchanged as that type (ISO timestamp with a valid date, time and offset, in PostgreSQL's range; canonical uuid; for text no NUL and no lone surrogate; integers in range), and it is bound as $n::type. Anything else is InvalidCursorError, so the query never sees it, whoever signed the cursor.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:21",
    "page": "security",
    "type": "text",
    "content":
      "Bound to its list. The fingerprint covers the list id (which includes the user, organization or email the list is scoped to), the typed columns and the direction: a cursor of another list, of another user's list or of another organization is refused.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:22",
    "page": "security",
    "type": "text",
    "content":
      "Every refusal is 400 INVALID_CURSOR; a cursor only chooses where a page of the caller's own, already authorized list starts, so even a valid forged cursor reveals nothing more than paging.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:23",
    "page": "security",
    "type": "text",
    "content":
      "What the deployment must configure. FRAGMENT_SECRET (or the secret option of auth()): a random value of at least 32 characters (openssl rand -base64 32), the same in every process, kept out of source control. Without it cursors are not forgeable either, but they stop working after a restart and across processes. fragment-cli serve on the embedded database generates one at the first start and keeps it in .data/fragment-secret (mode 0600); on PostgreSQL without one it starts with a loud warning (a warning, not an error: the cost is cursors that restart from the first page, not a hole). The messenger's listUpdates() (a server-side API) signs its cursors with its own secret option or FRAGMENT_SECRET too, else with the process key; hooks.list() hands its cursors to no client and signs them with the process key.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:24",
    "page": "security",
    "type": "text",
    "content": "Tests.",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:25",
    "page": "security",
    "type": "text",
    "content":
      'a well-typed cursor re-signed with the key the package shipped | tests/security/attacks/cursors.ts: "a well-typed cursor re-signed with the packaged key is refused: 400 INVALID_CURSOR" (four routes)',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:26",
    "page": "security",
    "type": "text",
    "content":
      'type-confused values (text for a timestamp or uuid, numbers, nulls, arrays, 3,000-character strings, NUL bytes, lone surrogates, wrong column count) with the packaged key | same file: "type-confused values signed with the packaged key: 400, never 5xx"',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:27",
    "page": "security",
    "type": "text",
    "content":
      'the same values and edited envelopes (version, direction, page size, fingerprint) signed with the deployment\'s own (leaked) key | same file: "values that are not of the columns\' types: 400 INVALID_CURSOR before any query"; its control "the deployment secret is the key: …"',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:28",
    "page": "security",
    "type": "text",
    "content":
      'garbage, base64 junk, tampered body or MAC, cut or extended cursors | same file: "garbage, tampered and base64 junk cursors: 400 INVALID_CURSOR"',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:29",
    "page": "security",
    "type": "text",
    "content":
      'a cursor of another list, another user\'s list, another organization | same file: "a cursor of another list, of another user, of another organization: 400"',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:30",
    "page": "security",
    "type": "text",
    "content":
      'random sort keys signed with the key; random edits of real cursors (fast-check, seeds 200001, 200002) | same file: "seeded random sort keys, …: 200 or 400 INVALID_CURSOR, never 5xx", "seeded random mutations of real cursors: …"',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:31",
    "page": "security",
    "type": "text",
    "content":
      'no default key; a key is needed to verify; each type\'s accepted and refused values; accepted values are ones PostgreSQL takes | tests/db/cursor.test.ts: "has no default key: …", "refuses, signed with the right key, values that are not of the columns\' types", "checks int4, int8 and text values", "every value the type check lets through is one the database takes" (PGlite and PostgreSQL)',
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:32",
    "page": "security",
    "type": "text",
    "content":
      "one secret for every process; another secret refuses; one warning without a secret | tests/auth/secret.test.ts",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:33",
    "page": "security",
    "type": "text",
    "content":
      "the messenger: same secret pages across instances, another refuses, non-int8 values refused | tests/messenger/secret.test.ts",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security:34",
    "page": "security",
    "type": "text",
    "content":
      "serve generates, keeps (0600) and reuses the secret on PGlite; warns on PostgreSQL | tests/cli/serve_secret.test.ts",
    "url": "/docs/security#forged-cursors-finding-1",
    "context": "Security › Findings, defences and their tests › Forged cursors (finding 1)",
  },
  {
    "id": "security#origins-host-headers-and-request-framing-findings-2-6-and-7",
    "page": "security",
    "type": "heading",
    "content": "Origins, Host headers and request framing (findings 2, 6 and 7)",
    "url": "/docs/security#origins-host-headers-and-request-framing-findings-2-6-and-7",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security:35",
    "page": "security",
    "type": "text",
    "content":
      "Attacks replayed by tests/security/attacks/origin.ts (run through tests/security/attacks.test.ts) against the auth module served over real HTTP by serve().",
    "url": "/docs/security#origins-host-headers-and-request-framing-findings-2-6-and-7",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7)",
  },
  {
    "id": "security#login-csrf",
    "page": "security",
    "type": "heading",
    "content": "Login CSRF",
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7)",
  },
  {
    "id": "security:36",
    "page": "security",
    "type": "text",
    "content":
      "Attack. A page on another site posts a form (or a fetch with mode: \"no-cors\") to /api/auth/sign-in with the attacker's email and password. text/plain, urlencoded and multipart bodies need no CORS preflight, and sign-in used to skip the origin check (it had no credential to check it for) and parse any body as JSON. The visitor's browser then holds the attacker's session: whatever they store (a card, a document, an organization they create) lands in the attacker's account. Sign-up worked the same way (an account created in the visitor's name by any page).",
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Login CSRF",
  },
  {
    "id": "security:37",
    "page": "security",
    "type": "text",
    "content":
      "Defence. Every unsafe request (POST, PUT, PATCH, DELETE) of the module follows one origin rule, anonymous requests included: publicRoute (sign-up, sign-in, and the routes other features add for anonymous callers, such as POST /verify-email) checks it for every unsafe request before it validates anything; authedRoute checks it for cookie-authenticated ones after the credential. A request is refused with 403 CSRF_REJECTED when its Origin is neither the deployment's origin nor one of trustedOrigins (Origin: null, the origin of sandboxed frames, included), or when it has no Origin but Sec-Fetch-Site: cross-site. Requests with neither header (curl, servers, mobile apps) pass: they are not a browser acting for a visitor. Bearer-authenticated requests to authenticated routes are not checked, since a cross-site page cannot attach that header.",
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Login CSRF",
  },
  {
    "id": "security:38",
    "page": "security",
    "type": "text",
    "content":
      "Second layer: every route that declares a JSON body (all of the auth module's) answers 415 UNSUPPORTED_MEDIA_TYPE unless the body is labelled application/json or application/*+json (a charset other than UTF-8 is refused too). This check sits in the core (createModuleFetch, src/core/json_content_type.ts), so it holds for every module, before the body is read. A page can only send application/json cross-origin after a CORS preflight, which a hostile origin does not pass. The messenger webhook declares no body schema and keeps taking what the messenger sends.",
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Login CSRF",
  },
  {
    "id": "security:39",
    "page": "security",
    "type": "text",
    "content":
      "Deployment. Set publicOrigin (PUBLIC_ORIGIN in examples/app.ts) to the origin users reach the API at; list front ends served from other origins in trustedOrigins.",
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Login CSRF",
  },
  {
    "id": "security:40",
    "page": "security",
    "type": "text",
    "content":
      'Tests. login CSRF: sign-in and sign-up follow the origin rule (finding 2): a sign-in with the attacker\'s credentials from Origin: https://evil.example (with the victim\'s cookie attached), from Origin: null and with Sec-Fetch-Site: cross-site → 403 and no Set-Cookie; the same for sign-up, and no account created; text/plain, text/plain;charset=UTF-8, urlencoded, multipart, application/jsonx, application/json; charset=latin1 and no Content-Type on sign-in and sign-up → 415; a text/plain body on an authenticated route → 415; same-origin, trusted-origin, headerless, +json and charset=utf-8 sign-ins → 200. Unit tests: tests/auth/auth_http.test.ts ("refuses a sign-in or sign-up from another origin (login CSRF) with 403, before validating it", "answers 415 to a sign-in whose body is not labelled JSON"), tests/core/module_http.test.ts ("answers 415 to a declared body not labelled JSON, before reading it").',
    "url": "/docs/security#login-csrf",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Login CSRF",
  },
  {
    "id": "security#cors-who-may-read-the-answers",
    "page": "security",
    "type": "heading",
    "content": "CORS: who may read the answers",
    "url": "/docs/security#cors-who-may-read-the-answers",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7)",
  },
  {
    "id": "security:41",
    "page": "security",
    "type": "text",
    "content":
      "Attack. A page on another origin reads a signed-in visitor's data (GET /me, the member lists) with fetch(url, { credentials: \"include\" }), or a look-alike origin (https://app.example.com.evil.com, http://app.example.com, Origin: null from a sandboxed frame) passes a prefix, suffix or scheme-blind comparison and is allowed to. A CORS layer that reflects any Origin with Access-Control-Allow-Credentials: true hands every site the visitor's data.",
    "url": "/docs/security#cors-who-may-read-the-answers",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › CORS: who may read the answers",
  },
  {
    "id": "security:42",
    "page": "security",
    "type": "text",
    "content":
      "Defence. src/auth/cors.ts: CORS is granted only to the exact serialized origins of trustedOrigins (the list the origin rule reads, so one list decides who may write and who may read), with the exact origin echoed (never *) and Vary: Origin. Any other origin gets no Access-Control-* header, and a trusted origin's preflight asking for a method or header the module does not accept gets none either. CORS never loosens the origin rule: unsafe requests from untrusted origins are still 403 CSRF_REJECTED. See auth.md.",
    "url": "/docs/security#cors-who-may-read-the-answers",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › CORS: who may read the answers",
  },
  {
    "id": "security:43",
    "page": "security",
    "type": "text",
    "content":
      "Tests. CORS: only trustedOrigins may read answers (with cookies) (tests/security/attacks/cors.ts): a trusted preflight gets exactly the expected headers; a trusted sign-up answer and a 401 carry the origin and the credentials flag; twelve look-alikes (suffix, prefix, other TLD, http, another port, upper case, trailing /, null, a list, *, empty) get no CORS header on preflight, POST (403 CSRF_REJECTED) or GET; a trusted preflight for PUT, TRACE, CONNECT, lower-case post, or the headers X-Forwarded-For, Cookie, X-Requested-With gets no allowance; a module without trustedOrigins answers none.",
    "url": "/docs/security#cors-who-may-read-the-answers",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › CORS: who may read the answers",
  },
  {
    "id": "security#a-trusted-host-header",
    "page": "security",
    "type": "heading",
    "content": "A trusted Host header",
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7)",
  },
  {
    "id": "security:44",
    "page": "security",
    "type": "text",
    "content":
      "Attack 1: the Host decides. The same-origin check compared Origin with the request URL's origin, and the Secure flag of the session cookie was dropped when that URL was plain http on a loopback host. Both URLs come from the Host header, which the client (or a proxy) chooses. Behind a TLS-terminating proxy that forwards to http://127.0.0.1:8080 and passes that Host, the session cookie of an https site lost Secure (then sent over any plain-http request to the domain), and the same-origin check accepted an Origin of http://127.0.0.1:8080 and refused the real one.",
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › A trusted Host header",
  },
  {
    "id": "security:45",
    "page": "security",
    "type": "text",
    "content":
      "Attack 2: a Host carrying a path reroutes. Runtimes build request.url from Host plus the request target. On Deno, POST /api/auth/sign-in with Host: 127.0.0.1:8080/api/auth/sign-up? became http://127.0.0.1:8080/api/auth/sign-up?/api/auth/sign-in: the sign-in created an account. Anything that routes, logs or authorizes on the path (a proxy allowing only /sign-in, say) was bypassed. Node's HTTP server (through @hono/node-server) refuses such hosts itself with an empty 400; Bun's request URL then fails to parse (400).",
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › A trusted Host header",
  },
  {
    "id": "security:46",
    "page": "security",
    "type": "text",
    "content":
      "Defence. With publicOrigin set, every origin decision uses it: the origin rule compares Origin with publicOrigin (the request's own origin is then not trusted at all), the cookie is Secure unless publicOrigin itself is plain http on a loopback host; deploymentOrigin() in src/auth/origin_check.ts is the one place these decisions and the module's links (the verification link given to sendVerificationEmail) take the origin from. Without it the request's own origin stands in, which is right for local development only. The core refuses a malformed Host with 400 INVALID_HOST before any routing, in every module's fetch and in the composed server of serve() / fragment-cli serve (src/core/host_header.ts): a valid host is a host name (letters, digits, hyphens, underscores, dot-separated labels) or an IPv4 or bracketed IPv6 literal, with an optional port up to 65535, and nothing else (no path, query, fragment, user info, spaces, non-ASCII or empty value). A request with no Host at all (built in code) passes: HTTP/1.1 servers refuse those themselves.",
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › A trusted Host header",
  },
  {
    "id": "security:47",
    "page": "security",
    "type": "text",
    "content":
      "Deployment. Set publicOrigin in production. The Host check does not replace it: a well-formed Host can still name any host.",
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › A trusted Host header",
  },
  {
    "id": "security:48",
    "page": "security",
    "type": "text",
    "content":
      'Tests. Host header: publicOrigin decides, malformed hosts are refused (finding 6): with publicOrigin: "https://app.example.com", a sign-up over http://127.0.0.1:<port> gets a Secure cookie; a sign-in and a cookie sign-out with Origin: http://127.0.0.1:<port> (the Host\'s origin) → 403, with the public origin → 200; raw HTTP over node:net with Host values carrying a path, a query or fragment marker, user info, a port over 65535, an empty port, a space, a backslash, or empty → 400 (INVALID_HOST when the body is ours) and no account created by the rerouted sign-in; 127.0.0.1:<port>, localhost, app.example.com:8443 and [::1]:8080 accepted. Unit tests: tests/auth/auth_http.test.ts ("with publicOrigin, decides origins and Secure from it, never from the Host"), tests/core/module_http.test.ts ("answers 400 INVALID_HOST to a malformed Host header, before routing", module fetch and composeModules), tests/cli/examples_app.test.ts ("follows PUBLIC_ORIGIN and logs an update\'s id and kind, never its text").',
    "url": "/docs/security#a-trusted-host-header",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › A trusted Host header",
  },
  {
    "id": "security#smaller-ones",
    "page": "security",
    "type": "heading",
    "content": "Smaller ones",
    "url": "/docs/security#smaller-ones",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7)",
  },
  {
    "id": "security:49",
    "page": "security",
    "type": "text",
    "content":
      'Lone surrogates in passwords. Passwords are encoded as UTF-8 before hashing, which turns every unpaired surrogate into U+FFFD: "pass\\uD800", "pass\\uDC00" and "pass\\uFFFD" were one password. Sign-up and sign-in now refuse a password that is not well-formed Unicode with 400 VALIDATION_ERROR (body.password) before any hashing (isWellFormed() where the runtime has it, an equivalent pattern otherwise: src/auth/well_formed.ts); api.createUser throws TypeError. An account created with such a password before this change can no longer sign in with it (its password must be reset). Test: "refuses passwords with lone surrogates on sign-up and sign-in (400), which collided".',
    "url": "/docs/security#smaller-ones",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Smaller ones",
  },
  {
    "id": "security:50",
    "page": "security",
    "type": "text",
    "content":
      'Logo URLs stored as given. logoUrl was stored verbatim once it parsed as an http(s) URL, so HTTPS://Example.COM:443/a/../logo 1.png reached every client that renders it unnormalized (spaces, <, mixed case, dot segments, a default port: room for filter bypasses and look-alike links). The stored value is now the parsed URL\'s href (https://example.com/logo%201.png), at most 2048 characters after normalization. Tests: "stores the normalized href of a logo URL" (create and update), and in tests/auth/organizations.test.ts "stores the normalized href of logoUrl".',
    "url": "/docs/security#smaller-ones",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Smaller ones",
  },
  {
    "id": "security:51",
    "page": "security",
    "type": "text",
    "content":
      "Secrets and message text in the example's output. examples/app.ts printed the webhook secret it generated when WEBHOOK_SECRET was unset, and its message handler logged every message's text. Terminal output ends up in log collectors, CI logs and screenshots. It now only says that a secret was generated, not shown, and how to set WEBHOOK_SECRET (the webhook refuses every delivery until then), and the handler logs the update's id and kind. Tests: tests/cli/examples_app.test.ts (\"says a webhook secret was generated without showing it\", \"follows PUBLIC_ORIGIN and logs an update's id and kind, never its text\").",
    "url": "/docs/security#smaller-ones",
    "context":
      "Security › Findings, defences and their tests › Origins, Host headers and request framing (findings 2, 6 and 7) › Smaller ones",
  },
  {
    "id": "security#credential-stuffing-and-hashing-floods-finding-3",
    "page": "security",
    "type": "heading",
    "content": "Credential stuffing and hashing floods (finding 3)",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security:52",
    "page": "security",
    "type": "text",
    "content":
      "The attacks. POST /sign-in and POST /sign-up are open to anyone and each costs one scrypt hash (about 0.3–0.5 s of a core and 128 MiB at the default cost). Without limits:",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:53",
    "page": "security",
    "type": "text",
    "content":
      "Credential stuffing / password guessing: an attacker tries leaked passwords against one account, or one common password against many, as fast as the server hashes, from one address or many.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:54",
    "page": "security",
    "type": "text",
    "content":
      "Hashing flood: junk sign-ins (unknown emails are hashed too, so that timing does not reveal which accounts exist) fill the hashing queue; a legitimate sign-in waited behind 16 concurrent junk ones for 3.4 s, and the queue had no bound at all.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:55",
    "page": "security",
    "type": "text",
    "content": "What defends against them.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:56",
    "page": "security",
    "type": "text",
    "content":
      "Rate limits, before any hashing (option rateLimit, on by default, see auth.md): per client address, 100 attempts per 15 minutes on each route; per account (normalized email), 10 failed sign-ins per 15 minutes (a successful sign-in gives its hit back) and 10 sign-up attempts. Over a limit: 429 RATE_LIMITED with Retry-After. The counters are rows of the rate_limits table, counted by one atomic upsert per check, so every process on the same database sees the same count; a guesser gains nothing by spreading requests over processes or servers. Account buckets hold the SHA-256 of the email, not the email.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:57",
    "page": "security",
    "type": "text",
    "content":
      "A bounded, fair hashing queue (scryptPasswordHasher({ maxConcurrent, maxQueued }), defaults half the cores (1 to 4) and 8): beyond it a request is answered at once with 503 SERVICE_BUSY and Retry-After, never queued for seconds, and memory stays bounded (at most 4 × 128 MiB). Waiting hashes are served fewest-recent-asks first (per address, refused asks included), and a newcomer with fewer recent asks takes the place of the heaviest asker's latest waiter, so a flood delays a sign-in from an address that is not flooding by about one hash. Benchmark scenario 8 (scripts/bench/scenario_hashing_flood.ts) measures a legitimate sign-in during 16 and 64 concurrent junk sign-ins at the default cost against the target of 2× its unloaded time (figures in benchmarks.md).",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:58",
    "page": "security",
    "type": "text",
    "content":
      "The client address is the socket's peer (serve(), fragment-cli serve, and a module mounted directly on Deno.serve, Bun.serve or @hono/node-server pass it); headers are ignored unless trustProxy names one. An IPv6 client counts per /64.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:59",
    "page": "security",
    "type": "text",
    "content": "What the deployment must configure.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:60",
    "page": "security",
    "type": "text",
    "content":
      'Behind a reverse proxy or load balancer, set trustProxy to the header it writes the client\'s address into ("x-forwarded-for", "x-real-ip", "forwarded"), and make the proxy overwrite that header rather than append to it (nginx: proxy_set_header X-Forwarded-For $remote_addr;), since the left-most address is used. Otherwise every client shares the proxy\'s address, and 100 sign-ins per 15 minutes become the whole site\'s budget.',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:61",
    "page": "security",
    "type": "text",
    "content":
      "Never set trustProxy where clients reach the server directly: the header is then whatever the client writes, so each request picks a fresh address and per-address limits vanish (the per-account limit and the hashing queue still hold). Without trustProxy the module ignores forwarded headers entirely.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:62",
    "page": "security",
    "type": "text",
    "content":
      "When mounting module.fetch in another framework, pass the connection as the second argument (module.fetch(request, { remoteAddress }), or Hono's c.env): without it the per-address limit does not apply (documented; the per-account limit still does).",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:63",
    "page": "security",
    "type": "text",
    "content":
      "A flood from as many fresh addresses as requests (a large botnet) cannot be told from users by the module: its junk competes equally with real sign-ins for the bounded queue (they get 503 quickly rather than hang). Put edge protection (a CAPTCHA after failures, the CDN's bot rules) in front.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:64",
    "page": "security",
    "type": "text",
    "content":
      "Account lock-out: anyone who knows an email can use up its 10 failed attempts per window and keep its owner out until the window ends. This is the accepted price of stopping distributed guessing; tune rateLimit.perAccount or turn it off (perAccount: false) if lock-out matters more.",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:65",
    "page": "security",
    "type": "text",
    "content":
      "Tests that back it (tests/security/attacks/rate_limits.ts, run by tests/security/attacks.test.ts):",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:66",
    "page": "security",
    "type": "text",
    "content":
      '"guessing one account\'s password: the 11th failure in 15 minutes is 429, even with the right password"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:67",
    "page": "security",
    "type": "text",
    "content":
      '"rotating a spoofed X-Forwarded-For does not escape the per-address limit (trustProxy off)"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:68",
    "page": "security",
    "type": "text",
    "content": '"behind a proxy (trustProxy), each client address has its own budget"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:69",
    "page": "security",
    "type": "text",
    "content":
      '"counters live in the database: a second process on the same database sees the same hits"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:70",
    "page": "security",
    "type": "text",
    "content":
      '"junk sign-ins beyond the hashing queue\'s bound are answered 503 at once, not queued"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:71",
    "page": "security",
    "type": "text",
    "content": '"a sign-in from another address jumps a flooding address\'s queued junk"',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:72",
    "page": "security",
    "type": "text",
    "content":
      "Unit tests: tests/auth/rate_limits_http.test.ts (no address: per-account only; an explicit { remoteAddress }; successful sign-ins not counted; sign-up per email; rateLimit: false), tests/auth/rate_limiter.test.ts (windows, shared counts under concurrency on PGlite and PostgreSQL, refunds, purging), tests/auth/password_hasher.test.ts (the queue's bound and fairness), tests/core/client_address.test.ts (the runtimes' connection shapes, trustProxy, address normalization, serve() passing the peer address).",
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security:73",
    "page": "security",
    "type": "text",
    "content":
      'The verification routes of finding 4 share these limits: POST /verify-email counts per client address, and POST /verify-email/resend (a mail per call) per address and per account. Tests: "guessed verification tokens from one address are 429 after the per-address limit" and "one account cannot make the module mail an inbox more than perAccount.max times" (rate_limits.ts).',
    "url": "/docs/security#credential-stuffing-and-hashing-floods-finding-3",
    "context":
      "Security › Findings, defences and their tests › Credential stuffing and hashing floods (finding 3)",
  },
  {
    "id": "security#invitation-takeover-finding-4",
    "page": "security",
    "type": "heading",
    "content": "Invitation takeover (finding 4)",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security:74",
    "page": "security",
    "type": "text",
    "content":
      "The attack. An invitation is addressed to an email address, and anyone can sign up with any address. Before the fix, whoever registered the invitee's address first saw the invitation with its token in GET /organizations/invitations and could accept it, joining the organization with the invitation's roles (up to owner). The organization's list showed every token to every admin; the tokens sat in plain text in invitations.token and in the hook table (hook_occurrences.payload of invitationCreated), so a database dump or backup was a set of working invitations; and an invitation sent by an admin kept working after that admin was removed or demoted.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:75",
    "page": "security",
    "type": "text",
    "content": "What defends against it.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:76",
    "page": "security",
    "type": "text",
    "content":
      "Verified addresses. users.email_verified_at is set only by POST /verify-email with a token mailed to the address through sendVerificationEmail (or by api.createUser({ emailVerified: true }), an administrator vouching for it). Verification tokens are 256-bit, single-use, expire after emailVerificationTtlHours (24 h), are stored as SHA-256 only, are looked up by that digest, and are bound to the address they were sent to: a token proves nothing once the user's address changed. A resend replaces every earlier token. | src/auth/email_verification.ts, email_verification_store.ts, verification_routes.ts",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:77",
    "page": "security",
    "type": "text",
    "content":
      "Invitations reach verified addresses only. GET /organizations/invitations and the invitations of GET /me are empty until the caller's address is verified; accepting or rejecting answers 403 EMAIL_NOT_VERIFIED before the token is even compared. | invitation_routes.ts (checkActor, the list), me.ts",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:78",
    "page": "security",
    "type": "text",
    "content":
      "Tokens never shown again. Only the inviter's creation (or re-send) answer carries the invitation token; the organization's list, the invitee's list, /me, accept/reject/cancel answers and every other event carry none. | resources.ts (toInvitation)",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:79",
    "page": "security",
    "type": "text",
    "content":
      "Hashed at rest. invitations.token_hash holds the SHA-256 (tokens stored in plain text before schema version 21 were hashed in place by version 22); an accept compares digests in constant time. | invitation_store.ts, schema v21–22",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:80",
    "page": "security",
    "type": "text",
    "content":
      "Sealed in the hook table. The invitationCreated payload stores the token sealed with AES-256-GCM under a key derived (HKDF-SHA-256) from the deployment's secret, bound to the invitation id; the handler receives it opened. A token sealed under a key the delivering process lacks is not lost: the invitation gets a new token and a new event (rotated: true). | sealing.ts, sealed_invitation_event.ts, notifications.ts",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:81",
    "page": "security",
    "type": "text",
    "content":
      "The inviter's current rights at acceptance. Inside the accepting transaction (which locks the organization against concurrent role changes), the inviter must still be an owner or admin, and an owner for an invitation granting owner; otherwise 409 INVITATION_REVOKED and the invitation stays pending (a current manager can re-send it). | access.ts (mayStillGrant), invitation_routes.ts",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:82",
    "page": "security",
    "type": "text",
    "content": "What the deployment must configure.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:83",
    "page": "security",
    "type": "text",
    "content":
      "sendVerificationEmail: the development default logs the verification link to the console (the only place the module prints a token). In production, mail it; without it nobody can verify and no invitation can be accepted.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:84",
    "page": "security",
    "type": "text",
    "content":
      "publicOrigin, so the url handed to sendVerificationEmail is absolute and never derived from a request's Host (without it the link is relative, and a warning is printed once).",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:85",
    "page": "security",
    "type": "text",
    "content":
      "secret (or FRAGMENT_SECRET), identical on every process: it keys the sealing of invitation tokens in the hook table. Without it each process seals with a random key, and an invitation mail delivered by another process (or after a restart) carries a re-issued token, which silently invalidates the one in the inviter's creation answer.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:86",
    "page": "security",
    "type": "text",
    "content":
      "Send invitation mails from the invitationCreated hook (or from the creation answer); do not log the payload.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:87",
    "page": "security",
    "type": "text",
    "content":
      "Upgrading. Schema version 22 hashes the tokens of existing invitations in place, but invitationCreated occurrences recorded before this release keep their token in plain text in hook_occurrences.payload (a pending one is still delivered as recorded). Once they are delivered, strip them: UPDATE auth.hook_occurrences SET payload = payload #- '{invitation,token}' WHERE name = 'invitationCreated' AND status IN ('done', 'failed') AND payload->'invitation' ? 'token'.",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:88",
    "page": "security",
    "type": "text",
    "content":
      "Residual risks. Verification proves control of the mailbox at one moment; a user who loses the address keeps the verified flag (there is no route to change an address; a change made in SQL invalidates the pending verification tokens, not the flag). An invitation revoked by its inviter's lost rights still shows as pending in the invitee's list until someone cancels or re-sends it. Rate limits on POST /verify-email and /verify-email/resend are the rate-limit section's concern (256-bit tokens make guessing moot; resend costs a mail).",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:89",
    "page": "security",
    "type": "text",
    "content": "Tests. tests/security/attacks/invitations.ts (in tests/security/attacks.test.ts):",
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:90",
    "page": "security",
    "type": "text",
    "content":
      '"an account with the invitee\'s address but no proof of it neither sees nor accepts the invitation"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:91",
    "page": "security",
    "type": "text",
    "content":
      '"no answer but the inviter\'s creation answer carries the token, and no table keeps it in plain text"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:92",
    "page": "security",
    "type": "text",
    "content":
      '"an invitation dies with its inviter\'s rights: removed admin, demoted admin, demoted owner"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:93",
    "page": "security",
    "type": "text",
    "content":
      '"a verification token is single-use, hashed at rest, replaced by a resend and bound to its address"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:94",
    "page": "security",
    "type": "text",
    "content":
      '"a verification token sent to an old address proves nothing after the address changed"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:95",
    "page": "security",
    "type": "text",
    "content": '"an expired verification token is refused with 410"',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security:96",
    "page": "security",
    "type": "text",
    "content":
      'Also tests/auth/email_verification.test.ts, tests/auth/invitation_event_sealing.test.ts (a token sealed under another secret is re-issued) and the "invitations reach verified addresses only" and "the inviter\'s rights at acceptance" suites of tests/auth/organization_invitations.test.ts.',
    "url": "/docs/security#invitation-takeover-finding-4",
    "context": "Security › Findings, defences and their tests › Invitation takeover (finding 4)",
  },
  {
    "id": "security#membership-without-consent-finding-5",
    "page": "security",
    "type": "heading",
    "content": "Membership without consent (finding 5)",
    "url": "/docs/security#membership-without-consent-finding-5",
    "context": "Security › Findings, defences and their tests",
  },
  {
    "id": "security:97",
    "page": "security",
    "type": "text",
    "content":
      'The attack. Any signed-up user could create an organization and POST /organizations/:organizationId/members {"userId"} with any user id they had seen — every member list of an organization they share with the victim shows the ids of its members. The victim then belonged to the stranger\'s organization without having been asked: it showed in their GET /me (a phishing surface: "Acme Security Team" in the victim\'s own organization switcher), and /me had no bound, so enough of them made every page load of the victim\'s application download hundreds of kilobytes (342 KB seen; 293 KB for 500 organizations in our measurement). Nothing bounded how many organizations one user could create, how many members an organization could have, or how many pending invitations it could send.',
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:98",
    "page": "security",
    "type": "text",
    "content": "What defends against it.",
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:99",
    "page": "security",
    "type": "text",
    "content":
      'Consent. Users join through invitations they accept. The direct-add route of the specification stays but is refused by default with 403 DIRECT_ADD_NOT_ALLOWED (its message points to invitations), after the caller\'s own rights are checked and before the target user is looked up, so a refused caller learns nothing about user ids either. A deployment opens it with organizations.canAddMember({ actor, organization, user, roles }); only true allows the add. Global admins (users.role = "admin") get no exception by default. The server keeps a direct way in: authModule.api.addMember() (no policy; the limits apply), as better-auth offers direct adds only as a server-side call, and Clerk and GitHub require an invitation.',
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:100",
    "page": "security",
    "type": "text",
    "content":
      "A bounded /me. At most 100 organizations and 100 pending invitations, the oldest first, with organizationsHasMore / invitationsHasMore saying there are more; GET /organizations and GET /organizations/invitations page through all of them in the same order. activeOrganization is given even when it is beyond the first 100. The per-user kept parts of /me are validated over the listed rows and the next one, so they stay exact.",
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:101",
    "page": "security",
    "type": "text",
    "content":
      "Limits (false for none), each a 403 with its own code: organizationLimit (default 100, live organizations a user created and still belongs to; ORGANIZATION_LIMIT_REACHED), membershipLimit (default 100, members per organization, for direct adds, acceptances and api.addMember; MEMBERSHIP_LIMIT_REACHED, and a refused acceptance leaves the invitation pending), invitationLimit (default 100, pending unexpired invitations per organization; INVITATION_LIMIT_REACHED). They hold under concurrent requests: each count runs in the inserting transaction after a row lock every competing insert takes (the user's row, FOR NO KEY UPDATE, for organizations; the organization's row, FOR UPDATE, for members and invitations).",
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:102",
    "page": "security",
    "type": "text",
    "content":
      'What the deployment must configure. Nothing for the defaults. Set canAddMember only where accounts are already trusted to be placed (an internal tool, an admin console: ({ actor }) => actor.role === "admin"); prefer api.addMember for provisioning from the server. Raise or lift the limits (organizationLimit: false, …) for tenants that need more, knowing that /me still lists only 100 organizations and clients must page the rest.',
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:103",
    "page": "security",
    "type": "text",
    "content":
      "Not covered. Invitations remain the way to reach a stranger's list of pending invitations: whoever controls an email address receives invitations to it, bounded per organization by invitationLimit but not per recipient (finding 4's verified email decides who can accept). A user with many accounts is limited per account. metadata of up to maxMetadataBytes (8 KiB) per organization can still make a consented /me larger than the typical 60 KB.",
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "security:104",
    "page": "security",
    "type": "text",
    "content":
      'Tests. tests/security/attacks/membership.ts (run by tests/security/attacks.test.ts, over HTTP against a served module on PGlite): "a stranger cannot add a user they have seen to their own organization", "refuses before looking the user up", "lists at most 100 organizations, flags the rest and pages them through GET /organizations", and the limit tests (10 concurrent creations, direct adds, acceptances and invitations end with exactly the limit). PGlite runs one statement at a time, so the races are replayed on PostgreSQL, with 5 connections, by tests/auth/organization_consent.test.ts ("organizationLimit: concurrent creations …", "membershipLimit: concurrent direct adds and acceptances …", "invitationLimit: concurrent invitations …"); without the row locks the first two fail there. The same file tests the policy\'s context and answers, api.addMember, and the /me bound with its kept parts; tests/auth/organizations_config.test.ts the validation of the options.',
    "url": "/docs/security#membership-without-consent-finding-5",
    "context":
      "Security › Findings, defences and their tests › Membership without consent (finding 5)",
  },
  {
    "id": "telegram",
    "page": "telegram",
    "type": "page",
    "content": "Telegram bots",
    "url": "/docs/telegram",
    "context": "",
  },
  {
    "id": "telegram:1",
    "page": "telegram",
    "type": "text",
    "content":
      "The messenger module takes Telegram Bot API updates as they are: point Telegram's webhook at it, and each update is stored once per update_id and handed to your code as a durable hook, with grammY or with plain fetch. This page sets up a bot end to end: the module, the webhook URL, setWebhook, every kind of update, replies, and what the delivery guarantees mean for them.",
    "url": "/docs/telegram",
    "context": "Telegram bots",
  },
  {
    "id": "telegram#the-module-for-telegram",
    "page": "telegram",
    "type": "heading",
    "content": "The module for Telegram",
    "url": "/docs/telegram#the-module-for-telegram",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:2",
    "page": "telegram",
    "type": "text",
    "content":
      'secretHeader: "X-Telegram-Bot-Api-Secret-Token": Telegram sends the secret_token of setWebhook in this header. The default, X-Messenger-Bot-Api-Secret-Token, is the one of the specification; with it, Telegram\'s deliveries are refused (401). The comparison is constant-time.',
    "url": "/docs/telegram#the-module-for-telegram",
    "context": "Telegram bots › The module for Telegram",
  },
  {
    "id": "telegram:3",
    "page": "telegram",
    "type": "text",
    "content":
      "webhookSecret: 1 to 256 characters of A-Z a-z 0-9 _ -, Telegram's own rule for secret_token (openssl rand -hex 32 makes one).",
    "url": "/docs/telegram#the-module-for-telegram",
    "context": "Telegram bots › The module for Telegram",
  },
  {
    "id": "telegram:4",
    "page": "telegram",
    "type": "text",
    "content":
      "The example app (deno task start) reads both from the environment: WEBHOOK_SECRET and WEBHOOK_SECRET_HEADER (set WEBHOOK_SECRET_HEADER=X-Telegram-Bot-Api-Secret-Token), plus PUBLIC_ORIGIN.",
    "url": "/docs/telegram#the-module-for-telegram",
    "context": "Telegram bots › The module for Telegram",
  },
  {
    "id": "telegram#the-webhook-url",
    "page": "telegram",
    "type": "heading",
    "content": "The webhook URL",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:5",
    "page": "telegram",
    "type": "text",
    "content":
      "The webhook route is /messenger/webhook inside the module's mount route, and the mount route is /api/<module name> by default. The module is named messenger, so by default the URL is /api/messenger/messenger/webhook: the specification's mount prefix and route, kept as they are. Choose another mount with mountRoute:",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram:6",
    "page": "telegram",
    "type": "text",
    "content": "(default) /api/messenger | /api/messenger/messenger/webhook",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram:7",
    "page": "telegram",
    "type": "text",
    "content": "/api/telegram | /api/telegram/messenger/webhook",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram:8",
    "page": "telegram",
    "type": "text",
    "content": "/bots/support | /bots/support/messenger/webhook",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram:9",
    "page": "telegram",
    "type": "text",
    "content":
      'Two bots in one app need two mounts and two namespaces (namespace: "support_bot"), see two messenger instances.',
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram:10",
    "page": "telegram",
    "type": "text",
    "content":
      "fragment-cli serve prints the full URL to give setWebhook, with the name of the secret header (never the secret). The URL is on publicOrigin when the module has one (Telegram reaches you over HTTPS, through a TLS proxy or a tunnel), else on the address serve listens on:",
    "url": "/docs/telegram#the-webhook-url",
    "context": "Telegram bots › The webhook URL",
  },
  {
    "id": "telegram#register-it-setwebhook",
    "page": "telegram",
    "type": "heading",
    "content": "Register it: setWebhook",
    "url": "/docs/telegram#register-it-setwebhook",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:11",
    "page": "telegram",
    "type": "text",
    "content":
      "Telegram calls webhooks over HTTPS only, on port 443, 80, 88 or 8443, with a certificate it trusts. Register the printed URL, the same secret, and the kinds of update you want:",
    "url": "/docs/telegram#register-it-setwebhook",
    "context": "Telegram bots › Register it: setWebhook",
  },
  {
    "id": "telegram:12",
    "page": "telegram",
    "type": "text",
    "content":
      "allowed_updates is a JSON array of update kinds (the names of the table below). Left out, the previous setting stays; an empty list means every kind except chat_member, message_reaction and message_reaction_count, which Telegram sends only when listed explicitly. Ask only for the kinds you handle: every update is stored, handled or not.",
    "url": "/docs/telegram#register-it-setwebhook",
    "context": "Telegram bots › Register it: setWebhook",
  },
  {
    "id": "telegram:13",
    "page": "telegram",
    "type": "text",
    "content": "With grammY: await bot.api.setWebhook(url, { secret_token, allowed_updates }).",
    "url": "/docs/telegram#register-it-setwebhook",
    "context": "Telegram bots › Register it: setWebhook",
  },
  {
    "id": "telegram:14",
    "page": "telegram",
    "type": "text",
    "content":
      'Telegram retries an update until it gets a 2xx answer. The webhook answers 200 only once the update is committed, {"ok": true, "duplicate": true} to a retry of a stored one, and 503 while the database is unreachable (Telegram then tries again later).',
    "url": "/docs/telegram#register-it-setwebhook",
    "context": "Telegram bots › Register it: setWebhook",
  },
  {
    "id": "telegram#every-kind-of-update",
    "page": "telegram",
    "type": "heading",
    "content": "Every kind of update",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:15",
    "page": "telegram",
    "type": "text",
    "content":
      "Each update is stored with its kind: the Bot API field it carries. The module knows every field of the Bot API's Update object, as grammY 1.46 (@grammyjs/types 5.0) types it: the 23 fields of Bot API 9.x plus the later guest_message, stopped_message_generation, managed_bot and subscription. MESSENGER_UPDATE_KINDS lists them:",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:16",
    "page": "telegram",
    "type": "text",
    "content": "message, edited_message, channel_post | a Message (the specification's 3 kinds)",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:17",
    "page": "telegram",
    "type": "text",
    "content":
      "edited_channel_post, business_message, edited_business_message, guest_message | a Message",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:18",
    "page": "telegram",
    "type": "text",
    "content": "business_connection, deleted_business_messages | business accounts",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:19",
    "page": "telegram",
    "type": "text",
    "content": "message_reaction, message_reaction_count | reactions",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:20",
    "page": "telegram",
    "type": "text",
    "content": "inline_query, chosen_inline_result, callback_query | inline mode and buttons",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:21",
    "page": "telegram",
    "type": "text",
    "content":
      "shipping_query, pre_checkout_query, purchased_paid_media, subscription | payments and paid media",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:22",
    "page": "telegram",
    "type": "text",
    "content": "poll, poll_answer | polls",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:23",
    "page": "telegram",
    "type": "text",
    "content": "my_chat_member, chat_member, chat_join_request | membership",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:24",
    "page": "telegram",
    "type": "text",
    "content": "chat_boost, removed_chat_boost | boosts",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:25",
    "page": "telegram",
    "type": "text",
    "content": "stopped_message_generation, managed_bot | message generation, managed bots",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:26",
    "page": "telegram",
    "type": "text",
    "content": "other | none of these: a field a later Bot API adds",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:27",
    "page": "telegram",
    "type": "text",
    "content":
      "An update with a field the module does not know yet is stored and acknowledged like any other, as other (never a 4xx), with its body verbatim: event.update has the field. Filter stored updates by kind with bot.api.listUpdates({ kind: \"callback_query\" }) or in SQL (WHERE kind = 'poll_answer').",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:28",
    "page": "telegram",
    "type": "text",
    "content":
      "Handlers. onMessage, onEditedMessage and onChannelPost run for the specification's three kinds, as before. Every other kind is handled in onUpdate, which runs for every update (after the kind's own handler) and receives a union that narrows on kind: there is deliberately no option per kind (two dozen options, one per Bot API field, would trail each Bot API release), and a switch over one typed event is what grammY and plain code both want.",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram:29",
    "page": "telegram",
    "type": "text",
    "content":
      "An event has updateId (exact digits), kind, payload (update[kind]), message (the Message for the kinds carrying one, else undefined), update (the parsed body), raw (the body verbatim) and occurrence (attempt, …). For the full field types, cast event.update to the Update of @grammyjs/types (or grammY's grammy/types).",
    "url": "/docs/telegram#every-kind-of-update",
    "context": "Telegram bots › Every kind of update",
  },
  {
    "id": "telegram#stored-exactly-once-handled-at-least-once",
    "page": "telegram",
    "type": "heading",
    "content": "Stored exactly once, handled at least once",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:30",
    "page": "telegram",
    "type": "text",
    "content": "Two guarantees, on two sides of the commit:",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:31",
    "page": "telegram",
    "type": "text",
    "content":
      "Storage is exactly-once per update_id. The update and its hook occurrence are written in one statement keyed by update_id: a retried delivery (Telegram resends when it saw no 2xx in time) is answered duplicate: true and never processed a second time.",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:32",
    "page": "telegram",
    "type": "text",
    "content":
      "Processing is at-least-once. Your handler runs after the webhook answered, in the worker. If it throws, or the process dies while it runs, the hook is retried (maxAttempts, backoff): the same update can reach your handler more than once, and a handler may have replied before it failed.",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:33",
    "page": "telegram",
    "type": "text",
    "content":
      "A Bot API call has no idempotency key: a handler that replied, then failed on its next step, sends the reply again on its retry. Key the replies by update_id: record each call made for an update, and on a retry replay the recorded result instead of calling again. The window left is a crash between Telegram's answer and the record (then one reply can repeat); everything else, a failing handler included, replies once. Handlers must make the same calls in the same order for the same update (true of ordinary bot code, not of code that branches on the time or randomness).",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:34",
    "page": "telegram",
    "type": "text",
    "content": "Also:",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:35",
    "page": "telegram",
    "type": "text",
    "content":
      'Handlers run outside the webhook request, so there is no "webhook reply" (answering a call in the webhook\'s response body): every reply is a Bot API call.',
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:36",
    "page": "telegram",
    "type": "text",
    "content":
      "Updates are processed concurrently (concurrency per worker, default 4) and retried one by one: do not rely on their order.",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram:37",
    "page": "telegram",
    "type": "text",
    "content":
      "Work in your own database (a vote counted, an order created) is idempotent the same way: keyed by update_id, INSERT … ON CONFLICT DO NOTHING.",
    "url": "/docs/telegram#stored-exactly-once-handled-at-least-once",
    "context": "Telegram bots › Stored exactly once, handled at least once",
  },
  {
    "id": "telegram#with-grammy",
    "page": "telegram",
    "type": "heading",
    "content": "With grammY",
    "url": "/docs/telegram#with-grammy",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:38",
    "page": "telegram",
    "type": "text",
    "content":
      "Create the Bot as usual, without bot.start() (no polling) and without webhookCallback (the module is the webhook): the durable hook hands it each stored update with bot.handleUpdate(update). A transformer installed per update keys the calls by update_id:",
    "url": "/docs/telegram#with-grammy",
    "context": "Telegram bots › With grammY",
  },
  {
    "id": "telegram:39",
    "page": "telegram",
    "type": "text",
    "content": "with the table of the calls in your migrations (or a module schema of your own):",
    "url": "/docs/telegram#with-grammy",
    "context": "Telegram bots › With grammY",
  },
  {
    "id": "telegram:40",
    "page": "telegram",
    "type": "text",
    "content":
      "bot.handleUpdate rethrows what a middleware throws (as a BotError), so a failed Bot API call fails the attempt and the hook retries it; bot.catch applies only to polling. Delete old rows of bot_api_calls with the updates you prune.",
    "url": "/docs/telegram#with-grammy",
    "context": "Telegram bots › With grammY",
  },
  {
    "id": "telegram#with-plain-fetch",
    "page": "telegram",
    "type": "heading",
    "content": "With plain fetch",
    "url": "/docs/telegram#with-plain-fetch",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:41",
    "page": "telegram",
    "type": "text",
    "content":
      "The same rule without a framework: one helper that calls a Bot API method at most once per update and call number.",
    "url": "/docs/telegram#with-plain-fetch",
    "context": "Telegram bots › With plain fetch",
  },
  {
    "id": "telegram#testing-without-telegram",
    "page": "telegram",
    "type": "heading",
    "content": "Testing without Telegram",
    "url": "/docs/telegram#testing-without-telegram",
    "context": "Telegram bots",
  },
  {
    "id": "telegram:42",
    "page": "telegram",
    "type": "text",
    "content":
      "grammY's client.apiRoot (new Bot(token, { client: { apiRoot } })) points it at any Bot API server: Telegram's local Bot API server, or a fake one on localhost in tests. This repository's tests/messenger/telegram_bot.test.ts serves the bot above with fragment-cli serve, answers its calls with a fake Bot API on 127.0.0.1 (no network), and checks that a stored update reaches the grammY handler, that a hook retried after its reply (the next call failed once) does not reply twice, that a redelivered update is a duplicate, and that one update of every kind (tests/fixtures/messenger/updates.ts, typed against grammY's Update) is stored and handled with its kind.",
    "url": "/docs/telegram#testing-without-telegram",
    "context": "Telegram bots › Testing without Telegram",
  },
  {
    "id": "webhook",
    "page": "webhook",
    "type": "page",
    "content": "Webhook",
    "url": "/docs/webhook",
    "context": "",
  },
  {
    "id": "webhook:1",
    "page": "webhook",
    "type": "text",
    "content":
      "The messenger module receives chat-messenger updates (the Telegram Bot API update format) at POST <mount>/messenger/webhook, stores each update once per update_id with its body verbatim, and processes it with your handlers as a durable hook.",
    "url": "/docs/webhook",
    "context": "Webhook",
  },
  {
    "id": "webhook:2",
    "page": "webhook",
    "type": "text",
    "content":
      'fragment-cli serve app.ts then serves POST /api/messenger/messenger/webhook (the route /messenger/webhook inside the default mount /api/messenger; mountRoute: "/api/telegram" makes it /api/telegram/messenger/webhook) and runs the worker that calls the handlers. Mounted anywhere else (Deno.serve(bot.fetch), Bun.serve, @hono/node-server, a Hono app), the first request starts the worker and await bot.close() stops it; for Deno Deploy and the explicit controls (autoStart: false, bot.background.start(), stop(), drain()), see background work. serve prints, under the module, the full webhook URL to give the messenger\'s setWebhook (on publicOrigin when set, else on the address it listens on) and the name of the secret header, never the secret:',
    "url": "/docs/webhook",
    "context": "Webhook",
  },
  {
    "id": "webhook:3",
    "page": "webhook",
    "type": "text",
    "content":
      "Tracing: each request is an OpenTelemetry span (update id, kind, outcome stored, duplicate or rejected; never the secret or the body), and each run of its handlers another: see tracing for the attributes and how to send them to an OTLP collector.",
    "url": "/docs/webhook",
    "context": "Webhook",
  },
  {
    "id": "webhook:4",
    "page": "webhook",
    "type": "text",
    "content":
      "Telegram bots: Telegram's header, setWebhook, every update kind, grammY and replies that are not sent twice are in Telegram bots.",
    "url": "/docs/webhook",
    "context": "Webhook",
  },
  {
    "id": "webhook#secret-header",
    "page": "webhook",
    "type": "heading",
    "content": "Secret header",
    "url": "/docs/webhook#secret-header",
    "context": "Webhook",
  },
  {
    "id": "webhook:5",
    "page": "webhook",
    "type": "text",
    "content":
      "Every request must carry X-Messenger-Bot-Api-Secret-Token equal to webhookSecret. A missing or wrong secret is a 401 and nothing is stored. (secretHeader names another header, e.g. Telegram's own, see Telegram set-up.) The comparison is constant-time (both values are hashed with SHA-256 and compared with timingSafeEqual), so neither the secret nor its length leaks through response times.",
    "url": "/docs/webhook#secret-header",
    "context": "Webhook › Secret header",
  },
  {
    "id": "webhook:6",
    "page": "webhook",
    "type": "text",
    "content":
      "webhookSecret is required: a missing, empty or invalid one throws ModuleConfigError when the module is created, not at the first request. Valid secrets are 1 to 256 characters of A-Z, a-z, 0-9, _ and -, the messenger's own rule for secret_token. Generate one with openssl rand -hex 32.",
    "url": "/docs/webhook#secret-header",
    "context": "Webhook › Secret header",
  },
  {
    "id": "webhook:7",
    "page": "webhook",
    "type": "text",
    "content":
      "The example app (deno task start) reads WEBHOOK_SECRET from the environment, and the header's name from WEBHOOK_SECRET_HEADER (default X-Messenger-Bot-Api-Secret-Token). When it is unset it generates a random secret for that run, kept in memory only and never printed (a secret in a terminal or a log file is a leaked secret): stderr only warns that the webhook, whose secret nobody knows, refuses every delivery until WEBHOOK_SECRET is set. Set WEBHOOK_SECRET to receive updates, in development too (WEBHOOK_SECRET=$(openssl rand -hex 32)). Its onMessage handler logs an update's id and kind, never the message text (users' messages are not log material).",
    "url": "/docs/webhook#secret-header",
    "context": "Webhook › Secret header",
  },
  {
    "id": "webhook#requests-and-answers",
    "page": "webhook",
    "type": "heading",
    "content": "Requests and answers",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook",
  },
  {
    "id": "webhook:8",
    "page": "webhook",
    "type": "text",
    "content":
      "The module's OpenAPI 3.1 document, GET /api/messenger/openapi.json, describes the webhook: its body, its answers and error codes, and the secret header as an apiKey security scheme (openapi.md).",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:9",
    "page": "webhook",
    "type": "text",
    "content": 'a new update_id | 200 | {"ok": true}',
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:10",
    "page": "webhook",
    "type": "text",
    "content": 'an update_id already stored (a retry) | 200 | {"ok": true, "duplicate": true}',
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:11",
    "page": "webhook",
    "type": "text",
    "content": "secret header missing or wrong | 401 | UNAUTHORIZED",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:12",
    "page": "webhook",
    "type": "text",
    "content": "body not JSON (or not UTF-8) | 400 | INVALID_JSON (INVALID_BODY)",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:13",
    "page": "webhook",
    "type": "text",
    "content":
      "not an object, no update_id, or not an integer in 0 … 2^63-1 | 400 | INVALID_UPDATE",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:14",
    "page": "webhook",
    "type": "text",
    "content": "body over bodyLimit (default 1 MiB) | 413 | PAYLOAD_TOO_LARGE",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:15",
    "page": "webhook",
    "type": "text",
    "content": "database unreachable | 503 | SERVICE_UNAVAILABLE (with Retry-After)",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:16",
    "page": "webhook",
    "type": "text",
    "content": "the module's tables were never migrated | 503 | DATABASE_NOT_MIGRATED",
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:17",
    "page": "webhook",
    "type": "text",
    "content":
      'Errors use the one shape of every module: {"error": {"code": "…", "message": "…"}}. The 503s make the messenger deliver the update again later instead of dropping it.',
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook:18",
    "page": "webhook",
    "type": "text",
    "content":
      'update_id must be written as a plain integer (1001, not "1001", 1001.0, 1e3 or -1). It is read from the request text itself, not from a JavaScript number, so ids up to 2^63-1 are kept to the last digit.',
    "url": "/docs/webhook#requests-and-answers",
    "context": "Webhook › Requests and answers",
  },
  {
    "id": "webhook#exactly-one-record-per-update",
    "page": "webhook",
    "type": "heading",
    "content": "Exactly one record per update",
    "url": "/docs/webhook#exactly-one-record-per-update",
    "context": "Webhook",
  },
  {
    "id": "webhook:19",
    "page": "webhook",
    "type": "text",
    "content":
      "The update row and the occurrence of its processing hook are written in one statement keyed by update_id within the module's namespace (INSERT … ON CONFLICT DO NOTHING): both or neither. Concurrent deliveries of one update (the messenger retrying while the first request is still running) wait for each other: exactly one is new, every other one answers duplicate: true, and there is one record and one hook. Two messenger instances in one database (two bots) use two namespaces and never collide:",
    "url": "/docs/webhook#exactly-one-record-per-update",
    "context": "Webhook › Exactly one record per update",
  },
  {
    "id": "webhook:20",
    "page": "webhook",
    "type": "text",
    "content":
      "Under load, deliveries share statements. The deliveries that arrive while one statement is in flight are stored together by the next (unnest of their ids, kinds and bodies): one round trip and one commit for the group, each request answered once that commit is done, so \"200 means stored\" holds for every one of them. With 64 connections this made the webhook as fast as a bare handler inserting one row per request (benchmarks, scenario 1). A delivery alone goes at the end of the event-loop turn it arrives in, without waiting. When the database refuses a group's statement for a reason that may be one delivery's data (a trigger or constraint of your own; not a lost connection or a missing table), each delivery of the group is stored alone, so only the one at fault gets the error (500).",
    "url": "/docs/webhook#exactly-one-record-per-update",
    "context": "Webhook › Exactly one record per update",
  },
  {
    "id": "webhook:21",
    "page": "webhook",
    "type": "text",
    "content":
      "The stored record keeps the request body exactly as received, in a text column: unknown fields, key order, whitespace and integers beyond 2^53 unchanged. Query it as JSON with raw::jsonb:",
    "url": "/docs/webhook#exactly-one-record-per-update",
    "context": "Webhook › Exactly one record per update",
  },
  {
    "id": "webhook#handlers",
    "page": "webhook",
    "type": "heading",
    "content": "Handlers",
    "url": "/docs/webhook#handlers",
    "context": "Webhook",
  },
  {
    "id": "webhook:22",
    "page": "webhook",
    "type": "text",
    "content": "onMessage | message",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:23",
    "page": "webhook",
    "type": "text",
    "content": "onEditedMessage | edited_message",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:24",
    "page": "webhook",
    "type": "text",
    "content": "onChannelPost | channel_post",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:25",
    "page": "webhook",
    "type": "text",
    "content":
      "onUpdate | every update, after the handler above; the one for every other kind (narrow on kind)",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:26",
    "page": "webhook",
    "type": "text",
    "content":
      "Every update is stored with its kind: the Bot API field it carries (message, callback_query, chat_member, poll_answer, … all of the Bot API's Update fields, listed in MESSENGER_UPDATE_KINDS and in Telegram bots), or other for a field a later Bot API adds (stored and acknowledged like any other, never a 4xx). A handler receives { updateId, kind, payload, message, update, raw, occurrence }: payload is the object of its kind (update[kind], undefined for other), message the Message of the kinds carrying one (message, edited_message, channel_post, edited_channel_post, business_message, edited_business_message, guest_message), update the parsed body (JavaScript rounds integers beyond 2^53 there; raw has them exactly), occurrence the hook's { id, attempt, … }. The event's type is a union over the kinds: switch (event.kind) narrows payload and message.",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:27",
    "page": "webhook",
    "type": "text",
    "content":
      "Handlers run after the answer, in the module's worker (started by its first request or by serve()), never inside the request. A handler that throws is retried with backoff (maxAttempts, default 12; retryDelayMs, maxRetryDelayMs); delivery is at-least-once, so make handlers idempotent, for example keyed by updateId.",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:28",
    "page": "webhook",
    "type": "text",
    "content":
      "Order per chat. By default the updates of one chat are processed one at a time, in the order they were received, so a bot's replies in a chat keep their order: each update's hook carries the chat's id as its ordering key (the chat of the update's object — a message, a member change, a reaction, a join request, … — or of the message a callback_query came from). Different chats run in parallel, and updates without a chat (inline queries, polls, payments, a callback query of an inline message) run as soon as a worker is free. An update waiting for a retry holds its chat's later updates back until it succeeds; once it has failed for good (or an operator cancelled it) the chat moves on, and it stays in fragment-cli hooks list --status failed. The waiting updates read blocked in getUpdate(), listUpdates() and fragment-cli hooks list. orderByChat: false turns it off: every update runs as soon as a worker is free (it applies to the updates received from then on). Updates that arrive together share one statement; within it each chat's updates are enqueued in update_id order.",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook:29",
    "page": "webhook",
    "type": "text",
    "content":
      "The option retention: { done: \"7d\" } has the worker delete the processing hooks of updates done for longer than that (retention); the stored updates themselves are never purged, and an update whose hook was purged reads as done. Operators see each update's processing with fragment-cli hooks app.ts show <id>, which prints the stored update beside the hook's attempts and errors (operating hooks).",
    "url": "/docs/webhook#handlers",
    "context": "Webhook › Handlers",
  },
  {
    "id": "webhook#reading-stored-updates",
    "page": "webhook",
    "type": "heading",
    "content": "Reading stored updates",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook",
  },
  {
    "id": "webhook:30",
    "page": "webhook",
    "type": "text",
    "content": "bot.api is the server-side API:",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook:31",
    "page": "webhook",
    "type": "text",
    "content":
      "getUpdate(updateId): one update with its processing status (pending, running, done, failed, cancelled; done too once its hook was purged), attempts, lastError and processedAt, or null.",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook:32",
    "page": "webhook",
    "type": "text",
    "content":
      "listUpdates({ kind?, status?, order?, pageSize?, cursor? }): by update_id, with cursor pagination: { updates, cursor, hasNextPage }. Its cursors are signed with the option secret (default FRAGMENT_SECRET, at least 32 characters; the same deployment secret as auth's), so every process of the deployment accepts them; without either, with a random key of the process (valid until it exits; nothing is printed, since no route hands these cursors to clients). A forged or type-confused cursor is InvalidCursorError (400 INVALID_CURSOR if your route lets it through).",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook:33",
    "page": "webhook",
    "type": "text",
    "content": "retryFailed(updateIds?): puts failed updates back in the queue.",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook:34",
    "page": "webhook",
    "type": "text",
    "content":
      "drain(): processes due updates in the foreground (tests, scripts, serverless set-ups without a long-running worker).",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook:35",
    "page": "webhook",
    "type": "text",
    "content":
      "bot.hooks gives the underlying durable hooks (list, requeue); bot.background controls the worker (start, stop, drain, running) and bot.close() stops it.",
    "url": "/docs/webhook#reading-stored-updates",
    "context": "Webhook › Reading stored updates",
  },
  {
    "id": "webhook#telegram-set-up",
    "page": "webhook",
    "type": "heading",
    "content": "Telegram set-up",
    "url": "/docs/webhook#telegram-set-up",
    "context": "Webhook",
  },
  {
    "id": "webhook:36",
    "page": "webhook",
    "type": "text",
    "content":
      'Telegram bots has it all: secretHeader: "X-Telegram-Bot-Api-Secret-Token", choosing the mount route, setWebhook with secret_token and allowed_updates, handling updates with grammY or plain fetch, and replies keyed by update_id so a retried hook does not send them twice. Telegram retries an update until it gets a 2xx answer; the duplicate answer keeps those retries from creating second records, and the 503s make it retry while the database is down.',
    "url": "/docs/webhook#telegram-set-up",
    "context": "Webhook › Telegram set-up",
  },
];
