import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli openapi <file>`: the merged OpenAPI 3.1 document of the file's modules. */
export const openapiCommand: Command = {
  name: "openapi",
  summary: "Write the OpenAPI 3.1 document of every module of a file (no database needed)",
  usage: "openapi <file> [options]",
  options: {
    output: {
      type: "string",
      short: "o",
      valueName: "path",
      description: "File to write the document to",
      default: "standard output",
    },
  },
  examples: [
    "openapi app.ts",
    "openapi app.ts -o openapi.json",
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./openapi_run.ts")>("./openapi_run.ts")).runOpenapi(args, io),
};
