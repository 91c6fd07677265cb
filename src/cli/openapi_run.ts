import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { mergeOpenApiDocuments, type ModuleInstance, type OpenApiDocument } from "../core/mod.ts";
import { OPENAPI_PATH } from "../core/create_module.ts";
import { CliError, type CliIo, type CommandArgs, UsageError } from "./command.ts";
import {
  allDatabases,
  allModules,
  checkUserFiles,
  closeAdapters,
  displayPath,
  findModules,
} from "./user_files/mod.ts";

/**
 * Runs `openapi`; loaded only when the command runs (see `openapi_command.ts`). Imports the file
 * (its modules are instantiated, no database is opened: adapters connect on their first query),
 * asks each module for its document and merges them.
 */
export async function runOpenapi(args: CommandArgs, io: CliIo): Promise<number> {
  const output = outputFile(args.values.output);
  const [file] = checkUserFiles(args.positionals, { min: 1, max: 1, name: "<file>" });
  // Printed to stdout, the document must be all that is there.
  const loaded = await findModules([file], io, {
    need: "modules",
    keepStdoutClean: output === null,
  });
  try {
    const modules = allModules(loaded);
    const documents: OpenApiDocument[] = [];
    for (const module of modules) documents.push(await moduleDocument(module));
    let merged: OpenApiDocument;
    try {
      merged = mergeOpenApiDocuments(documents, {
        title: file.display,
        description: `The modules of ${file.display}: ${modules.map((m) => m.name).join(", ")}.`,
      });
    } catch (error) {
      throw new CliError(`${file.display}: ${(error as Error).message}`);
    }
    const text = `${JSON.stringify(merged, null, 2)}\n`;
    if (output === null) {
      io.stdout(text);
      return 0;
    }
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, text);
    const count = Object.values(merged.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    io.stdout(
      `✓ Wrote ${displayPath(output)}: ${count} operations of ${modules.length} ` +
        `module${modules.length === 1 ? "" : "s"} (${modules.map((m) => m.name).join(", ")})\n`,
    );
    return 0;
  } finally {
    await closeAdapters(allDatabases(loaded));
  }
}

/** `-o path`: an absolute file path; `null` for stdout. */
function outputFile(value: string | boolean | undefined): string | null {
  if (value === undefined) return null;
  const text = String(value);
  if (text.trim() === "") throw new UsageError("--output must not be empty");
  const path = resolve(process.cwd(), text);
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // Does not exist yet: written below.
  }
  if (isDirectory || /[\\/]$/.test(text)) {
    throw new UsageError(`--output ${text} is a directory; give a file path, e.g. openapi.json`);
  }
  return path;
}

/** The document a module serves at `<mount>/openapi.json`, asked in memory (no socket). */
async function moduleDocument(module: ModuleInstance): Promise<OpenApiDocument> {
  const url = `http://localhost${module.mountRoute}${OPENAPI_PATH}`;
  const response = await module.fetch(new Request(url));
  if (!response.ok) {
    await response.body?.cancel();
    throw new CliError(
      `module "${module.name}" answered ${response.status} at ${module.mountRoute}${OPENAPI_PATH}` +
        " (a module made by another version of fragment-cli may serve no OpenAPI document)",
    );
  }
  return await response.json() as OpenApiDocument;
}
