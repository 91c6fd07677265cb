/**
 * Child processes of the benchmark: the runtimes' binaries, servers under test (started, awaited
 * until they print their address, measured through /proc, stopped) and whole-command timings.
 * The load generator's process has its own file, `load_client.ts`.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

/** The repository root (commands run from there). */
export const ROOT: string = resolve(import.meta.dirname ?? ".", "../..");

/** A new empty directory under `.bench/` (git-ignored) for one measurement. */
export function benchTempDir(label: string): string {
  mkdirSync(join(ROOT, ".bench"), { recursive: true });
  return mkdtempSync(join(ROOT, ".bench", `${label}-`));
}

/** Absolute paths of the three runtimes' binaries. */
export interface Runtimes {
  deno: string;
  node: string;
  bun: string;
}

/**
 * The binaries: Deno is the one running the benchmark; Node 22 and Bun come from npm like in the
 * test runner. Asked once (both at once) for their path so timings do not include `npx`.
 */
export async function findRuntimes(): Promise<Runtimes> {
  const ask = async (args: string[]): Promise<string> => {
    const { code, stdout, stderr } = await runToEnd("npx", ["-y", ...args], {
      env: { NPM_CONFIG_LOGLEVEL: "error" },
    });
    if (code !== 0) throw new Error(`npx ${args.join(" ")} exited with ${code}:\n${stderr}`);
    return stdout.trim();
  };
  const [node, bun] = await Promise.all([
    ask(["node@22", "-p", "process.execPath"]),
    ask(["bun@1", "-e", "console.log(process.execPath)"]),
  ]);
  return { deno: process.execPath, node, bun };
}

/** A server process under test. */
export interface ServerProcess {
  pid: number;
  /** `http://127.0.0.1:<port>` as the server printed it. */
  origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resident memory now (VmRSS), in MiB. */
  rssMib(): number;
  /** Peak resident memory since start (VmHWM), in MiB. */
  peakRssMib(): number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
  stop(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Give up after this long. @default 120000 */
  timeoutMs?: number;
}

/** Starts a server and resolves when it printed `http://<host>:<port>`. */
export function startServer(
  command: string,
  args: readonly string[],
  options: StartServerOptions = {},
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((done) => child.once("close", () => done()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not start:\n${output}`));
    }, options.timeoutMs ?? 120_000);
    const onData = (chunk: string): void => {
      output += chunk;
      const match = /http:\/\/([\w.\-\[\]:]+?):(\d+)/.exec(output);
      if (!match || !child.pid) return;
      clearTimeout(timer);
      resolvePromise(serverProcess(child, `http://127.0.0.1:${match[2]}`, () => output, exited));
    };
    child.stdout!.setEncoding("utf8").on("data", onData);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
}

function serverProcess(
  child: ChildProcess,
  origin: string,
  output: () => string,
  exited: Promise<void>,
): ServerProcess {
  const pid = child.pid!;
  return {
    pid,
    origin,
    output,
    rssMib: () => procStatusMib(pid, "VmRSS"),
    peakRssMib: () => procStatusMib(pid, "VmHWM"),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A memory figure of /proc/<pid>/status, in MiB. */
export function procStatusMib(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return kib / 1024;
}

/** The outcome of {@link timeCommand}. */
export interface CommandTiming {
  /** Median wall time from spawn to exit, milliseconds. */
  medianMs: number;
  /** What the last run printed. */
  stdout: string;
}

/**
 * Runs a command `runs` times (after one untimed warm run, which fills the OS file cache, unless
 * `warm` is false) and reports the median wall time.
 */
export async function timeCommand(
  command: string,
  args: readonly string[],
  runs: number,
  options: { env?: Record<string, string>; cwd?: string; warm?: boolean } = {},
): Promise<CommandTiming> {
  const times: number[] = [];
  let stdout = "";
  for (let i = options.warm === false ? 1 : 0; i <= runs; i++) {
    const started = performance.now();
    const result = await runToEnd(command, args, options);
    const ms = performance.now() - started;
    if (result.code !== 0) {
      throw new Error(`${command} ${args.join(" ")} exited with ${result.code}:\n${result.stderr}`);
    }
    if (i > 0) times.push(ms);
    stdout = result.stdout;
  }
  return { medianMs: median(times), stdout };
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function runToEnd(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}
