/**
 * The reference of scenario 5's `db info` on PostgreSQL: a bare script that imports postgres.js
 * and reads what `fragment-cli db info` reads, with the same catalog queries — whether the
 * migration bookkeeping exists, each namespace's recorded version and step fingerprints, whether
 * its hook table exists and its hook counts — and prints one line per namespace. No module, no
 * schema, no fingerprint computed: the floor of any such command on the same runtime.
 *
 * Usage: `deno run -A scripts/bench/bare_db_info.ts <namespace>…` with `DATABASE_URL` set.
 *
 * @module
 */
import postgres from "postgres";
import process from "node:process";

const INTERNAL = "fragment_internal";
const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
try {
  const [store] = await sql<{ versions: string | null; steps: string | null }[]>`
    SELECT to_regclass(${`"${INTERNAL}"."schema_versions"`})::text AS versions,
           to_regclass(${`"${INTERNAL}"."applied_steps"`})::text AS steps`;
  const exists = store.versions !== null && store.steps !== null;
  for (const namespace of process.argv.slice(2)) {
    let version = 0;
    let steps = 0;
    if (exists) {
      const rows = await sql<{ version: number }[]>`
        SELECT "version" FROM ${sql(INTERNAL)}."schema_versions" WHERE "namespace" = ${namespace}`;
      version = rows[0]?.version ?? 0;
      const fingerprints = await sql<{ version: number; fingerprint: string }[]>`
        SELECT "version", "fingerprint" FROM ${sql(INTERNAL)}."applied_steps"
        WHERE "namespace" = ${namespace}`;
      steps = fingerprints.length;
    }
    const [hooks] = await sql<{ has: boolean }[]>`
      SELECT to_regclass(${`"${namespace}"."hook_occurrences"`}) IS NOT NULL AS has`;
    let counts = "no hooks";
    if (hooks.has) {
      const [row] = await sql<{ pending: number; running: number; failed: number }[]>`
        SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
               count(*) FILTER (WHERE status = 'running')::int AS running,
               count(*) FILTER (WHERE status = 'failed')::int AS failed
        FROM ${sql(namespace)}."hook_occurrences"
        WHERE status IN ('pending', 'running', 'failed')`;
      counts = `${row.pending} pending, ${row.running} running, ${row.failed} failed`;
    }
    console.log(`${namespace}: version ${version}, ${steps} steps recorded; hooks ${counts}`);
  }
} finally {
  await sql.end({ timeout: 5 });
}
