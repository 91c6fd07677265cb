import { CliError, type CliIo } from "../command.ts";
import { type LoadedFile, loadUserFiles, type UserFile } from "./load_user_files.ts";

const MODULE_EXAMPLE = [
  "Export an instantiated module (any export name), for example:",
  "",
  '  import { createModule, route } from "@app/fragment-cli";',
  "  export const ping = createModule({",
  '    name: "ping",',
  '    routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],',
  "  });",
].join("\n");

const DATABASE_EXAMPLE = [
  "Export a module that has a database schema, or a { schema, namespace, adapter } object, e.g.:",
  "",
  '  import { column, databaseFromEnv, defineSchema } from "@app/fragment-cli";',
  '  const schema = defineSchema("notes", (s) =>',
  '    s.createTable("notes", { id: column.integer().primaryKey() }));',
  '  export const notes = { schema, namespace: "notes", adapter: databaseFromEnv() };',
].join("\n");

/** What the command needs from the files. */
export interface FindModulesOptions {
  /** What counts: modules (`serve`), database bindings (`db generate/migrate`), or either. */
  need: "modules" | "databases" | "modules-or-databases";
  /** `--json`: what the files print while imported goes to stderr. @default false */
  keepStdoutClean?: boolean;
}

/**
 * Loads the user's files, warns (stderr) about each file without what the command needs, and
 * fails with what to export (and an example) when no file has any.
 */
export async function findModules(
  files: readonly UserFile[],
  io: CliIo,
  options: FindModulesOptions,
): Promise<LoadedFile[]> {
  const loaded = await loadUserFiles(files, { keepStdoutClean: options.keepStdoutClean });
  const has = (file: LoadedFile): boolean =>
    options.need === "modules"
      ? file.modules.length > 0
      : options.need === "databases"
      ? file.databases.length > 0
      : file.modules.length > 0 || file.databases.length > 0;
  for (const file of loaded) {
    if (has(file) || loaded.length === 1) continue;
    io.stderr(
      options.need !== "databases"
        ? `warning: ${file.display} exports no instantiated module; skipped\n`
        : `warning: ${file.display} exports no module with a database schema; skipped\n`,
    );
  }
  if (!loaded.some(has)) {
    const where = loaded.map((f) => f.display).join(", ");
    throw new CliError(
      options.need !== "databases"
        ? `no instantiated module found in ${where}\n${MODULE_EXAMPLE}`
        : `no module with a database schema found in ${where}` +
          `${describeFound(loaded)}\n${DATABASE_EXAMPLE}`,
    );
  }
  return loaded;
}

function describeFound(loaded: readonly LoadedFile[]): string {
  const names = loaded.flatMap((f) => f.modules.map((m) => m.name));
  return names.length > 0 ? ` (modules without one: ${names.join(", ")})` : "";
}

/** `Found 2 modules in app.ts: auth, messenger`. */
export function foundLine(file: LoadedFile, names: readonly string[], what = "module"): string {
  const count = names.length === 1 ? `1 ${what}` : `${names.length} ${what}s`;
  return `Found ${count} in ${file.display}${names.length > 0 ? `: ${names.join(", ")}` : ""}`;
}
