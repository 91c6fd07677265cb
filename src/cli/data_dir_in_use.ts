import { CliError } from "./command.ts";

/**
 * Runs `work`; a PGlite data directory held by another process (`DataDirectoryLockedError`,
 * found by name so that a user file importing another copy of the package is recognised too)
 * becomes one line that says why and what to do: a PGlite directory is open in one process at a
 * time, and a running `fragment-cli serve` holds it for as long as it runs.
 */
export async function explainDataDirInUse<T>(command: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const locked = lockedError(error);
    if (locked === undefined) throw error;
    const owner = locked.ownerPid === undefined ? "another process" : `process ${locked.ownerPid}`;
    throw new CliError(
      `the PGlite data directory "${locked.directory}" is held by ${owner}, most likely a ` +
        `running "fragment-cli serve" (PGlite is open in one process at a time): stop it and run ` +
        `"fragment-cli ${command}" again, or use PostgreSQL (DATABASE_URL) to run it beside serve`,
      { cause: error },
    );
  }
}

function lockedError(error: unknown): { directory: string; ownerPid?: number } | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === "DataDirectoryLockedError") {
      return e as unknown as { directory: string; ownerPid?: number };
    }
  }
  return undefined;
}
