/**
 * A fingerprint of everything stored in some namespaces: per table, its row count and an MD5 of
 * its rows (as text, sorted), read in one statement. Two equal snapshots mean no row was added,
 * removed or changed.
 *
 * @example
 * ```ts ignore
 * const before = await snapshot(db, ["auth", "messenger"]);
 * await module.fetch(badRequest);
 * assert.deepEqual(await snapshot(db, ["auth", "messenger"]), before);
 * ```
 *
 * @module
 */
import { quoteQualified, type SqlQuerier } from "../../../src/sql/mod.ts";

/** Row count and checksum per table, keyed `namespace.table`. */
export type Snapshot = Record<string, { rows: number; checksum: string }>;

/** The base tables of `namespaces`, as `[namespace, table]` pairs in a stable order. */
export async function tablesOf(
  db: SqlQuerier,
  namespaces: readonly string[],
): Promise<Array<[string, string]>> {
  const rows = await db.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
     WHERE table_schema = ANY($1::text[]) AND table_type = 'BASE TABLE'
     ORDER BY table_schema, table_name`,
    [namespaces],
  );
  return rows.map((r) => [r.s, r.t]);
}

/** Builds the one statement that snapshots `tables`. */
export function snapshotSql(tables: ReadonlyArray<[string, string]>): string {
  return tables.map(([s, t]) =>
    `SELECT '${s}.${t}' AS name, count(*)::int4 AS n,
       md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS sum
     FROM ${quoteQualified(s, t)} AS x`
  ).join("\nUNION ALL\n");
}

/** Takes a snapshot of `tables` (from {@link tablesOf}). */
export async function snapshot(
  db: SqlQuerier,
  tables: ReadonlyArray<[string, string]>,
): Promise<Snapshot> {
  const rows = await db.query<{ name: string; n: number; sum: string }>(snapshotSql(tables));
  const result: Snapshot = {};
  for (const row of rows.sort((a, b) => a.name.localeCompare(b.name))) {
    result[row.name] = { rows: row.n, checksum: row.sum };
  }
  return result;
}
