/** One option of a command, as `parseArgs` takes it plus what `--help` shows. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** One line for `--help`. */
  description: string;
  /** Shown in `--help`; applied by the command itself. */
  default?: string;
  /** Placeholder of the value in `--help`, e.g. `PORT`. */
  valueName?: string;
  /** A string option that may be given more than once: read from `CommandArgs.lists`. */
  multiple?: boolean;
}

/** What a command receives after parsing. */
export interface CommandArgs {
  /** The options given once, by name. */
  values: Record<string, string | boolean | undefined>;
  /** Each `multiple` option's values, in the order given (absent when not given). */
  lists?: Record<string, string[]>;
  positionals: string[];
}

/** Where a command writes; tests and the real process provide it. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether colour may be used on stdout (a TTY and no NO_COLOR). */
  color: boolean;
}

/** A CLI command: its help, its options and what it does. */
export interface Command {
  /** As typed: `serve`, `db migrate`. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage line without the program name, e.g. `serve <file…> [options]`. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** Example invocations without the program name. */
  examples: string[];
  /** Runs the command; resolves to the exit code. */
  run(args: CommandArgs, io: CliIo): Promise<number>;
}

/** A usage error: exit code 2, one line and the usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A runtime failure the CLI reports as one line, exit code 1. */
export class CliError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CliError";
  }
}
