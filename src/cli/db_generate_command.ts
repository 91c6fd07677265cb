import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli db generate <file>`: SQL migrations, or a Drizzle or Prisma schema file. */
export const dbGenerateCommand: Command = {
  name: "db generate",
  summary: "Generate SQL migrations, or a Drizzle or Prisma schema, from the module schemas",
  usage: "db generate <file> [options]",
  options: {
    format: {
      type: "string",
      valueName: "format",
      description: "Output format: sql (migrations), drizzle or prisma (schema files)",
      default: "sql",
    },
    output: {
      type: "string",
      short: "o",
      valueName: "path",
      description: "Output directory (existing, or ending with /) or file path",
      default: "the current directory",
    },
    from: {
      type: "string",
      short: "f",
      valueName: "version",
      description: "Version to generate from, or namespace=version pairs (sql only)",
      default: "the database's current version",
    },
    to: {
      type: "string",
      short: "t",
      valueName: "version",
      description: "Version to generate to, or namespace=version pairs (sql only)",
      default: "the latest schema version",
    },
    prefix: {
      type: "string",
      short: "p",
      valueName: "text",
      description: "Text put on a line of its own at the top of each file (e.g. a lint comment)",
    },
  },
  examples: [
    "db generate app.ts",
    "db generate app.ts --from 0 -o migrations/",
    "db generate app.ts --to auth=3",
    "db generate app.ts --format drizzle -o src/db/schema.ts",
    'db generate app.ts --format prisma --prefix "// prettier-ignore"',
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./db_generate_run.ts")>("./db_generate_run.ts")).runGenerate(
      args,
      io,
    ),
};
