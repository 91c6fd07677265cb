import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { UsageError } from "./command.ts";

/** Where `db generate` writes: a directory (files get their default names) or one file path. */
export type OutputTarget =
  | { kind: "directory"; path: string }
  | { kind: "file"; path: string };

/**
 * The one `--output` rule, whatever the number of files: an existing directory or a path ending
 * with `/` is a directory; anything else is a file path. No `--output` is the working directory.
 */
export function outputTarget(output: string | boolean | undefined): OutputTarget {
  if (output === undefined) return { kind: "directory", path: process.cwd() };
  const text = String(output);
  if (text.trim() === "") throw new UsageError("--output must not be empty");
  const path = resolve(process.cwd(), text);
  if (/[\\/]$/.test(text) || isDirectory(path)) return { kind: "directory", path };
  return { kind: "file", path };
}

/**
 * The paths to write `names` (default file names) to. Several files with a file path is a usage
 * error: they would overwrite one another.
 */
export function outputPaths(
  target: OutputTarget,
  names: readonly string[],
  given: string,
): string[] {
  if (target.kind === "directory") return names.map((name) => join(target.path, name));
  if (names.length > 1) {
    throw new UsageError(
      `--output ${given} is a file path, but ${names.length} files would be generated; ` +
        `give a directory instead (an existing one, or a path ending with /)`,
    );
  }
  return [target.path];
}

/** The highest `<date>_<seq>_` sequence number among the files of a directory for that date. */
export function lastSequence(directory: string, date: string): number {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return 0;
  }
  let last = 0;
  for (const entry of entries) {
    const match = /^(\d{8})_(\d{3})_.*\.sql$/.exec(entry);
    if (match && match[1] === date) last = Math.max(last, Number(match[2]));
  }
  return last;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
