import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli db info <file>`: code and database versions of every namespace. */
export const dbInfoCommand: Command = {
  name: "db info",
  summary: "Show the code and database versions and the pending migrations of every namespace",
  usage: "db info <file> [options]",
  options: {
    json: { type: "boolean", description: "Print JSON (only) on stdout instead of a table" },
  },
  examples: ["db info app.ts", "db info app.ts --json"],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./db_info_run.ts")>("./db_info_run.ts")).runInfo(args, io),
};
