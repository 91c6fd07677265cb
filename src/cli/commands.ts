import type { Command } from "./command.ts";

/** Every command of `fragment-cli`, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [];
