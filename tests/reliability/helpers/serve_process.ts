/**
 * `fragment-cli serve` and other CLI runs as real child processes for the reliability tests: on
 * the runtime the tests run on, or on another one (Deno, Node 22, Bun from npm) where running
 * mixed runtimes against one database matters. Every byte they print goes to an
 * {@link OutputLog}; `kill("SIGKILL")` is a real `kill -9`.
 *
 * @example
 * ```ts ignore
 * const log = new OutputLog();
 * const server = await startServe({ app, env: { DATABASE_URL: url }, log, label: "A" });
 * await fetch(`${server.url}/api/auth/me`);
 * await server.kill("SIGKILL");
 * ```
 *
 * @module
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { childEnv, CLI } from "../../helpers/cli_process.ts";
import { RUNTIME, runtimeArgs } from "../../helpers/spawn_runtime.ts";
import type { OutputLog } from "./output_log.ts";

/** A JavaScript runtime that can run `cli.ts`. */
export type RuntimeName = "deno" | "node" | "bun";

const NPM_PACKAGE: Record<RuntimeName, [string, string[]]> = {
  deno: ["deno@2", ["eval", "console.log(Deno.execPath())"]],
  node: ["node@22", ["-p", "process.execPath"]],
  bun: ["bun@1", ["-e", "console.log(process.execPath)"]],
};
const binaries = new Map<RuntimeName, Promise<string>>();

/** The executable of `runtime`: ours, or the one npm installs (asked once per process). */
export function runtimeBinary(runtime: RuntimeName): Promise<string> {
  if (runtime === RUNTIME) return Promise.resolve(process.execPath);
  let found = binaries.get(runtime);
  if (!found) {
    const [pkg, args] = NPM_PACKAGE[runtime];
    found = new Promise((resolve, reject) => {
      execFile("npx", ["-y", pkg, ...args], { env: childEnv() }, (error, stdout) => {
        if (error) reject(error);
        else resolve(stdout.trim().split("\n").pop()!);
      });
    });
    binaries.set(runtime, found);
  }
  return found;
}

/** Arguments that run `script` with `args` on `runtime`. */
export function argsFor(runtime: RuntimeName, script: string, args: readonly string[]): string[] {
  return runtime === "deno" ? ["run", "-A", "--quiet", script, ...args] : [script, ...args];
}

/** How a child process ended. */
export interface Exit {
  code: number | null;
  signal: string | null;
}

/** A running CLI child process. */
export interface CliChild {
  /** Its label in the output log. */
  label: string;
  /** Its process id. */
  pid: number;
  /** The child process. */
  child: ChildProcess;
  /** Resolves when it has exited. */
  exited: Promise<Exit>;
  /** Sends `signal` (a real `kill -9` for SIGKILL) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
}

/** Options of {@link spawnCli}. */
export interface SpawnCliOptions {
  /** Where its output goes. */
  log: OutputLog;
  /** Its label in the log. */
  label: string;
  /** Environment added to ours (DATABASE_URL is removed unless given). */
  env?: Record<string, string>;
  /** Runtime to run on. @default the tests' runtime */
  runtime?: RuntimeName;
  /** Working directory. @default the current one */
  cwd?: string;
}

/** Starts `fragment-cli <args>` as a child process. */
export async function spawnCli(args: readonly string[], options: SpawnCliOptions): Promise<
  CliChild
> {
  const runtime = options.runtime ?? RUNTIME;
  const binary = await runtimeBinary(runtime);
  const child = spawn(
    binary,
    runtime === RUNTIME ? runtimeArgs(CLI, args) : argsFor(runtime, CLI, args),
    { cwd: options.cwd, env: childEnv(options.env), stdio: ["ignore", "pipe", "pipe"] },
  );
  options.log.attach(options.label, child);
  const exited = new Promise<Exit>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal }))
  );
  return {
    label: options.label,
    pid: child.pid!,
    child,
    exited,
    kill(signal: NodeJS.Signals = "SIGTERM"): Promise<Exit> {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `fragment-cli <args>` to completion; resolves with its exit and output. */
export async function runCliToEnd(
  args: readonly string[],
  options: SpawnCliOptions,
): Promise<Exit & { output: string }> {
  const cli = await spawnCli(args, options);
  let output = "";
  cli.child.stdout!.on("data", (chunk: string) => (output += chunk));
  cli.child.stderr!.on("data", (chunk: string) => (output += chunk));
  const exit = await cli.exited;
  return { ...exit, output };
}

/** A `serve` process that printed its address and routes. */
export interface ServeChild extends CliChild {
  /** `http://127.0.0.1:<port>`. */
  url: string;
}

/** Options of {@link startServe}. */
export interface StartServeOptions extends SpawnCliOptions {
  /** The app file to serve. */
  app: string;
  /** Pass `--migrate`. */
  migrate?: boolean;
  /** Port. @default 0 (a free one) */
  port?: number;
  /** Give up waiting for the start after this many milliseconds. @default 120000 */
  startTimeoutMs?: number;
}

/**
 * Starts `fragment-cli serve <app> --host 127.0.0.1` and resolves once it printed
 * `Press Ctrl-C to stop.`; rejects with its output if it exits or hangs first.
 */
export async function startServe(options: StartServeOptions): Promise<ServeChild> {
  const args = ["serve", options.app, "--host", "127.0.0.1", "--port", String(options.port ?? 0)];
  if (options.migrate) args.push("--migrate");
  const cli = await spawnCli(args, options);
  let stdout = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: cli.child.stdout! }).on("line", (line) => {
        stdout += `${line}\n`;
        if (line !== "Press Ctrl-C to stop.") return;
        const found = /^Server running on (\S+)$/m.exec(stdout)?.[1];
        if (found) resolve(found);
        else reject(new Error(`no address in:\n${stdout}`));
      });
      cli.exited.then((exit) =>
        reject(
          new Error(
            `${options.label} exited (${JSON.stringify(exit)}) before serving:\n` +
              options.log.text(options.label),
          ),
        )
      );
      timer = setTimeout(() => {
        reject(new Error(`${options.label} did not start:\n${options.log.text(options.label)}`));
      }, options.startTimeoutMs ?? 120_000);
    });
    return { ...cli, url };
  } catch (error) {
    await cli.kill("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
