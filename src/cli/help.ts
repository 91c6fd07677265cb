import type { Command, OptionSpec } from "./command.ts";

/** The program name as users type it. */
export const PROGRAM = "fragment-cli";

/** The global options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h", description: "Show help" },
  verbose: { type: "boolean", description: "Print stack traces of failures (also: DEBUG=1)" },
};

/** Renders the top-level help: commands and global options. */
export function programHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.usage.length)) + 2;
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    "",
    "Serve, migrate and inspect database-backed modules (fragments).",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.usage.padEnd(width)}${c.summary}`),
    "",
    "Options:",
    "  -h, --help      Show help",
    "  -v, --version   Print the version",
    "      --verbose   Print stack traces of failures (also: DEBUG=1)",
    "",
    `Run "${PROGRAM} <command> --help" for the options of a command.`,
    "",
  ].join("\n");
}

/** Renders the help of one command: usage, options with defaults, examples. */
export function commandHelp(command: Command): string {
  const all = { ...command.options, ...GLOBAL_OPTIONS };
  const flags = Object.entries(all).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : "    ";
    const value = spec.type === "string" ? ` <${spec.valueName ?? "value"}>` : "";
    return { flag: `${short}--${name}${value}`, spec };
  });
  const width = Math.max(...flags.map((f) => f.flag.length)) + 2;
  return [
    `Usage: ${PROGRAM} ${command.usage}`,
    "",
    command.summary,
    "",
    "Options:",
    ...flags.map(({ flag, spec }) =>
      `  ${flag.padEnd(width)}${spec.description}${
        spec.default !== undefined ? ` (default: ${spec.default})` : ""
      }`
    ),
    "",
    "Examples:",
    ...command.examples.map((example) => `  ${exampleLine(example)}`),
    "",
  ].join("\n");
}

/**
 * An example as a shell line: the program name goes after the environment assignments the
 * example starts with (`DATABASE_URL=… serve app.ts` → `DATABASE_URL=… fragment-cli serve app.ts`).
 */
function exampleLine(example: string): string {
  const environment = /^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*/.exec(example)?.[0] ?? "";
  return `${environment}${PROGRAM} ${example.slice(environment.length)}`;
}
