import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli db migrate <file>`: applies the pending SQL migrations of every namespace. */
export const dbMigrateCommand: Command = {
  name: "db migrate",
  summary: "Apply pending SQL migrations to the database of every module",
  usage: "db migrate <file> [options]",
  options: {
    to: {
      type: "string",
      short: "t",
      valueName: "version",
      description: "Version to migrate to, or namespace=version pairs",
      default: "the latest schema version",
    },
    from: {
      type: "string",
      short: "f",
      valueName: "version",
      description: "Version the database must be at (checked before anything is applied), " +
        "or namespace=version pairs",
    },
  },
  examples: [
    "db migrate app.ts",
    "db migrate app.ts --from 2 --to 3",
    "DATABASE_URL=postgres://localhost/app db migrate app.ts --to auth=4",
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./db_migrate_run.ts")>("./db_migrate_run.ts")).runMigrate(
      args,
      io,
    ),
};
