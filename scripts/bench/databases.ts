/**
 * Fresh databases on the PostgreSQL server for each benchmark side, dropped afterwards, so no
 * side inherits another's rows, indexes or cache warmth by accident.
 *
 * @module
 */
import process from "node:process";
import postgres from "postgres";

/** The maintenance database used to create and drop the benchmark databases. */
export const ADMIN_URL: string = process.env.BENCH_POSTGRES_ADMIN_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/** A throw-away database. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database named `fragment_bench_<label>_<random>`. */
export async function createBenchDatabase(label: string): Promise<BenchDatabase> {
  const name = `fragment_bench_${label.replace(/\W/g, "_")}_${
    crypto.randomUUID().replaceAll("-", "").slice(0, 8)
  }`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Runs `fn` with a fresh database and drops it afterwards, whatever happens. */
export async function withBenchDatabase<T>(
  label: string,
  fn: (database: BenchDatabase) => Promise<T>,
): Promise<T> {
  const database = await createBenchDatabase(label);
  try {
    return await fn(database);
  } finally {
    await database.drop();
  }
}

async function admin(statement: string): Promise<void> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}
