import type { Command } from "./command.ts";
import { dbGenerateCommand } from "./db_generate_command.ts";
import { dbInfoCommand } from "./db_info_command.ts";
import { dbMigrateCommand } from "./db_migrate_command.ts";
import { hooksCommand } from "./hooks_command.ts";
import { openapiCommand } from "./openapi_command.ts";
import { searchCommand } from "./search_command.ts";
import { serveCommand } from "./serve_command.ts";

/** Every command of `fragment-cli`, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  dbGenerateCommand,
  dbMigrateCommand,
  dbInfoCommand,
  hooksCommand,
  openapiCommand,
  searchCommand,
];
