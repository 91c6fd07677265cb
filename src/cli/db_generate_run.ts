import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { drizzleSchemaFile, prismaSchemaFile } from "../migrate/mod.ts";
import { type CliIo, type CommandArgs, UsageError } from "./command.ts";
import {
  allDatabases,
  checkUserFiles,
  closeAdapters,
  type DatabaseBinding,
  displayPath,
  findModules,
} from "./user_files/mod.ts";
import { outputPaths, outputTarget } from "./db_generate_output_path.ts";
import { parseVersionOption } from "./version_option.ts";
import { generateSqlMigrations } from "./db_generate_sql_files.ts";
import { databasesLine } from "./database_report.ts";

const FORMATS = ["sql", "drizzle", "prisma"] as const;
type Format = (typeof FORMATS)[number];

/** Runs `db generate`; loaded only when the command runs (see `db_generate_command.ts`). */
export async function runGenerate(args: CommandArgs, io: CliIo): Promise<number> {
  const format = parseFormat(args.values.format);
  const from = parseVersionOption("--from", args.values.from);
  const to = parseVersionOption("--to", args.values.to);
  if (format !== "sql" && (from || to)) {
    throw new UsageError(
      `--from and --to are only supported for SQL migration output (--format sql), ` +
        `not --format ${format}: a ${format} schema always describes the latest version`,
    );
  }
  const target = outputTarget(args.values.output);
  const given = String(args.values.output ?? ".");
  const prefix = typeof args.values.prefix === "string" ? `${args.values.prefix}\n` : "";
  const [file] = checkUserFiles(args.positionals, { min: 1, max: 1, name: "<file>" });
  const loaded = await findModules([file], io, { need: "databases" });
  const databases = allDatabases(loaded);
  try {
    io.stdout(`${databasesLine(file.display, databases)}\n`);
    if (format === "sql") {
      return await generateSqlMigrations(databases, { from, to, target, given, prefix }, io);
    }
    const name = format === "drizzle" ? "fragment-schema.ts" : "fragment.prisma";
    const [path] = outputPaths(target, [name], given);
    const schemas = databases.map((d) => ({ schema: d.schema, namespace: d.namespace }));
    const text = format === "drizzle" ? drizzleSchemaFile(schemas) : prismaSchemaFile(schemas);
    io.stdout(`Generating the ${format === "drizzle" ? "Drizzle" : "Prisma"} schema…\n`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, prefix + text);
    io.stdout(`✓ Generated: ${displayPath(path)}\n1 file generated\n`);
    io.stdout(databases.map((d) => `  ${label(d)}: version ${d.schema.version}\n`).join(""));
    return 0;
  } finally {
    await closeAdapters(databases);
  }
}

function label(binding: DatabaseBinding): string {
  return `${binding.moduleName} [${binding.namespace}]`;
}

function parseFormat(value: string | boolean | undefined): Format {
  if (value === undefined) return "sql";
  const format = String(value);
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unsupported format "${format}"; use one of: ${FORMATS.join(", ")}`);
  }
  return format as Format;
}
