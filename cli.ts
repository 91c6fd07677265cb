#!/usr/bin/env -S deno run -A
/**
 * The `fragment-cli` command: `serve`, `db generate`, `db migrate`, `db info`, `search`.
 *
 * ```sh
 * deno run -A jsr:@app/fragment-cli/cli --help
 * npx fragment-cli --help
 * ```
 *
 * @module
 */
import { cliProcess } from "./src/runtime/cli_process.ts";
import { runCli } from "./src/cli/mod.ts";

const host = cliProcess();
const code = await runCli(host.args, {
  stdout: host.stdout,
  stderr: host.stderr,
  // A getter: only commands that colour their output ask whether stdout is a terminal.
  get color() {
    return host.stdoutIsTerminal() && !host.env("NO_COLOR");
  },
}, { debug: Boolean(host.env("DEBUG")) });
await host.exit(code);
