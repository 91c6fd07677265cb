import { type CliIo, type Command, type CommandArgs, UsageError } from "./command.ts";
import { commandHelp, GLOBAL_OPTIONS, PROGRAM, programHelp } from "./help.ts";
import { VERSION } from "../version.ts";
import { COMMANDS } from "./command_list.ts";

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Print stacks of failures. @default false */
  debug?: boolean;
}

/**
 * Runs `fragment-cli` with the given arguments (without the program name) and resolves to the
 * exit code: 0 success, 1 runtime failure, 2 usage error.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  options: RunCliOptions = {},
): Promise<number> {
  let command: Command | undefined;
  let debug = options.debug ?? false;
  try {
    const [first] = argv;
    if (first === undefined || first === "--help" || first === "-h" || first === "help") {
      io.stdout(programHelp(COMMANDS));
      return 0;
    }
    if (first === "--version" || first === "-v") {
      io.stdout(`${PROGRAM} ${VERSION}\n`);
      return 0;
    }
    const found = findCommand(argv);
    command = found.command;
    const { values, lists, positionals } = await parseCommandArgs(command, found.rest);
    debug ||= values.verbose === true;
    if (values.help) {
      io.stdout(commandHelp(command));
      return 0;
    }
    return await command.run({ values, lists, positionals }, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = command ? `${PROGRAM} ${command.usage}` : `${PROGRAM} <command> [options]`;
      const helpHint = command ? `${PROGRAM} ${command.name} --help` : `${PROGRAM} --help`;
      io.stderr(`error: ${error.message}\nUsage: ${usage}\nRun "${helpHint}" for details.\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`error: ${message}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return 1;
  }
}

function findCommand(argv: readonly string[]): { command: Command; rest: string[] } {
  const byLength = [...COMMANDS].sort((a, b) => b.name.length - a.name.length);
  for (const command of byLength) {
    const words = command.name.split(" ");
    if (words.every((word, i) => argv[i] === word)) {
      return { command, rest: argv.slice(words.length) };
    }
  }
  const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `));
  if (group.length > 0) {
    const names = group.map((c) => c.name.split(" ")[1]).join(", ");
    const given = argv[1] === undefined
      ? "a subcommand is missing"
      : `unknown subcommand "${argv[1]}"`;
    throw new UsageError(`${argv[0]}: ${given}; use one of: ${names}`);
  }
  const names = [...new Set(COMMANDS.map((c) => c.name.split(" ")[0]))].join(", ");
  throw new UsageError(`unknown command "${argv[0]}"; commands: ${names}`);
}

async function parseCommandArgs(
  command: Command,
  args: string[],
): Promise<Required<CommandArgs>> {
  // Imported here, not at the top: `--help` and `--version` do not parse options, and on Deno
  // `node:util` loads Node-compatibility modules (see src/runtime/cli_process.ts).
  const { parseArgs } = await import("node:util");
  const options = Object.fromEntries(
    Object.entries({ ...command.options, ...GLOBAL_OPTIONS }).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.short ? { short: spec.short } : {}),
        ...(spec.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  try {
    const parsed = parseArgs({
      args: joinDashedValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    const values: CommandArgs["values"] = {};
    const lists: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(parsed.values)) {
      if (Array.isArray(value)) lists[name] = value.map(String);
      else values[name] = value;
    }
    return { values, lists, positionals: parsed.positionals };
  } catch (error) {
    // parseArgs explains at length; the first sentence is the reason.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split(/\.\s/)[0].replace(/\.$/, ""));
  }
}

/**
 * Joins an option that takes a value with the next argument when that argument starts with a dash
 * (`--prefix "-- squawk-ignore"` → `--prefix=-- squawk-ignore`): `parseArgs` refuses such values
 * as ambiguous, but the main use of `--prefix` is an SQL comment, which starts with `--`.
 */
export function joinDashedValues(
  args: readonly string[],
  options: Record<string, { type: "string" | "boolean"; short?: string }>,
): string[] {
  const takesValue = new Map<string, string>();
  for (const [name, spec] of Object.entries(options)) {
    if (spec.type !== "string") continue;
    takesValue.set(`--${name}`, `--${name}`);
    if (spec.short) takesValue.set(`-${spec.short}`, `--${name}`);
  }
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const long = takesValue.get(args[i]);
    const next = args[i + 1];
    if (args[i] === "--") {
      joined.push(...args.slice(i));
      break;
    }
    if (long !== undefined && next !== undefined && next.startsWith("-")) {
      joined.push(`${long}=${next}`);
      i++;
    } else {
      joined.push(args[i]);
    }
  }
  return joined;
}
