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
import process from "node:process";
import { runCli } from "./src/cli/mod.ts";

const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  color,
}, { debug: Boolean(process.env.DEBUG) });
process.exit(code);
