import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli serve <file…>`: serves every module of the files on one HTTP server. */
export const serveCommand: Command = {
  name: "serve",
  summary: "Serve the modules exported by one or more files over HTTP",
  usage: "serve <file…> [options]",
  options: {
    port: {
      type: "string",
      short: "p",
      valueName: "port",
      description: "Port to listen on (0 picks a free one)",
      default: "8080",
    },
    host: {
      type: "string",
      short: "H",
      valueName: "host",
      description: "Host to bind",
      default: "localhost",
    },
    static: {
      type: "string",
      valueName: "[path=]dir",
      multiple: true,
      description: "Also serve the files of <dir> (e.g. a single-page app, index.html at /) at " +
        "the paths no module is mounted at, or under <path> (/admin=admin/dist); repeatable; " +
        "GET and HEAD only",
    },
    migrate: {
      type: "boolean",
      description: "Apply pending migrations on a PostgreSQL server before serving " +
        "(the embedded PGlite database is always migrated)",
    },
  },
  examples: [
    "serve examples/app.ts",
    "serve src/auth.ts src/billing.ts --port 3000 --host 0.0.0.0",
    "serve examples/app.ts --static examples/spa",
    "serve examples/app.ts --static examples/spa --static /react=examples/react",
    "DATABASE_URL=postgres://localhost/app serve app.ts --migrate",
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./serve_run.ts")>("./serve_run.ts")).runServe(args, io),
};
