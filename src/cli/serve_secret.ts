/**
 * The deployment secret of `fragment-cli serve` (`FRAGMENT_SECRET`, the key modules sign list
 * cursors with). Modules read it when they are instantiated, which is when the user's file is
 * imported, so it is settled before the import and checked against the databases after it:
 *
 * - `FRAGMENT_SECRET` set: used as is, nothing else happens.
 * - unset, on the embedded database (PGlite in a directory): a secret generated once and kept in
 *   `.data/fragment-secret` (mode 0600), read back at the next start, so cursors survive
 *   restarts of a local set-up with nothing to configure.
 * - unset, with a PostgreSQL database: a loud warning. Not an error: what is lost (cursors that
 *   stop working across processes and restarts, a client then starts from the first page) does
 *   not justify refusing to start; a production deployment sets FRAGMENT_SECRET.
 *
 * @module
 */

import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { FRAGMENT_SECRET_ENV, generateSecret, MIN_SECRET_LENGTH } from "../runtime/secret.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import { CliError, type CliIo } from "./command.ts";

/** Where serve keeps the secret it generated, relative to the working directory. */
export const SECRET_FILE = ".data/fragment-secret";

/** Where the secret of this run came from. */
export interface ServeSecret {
  /** `environment`: FRAGMENT_SECRET was set; `file`: read from {@link SECRET_FILE}; `generated`: new. */
  source: "environment" | "file" | "generated";
  /** The secret (also in `process.env.FRAGMENT_SECRET` once {@link provideSecret} returned). */
  value: string;
}

/**
 * Sets `FRAGMENT_SECRET` for the user's modules unless it is set: from {@link SECRET_FILE} when it
 * exists, else a new random secret (kept only if {@link settleSecret} finds an embedded database).
 * Call it BEFORE importing the user's files.
 *
 * @param cwd The working directory `.data/` is relative to.
 * @returns What was provided.
 * @throws {CliError} When the file exists but holds no usable secret.
 */
export function provideSecret(cwd: string = process.cwd()): ServeSecret {
  const configured = process.env[FRAGMENT_SECRET_ENV];
  if (configured) return { source: "environment", value: configured };
  const path = join(cwd, SECRET_FILE);
  let kept: string | null = null;
  try {
    kept = readFileSync(path, "utf8").trim();
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") {
      throw new CliError(`${SECRET_FILE}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (kept !== null && kept.length < MIN_SECRET_LENGTH) {
    throw new CliError(
      `${SECRET_FILE} holds no secret of at least ${MIN_SECRET_LENGTH} characters; ` +
        `delete it to have a new one generated, or set ${FRAGMENT_SECRET_ENV}`,
    );
  }
  const secret: ServeSecret = kept !== null
    ? { source: "file", value: kept }
    : { source: "generated", value: generateSecret() };
  process.env[FRAGMENT_SECRET_ENV] = secret.value;
  return secret;
}

/**
 * After the user's files are imported: keeps a generated secret in {@link SECRET_FILE} when the
 * databases are embedded (PGlite in a directory), or warns when one is a PostgreSQL server and
 * FRAGMENT_SECRET was not set.
 *
 * @param secret What {@link provideSecret} returned.
 * @param adapters The databases of the served modules.
 * @param io Where to print.
 * @param cwd The working directory `.data/` is relative to.
 */
export function settleSecret(
  secret: ServeSecret,
  adapters: readonly SqlAdapter[],
  io: CliIo,
  cwd: string = process.cwd(),
): void {
  if (secret.source === "environment") return;
  if (adapters.some((adapter) => adapter.kind === "postgres")) {
    io.stderr(POSTGRES_WARNING);
    return;
  }
  const persistent = adapters.some((a) => a.kind === "pglite" && !a.target.startsWith("memory:"));
  if (secret.source !== "generated" || !persistent) return;
  const path = join(cwd, SECRET_FILE);
  try {
    mkdirSync(join(cwd, ".data"), { recursive: true, mode: 0o700 });
    // `wx`: never overwrite a secret another process just kept.
    writeFileSync(path, `${secret.value}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
  } catch (error) {
    io.stderr(
      `warning: could not keep the generated secret in ${SECRET_FILE} ` +
        `(${(error as Error).message}); list cursors will not survive a restart\n`,
    );
    return;
  }
  io.stdout(
    `Generated ${FRAGMENT_SECRET_ENV} in ${SECRET_FILE} (reused at the next start; ` +
      `keep it out of version control)\n`,
  );
}

const POSTGRES_WARNING = [
  "",
  "!".repeat(78),
  `WARNING: ${FRAGMENT_SECRET_ENV} is not set and a module uses a PostgreSQL database.`,
  "List cursors are signed with a key the other processes of the deployment do not have (a",
  `random one, or the development secret of ${SECRET_FILE}): they refuse each other's`,
  "cursors, and a random key dies with the process (clients get 400 INVALID_CURSOR and",
  "start again from the first page).",
  `Set ${FRAGMENT_SECRET_ENV} to the same random value (at least 32 characters) in every`,
  "process, e.g. FRAGMENT_SECRET=$(openssl rand -base64 32), and keep it secret.",
  "!".repeat(78),
  "",
  "",
].join("\n");
