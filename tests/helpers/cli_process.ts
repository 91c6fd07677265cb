/**
 * Runs `cli.ts` as a user would: a child process on the runtime the tests run on, in a given
 * working directory and environment. {@link startServe} keeps `serve` running until stopped.
 *
 * @example
 * ```ts ignore
 * import { runCli } from "../helpers/cli_process.ts";
 *
 * const result = await runCli(["db", "info", "app.ts", "--json"], { cwd: "/tmp/x" });
 * console.log(result.code, JSON.parse(result.stdout));
 * ```
 *
 * @module
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { runScript, runtimeArgs, type ScriptResult } from "./spawn_runtime.ts";

/** The CLI entry point. */
export const CLI: string = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/** An absolute path to a fixture under tests/fixtures/cli/. */
export function cliFixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/cli/${name}`, import.meta.url));
}

/** Where and with what environment the CLI runs. */
export interface CliRunOptions {
  cwd: string;
  /** Added to the environment; `DATABASE_URL` is removed unless given here. */
  env?: Record<string, string>;
  /** The CLI entry point to run. @default {@link CLI} */
  cli?: string;
}

/** The environment of a child: ours without DATABASE_URL, NO_COLOR set, plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "DATABASE_URL") env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs `fragment-cli <args>` to completion. */
export function runCli(args: readonly string[], options: CliRunOptions): Promise<ScriptResult> {
  return runScript(options.cli ?? CLI, args, { cwd: options.cwd, env: childEnv(options.env) });
}

/** A temporary directory, removed by the returned function. */
export function tempDir(prefix = "fragment-cli-e2e-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A `serve` process that printed its routes. */
export interface ServeProcess {
  /** The address it printed, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code (or the signal's name). */
  stop(): Promise<number | string | null>;
}

/**
 * Starts `fragment-cli serve <args>` and resolves once it printed `Press Ctrl-C to stop.`; rejects
 * with its output if it exits first.
 */
export function startServe(args: readonly string[], options: CliRunOptions): Promise<ServeProcess> {
  const child = spawn(process.execPath, runtimeArgs(options.cli ?? CLI, ["serve", ...args]), {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("close", (code, signal) => resolve(code ?? signal))
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      stdout += `${line}\n`;
      if (line !== "Press Ctrl-C to stop.") return;
      const url = /^Server running on (\S+)$/m.exec(stdout)?.[1];
      if (!url) return reject(new Error(`no address in:\n${stdout}`));
      resolve({
        url,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
    exited.then((code) =>
      reject(new Error(`serve exited with ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`))
    );
  });
}
