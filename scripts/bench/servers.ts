/**
 * The servers under test: `fragment-cli serve` with a bench app file (our side) and the
 * reference servers, all on Deno, the runtime `deno task bench` runs on.
 *
 * @module
 */
import { join } from "node:path";
import { ROOT, type ServerProcess, startServer } from "./processes.ts";
import type { BenchContext } from "./scenario.ts";

/**
 * The deployment secret of our servers (`FRAGMENT_SECRET`): the members-page scenario mints its
 * deep-page cursors with it, as a client that paged there would have received them.
 */
export const BENCH_SECRET = "fragment-cli-benchmark-secret-0123456789abcdef";

/** Options of {@link startOurServe}. */
export interface OurServeOptions {
  /** `DATABASE_URL` of the server; without it the app files use PGlite under `cwd`. */
  databaseUrl?: string;
  /** Working directory (where PGlite keeps `.data/pglite`). @default the repository root */
  cwd?: string;
  env?: Record<string, string>;
}

/** `fragment-cli serve <app files> --port 0 --host 127.0.0.1` (`--migrate` on PostgreSQL). */
export function startOurServe(
  context: BenchContext,
  appFiles: readonly string[],
  options: OurServeOptions = {},
): Promise<ServerProcess> {
  const args = [
    "run",
    "-A",
    join(ROOT, "cli.ts"),
    "serve",
    ...appFiles.map((file) => join(ROOT, file)),
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    ...(options.databaseUrl ? ["--migrate"] : []),
  ];
  return startServer(context.runtimes.deno, args, {
    cwd: options.cwd,
    env: { DATABASE_URL: options.databaseUrl ?? "", FRAGMENT_SECRET: BENCH_SECRET, ...options.env },
  });
}

/** A reference server script of scripts/bench/ on Deno, with `DATABASE_URL`. */
export function startReference(
  context: BenchContext,
  script: string,
  databaseUrl: string,
): Promise<ServerProcess> {
  // The reference servers import bench-only packages (better-auth, pg): deno.dev.json has them.
  const args = [
    "run",
    "-A",
    "--config",
    join(ROOT, "deno.dev.json"),
    join(ROOT, "scripts/bench", script),
  ];
  return startServer(context.runtimes.deno, args, { env: { DATABASE_URL: databaseUrl } });
}

/** Runs `fn` with a started server and stops the server afterwards, whatever happens. */
export async function withServer<T>(
  start: Promise<ServerProcess>,
  fn: (server: ServerProcess) => Promise<T>,
): Promise<T> {
  const server = await start;
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}
