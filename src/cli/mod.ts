/**
 * The `fragment-cli` command line: {@link runCli} runs it with arguments and an output sink.
 *
 * @module
 */
export { runCli, type RunCliOptions } from "./main.ts";
export { CliError, type CliIo, type Command, UsageError } from "./command.ts";
