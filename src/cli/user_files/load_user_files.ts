import { statSync } from "node:fs";
import { relative, resolve } from "node:path";
import process from "node:process";
import type { ModuleInstance } from "../../core/mod.ts";
import { isModuleInstance } from "../../core/module_instance.ts";
import type { Schema } from "../../schema/mod.ts";
import type { SqlAdapter } from "../../sql/mod.ts";
import { CliError, UsageError } from "../command.ts";
import { commonJsReason } from "./commonjs_reason.ts";
import { importUserFile } from "./import_user_file.ts";

/** Extensions of the files the CLI imports. */
const EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** A user file, checked to exist, not yet imported. */
export interface UserFile {
  /** The path as the user wrote it (shown in every message about the file). */
  display: string;
  /** The absolute path. */
  absolute: string;
}

/**
 * A database binding found in a user's file: a schema in a namespace on an adapter. Either the
 * `database` of a module, or an exported `{ schema, namespace, adapter }` object of its own.
 */
export interface DatabaseBinding {
  /** The module's name, or the schema's name for a binding exported without a module. */
  moduleName: string;
  schema: Schema;
  namespace: string;
  adapter: SqlAdapter;
  /** The file it was found in, as the user wrote it. */
  file: string;
}

/** What one user file exports that the CLI cares about. */
export interface LoadedFile extends UserFile {
  /** The instantiated modules, each once, in the order of their export names. */
  modules: ModuleInstance[];
  /** The database bindings, each once. */
  databases: DatabaseBinding[];
}

/**
 * Checks the positional file arguments BEFORE any user code runs: at least one, and each an
 * existing `.ts`/`.js` file. Throws a {@link UsageError} (exit 2) or a {@link CliError} (exit 1).
 */
export function checkUserFiles(
  positionals: readonly string[],
  what: { min: number; max?: number; name: string },
): UserFile[] {
  if (positionals.length < what.min) throw new UsageError(`missing ${what.name}`);
  if (what.max !== undefined && positionals.length > what.max) {
    throw new UsageError(
      `expected one ${what.name}, got ${positionals.length}: ${positionals.join(" ")}`,
    );
  }
  return positionals.map((display) => {
    if (!EXTENSIONS.test(display)) {
      throw new UsageError(`${display}: expected a .ts or .js file`);
    }
    const absolute = resolve(process.cwd(), display);
    let isFile = false;
    try {
      isFile = statSync(absolute).isFile();
    } catch {
      throw new CliError(`${display}: no such file`);
    }
    if (!isFile) throw new CliError(`${display}: not a file`);
    return { display, absolute };
  });
}

/** Options of {@link loadUserFiles}. */
export interface LoadOptions {
  /**
   * Route what the user's files print with `console.log`/`info`/`debug` while they are imported
   * to stderr, so a `--json` command's stdout stays pure JSON.
   */
  keepStdoutClean?: boolean;
}

function logToStderr(): () => void {
  const { log, info, debug } = console;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => Object.assign(console, { log, info, debug });
}

/**
 * Imports each file and finds, among ALL its exports (any name), the instantiated modules and the
 * database bindings. The same instance exported twice counts once, across files too. A file that
 * fails to import is a {@link CliError} `<file>: <reason>`.
 */
export async function loadUserFiles(
  files: readonly UserFile[],
  options: LoadOptions = {},
): Promise<LoadedFile[]> {
  const seenModules = new Set<ModuleInstance>();
  const seenBindings = new Set<unknown>();
  const loaded: LoadedFile[] = [];
  for (const file of files) {
    let exports: Record<string, unknown>;
    const restore = options.keepStdoutClean ? logToStderr() : () => {};
    try {
      exports = await importUserFile(file.absolute);
    } catch (error) {
      const reason = commonJsReason(file.absolute, error) ?? reasonOf(error);
      throw new CliError(`${file.display}: ${reason}`, { cause: error });
    } finally {
      restore();
    }
    const modules: ModuleInstance[] = [];
    const databases: DatabaseBinding[] = [];
    for (const value of Object.values(exports)) {
      if (isModuleInstance(value)) {
        if (seenModules.has(value)) continue;
        seenModules.add(value);
        modules.push(value);
        const database = value.database;
        if (isDatabaseBinding(database) && !seenBindings.has(database)) {
          seenBindings.add(database);
          databases.push({ moduleName: value.name, ...pick(database), file: file.display });
        }
      } else if (isDatabaseBinding(value) && !seenBindings.has(value)) {
        seenBindings.add(value);
        databases.push({ moduleName: value.schema.name, ...pick(value), file: file.display });
      }
    }
    loaded.push({ ...file, modules, databases: dedupeBindings(databases) });
  }
  return loaded;
}

/** A module's database binding may also be exported by itself: keep one per adapter+namespace. */
function dedupeBindings(bindings: DatabaseBinding[]): DatabaseBinding[] {
  const result: DatabaseBinding[] = [];
  for (const binding of bindings) {
    const twin = result.find((b) =>
      b.adapter === binding.adapter && b.namespace === binding.namespace
    );
    if (!twin) {
      result.push(binding);
    } else if (twin.schema !== binding.schema) {
      throw new CliError(
        `${binding.file}: modules "${twin.moduleName}" and "${binding.moduleName}" both use ` +
          `namespace "${binding.namespace}" of one database with different schemas`,
      );
    }
  }
  return result;
}

function pick(binding: { schema: Schema; namespace: string; adapter: SqlAdapter }) {
  return { schema: binding.schema, namespace: binding.namespace, adapter: binding.adapter };
}

/** Whether a value is a `{ schema, namespace, adapter }` binding made with this package's API. */
export function isDatabaseBinding(
  value: unknown,
): value is { schema: Schema; namespace: string; adapter: SqlAdapter } {
  if (typeof value !== "object" || value === null) return false;
  const { schema, namespace, adapter } = value as Record<string, unknown>;
  return typeof namespace === "string" && isSchema(schema) && isSqlAdapter(adapter);
}

function isSchema(value: unknown): value is Schema {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  return typeof s.name === "string" && typeof s.version === "number" && Array.isArray(s.steps);
}

function isSqlAdapter(value: unknown): value is SqlAdapter {
  if (typeof value !== "object" || value === null) return false;
  const a = value as Record<string, unknown>;
  return (a.kind === "pglite" || a.kind === "postgres") && typeof a.query === "function" &&
    typeof a.transaction === "function" && typeof a.close === "function";
}

/** The first line of an import failure, with the user's file paths made relative. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n").find((line) => line.trim() !== "") ?? message;
  return first.replaceAll(`file://${process.cwd()}/`, "").replaceAll(`${process.cwd()}/`, "");
}

/** Every module of the loaded files, in file order. */
export function allModules(files: readonly LoadedFile[]): ModuleInstance[] {
  return files.flatMap((f) => f.modules);
}

/** Every database binding of the loaded files, in file order. */
export function allDatabases(files: readonly LoadedFile[]): DatabaseBinding[] {
  return dedupeBindings(files.flatMap((f) => f.databases));
}

/** The path relative to the working directory, for messages about files the CLI writes. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/** Closes every distinct adapter of the bindings (so the process exits promptly). */
export async function closeAdapters(bindings: readonly DatabaseBinding[]): Promise<void> {
  const adapters = new Set(bindings.map((b) => b.adapter));
  await Promise.allSettled([...adapters].map((a) => a.close()));
}
