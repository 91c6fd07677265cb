/**
 * Runs `deno task bench` with the given arguments as a child process (the tests under
 * tests/bench/ run only on Deno, whose executable starts the task), colourless and without npm's
 * own warnings, and collects what it printed.
 */
import { spawn } from "node:child_process";
import process from "node:process";

/** What a bench run printed, and how it ended. */
export interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `deno task bench <args>` to completion. */
export function runBench(args: readonly string[]): Promise<BenchRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["task", "bench", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", NPM_CONFIG_LOGLEVEL: "error" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
