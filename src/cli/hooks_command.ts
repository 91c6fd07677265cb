import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";

/** `fragment-cli hooks <file> <subcommand>`: operate the durable hooks of a file's modules. */
export const hooksCommand: Command = {
  name: "hooks",
  summary: "Operate durable hooks: list, show <id>, retry <id…>|--failed, cancel <id…>, purge",
  usage: "hooks <file> <subcommand> [options]",
  options: {
    status: {
      type: "string",
      valueName: "STATUS",
      description:
        "list: only hooks in this status (pending, running, failed, done, cancelled, blocked)",
    },
    namespace: {
      type: "string",
      valueName: "N",
      description: "Only the hooks of this namespace (every subcommand)",
    },
    limit: {
      type: "string",
      valueName: "N",
      description: "list: at most N hooks, newest first",
      default: "50",
    },
    failed: { type: "boolean", description: "retry: every failed hook (out of attempts)" },
    done: { type: "boolean", description: "purge: delete done hooks (required)" },
    "older-than": {
      type: "string",
      valueName: "AGE",
      description: "purge: only those finished at least AGE ago (30d, 12h, 15m, 0s)",
    },
    json: { type: "boolean", description: "Print JSON (only) on stdout" },
  },
  examples: [
    "hooks app.ts list --status failed",
    "hooks app.ts show 42",
    "hooks app.ts retry --failed",
    "hooks app.ts retry 42 43",
    "hooks app.ts cancel 44",
    "hooks app.ts purge --done --older-than 30d",
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./hooks_run.ts")>("./hooks_run.ts")).runHooks(args, io),
};
