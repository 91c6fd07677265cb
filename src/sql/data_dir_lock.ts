/**
 * Internal: an exclusive lock on a PGlite data directory, held through a lock
 * file `<dir>/.fragment-cli.lock` containing the owner's pid. A lock whose pid
 * no longer runs (a crashed process) is stale and taken over.
 *
 * @module
 */

import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { DataDirectoryLockedError } from "./adapter_errors.ts";

/** The name of the lock file inside a data directory (never part of a cluster template). */
export const LOCK_FILE = ".fragment-cli.lock";

/** Directories locked by this process (another PGlite here would corrupt them too). */
const heldHere = new Set<string>();

/** A held lock; `release()` is idempotent. */
export interface DataDirLock {
  readonly lockFile: string;
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as { code?: string }).code === "EPERM";
  }
}

function readOwner(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, "utf8").split("\n")[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates `directory` when missing and takes its lock.
 *
 * @throws {DataDirectoryLockedError} When another live process (or another
 *   adapter in this process) holds it.
 */
export function lockDataDir(directory: string): DataDirLock {
  const absolute = path.resolve(directory);
  fs.mkdirSync(absolute, { recursive: true });
  const lockFile = path.join(absolute, LOCK_FILE);
  if (heldHere.has(absolute)) {
    throw new DataDirectoryLockedError(directory, process.pid, lockFile);
  }
  const content = `${process.pid}\n${new Date().toISOString()}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, content, { flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      const owner = readOwner(lockFile);
      // Unreadable or half-written lock: give its writer a moment before judging it.
      if (owner === undefined && attempt === 0) {
        sleepSync(50);
        continue;
      }
      if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
        throw new DataDirectoryLockedError(directory, owner, lockFile);
      }
      // Stale: its process is gone (or it is our own pid left by a crashed earlier run
      // of a reused pid, as nothing in this process holds it). Take it over.
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    // Re-read to make sure a concurrent stale-lock takeover did not replace ours.
    if (readOwner(lockFile) !== process.pid) {
      throw new DataDirectoryLockedError(directory, readOwner(lockFile), lockFile);
    }
    heldHere.add(absolute);
    const onExit = (): void => {
      if (readOwner(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
    };
    process.once("exit", onExit);
    let released = false;
    return {
      lockFile,
      release(): void {
        if (released) return;
        released = true;
        heldHere.delete(absolute);
        process.removeListener("exit", onExit);
        onExit();
      },
    };
  }
  throw new DataDirectoryLockedError(directory, readOwner(lockFile), lockFile);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
