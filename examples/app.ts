/**
 * The example application: the first-party modules on one database, served by
 * `deno task start` (= `fragment-cli serve examples/app.ts`).
 *
 * The database comes from the environment: `DATABASE_URL` set → that PostgreSQL server (run
 * `fragment-cli db migrate examples/app.ts` first, or serve with `--migrate`); unset → the
 * embedded PGlite database in `./.data/pglite`, migrated automatically when `serve` starts. So
 * the same file serves a first-time user and a production-like set-up.
 *
 * `fragment-cli` finds every exported module instance, whatever the export's name. Add a module
 * by exporting its instance here; `deno task migrations` then regenerates `migrations/`.
 *
 * @module
 */
import { auth, databaseFromEnv } from "../mod.ts";

/** One database for every module; each keeps its tables in its own namespace. */
const database = databaseFromEnv();

/** Users, credentials, sessions and the organizations API, at `/api/auth`. */
export const authModule = auth({ database });
