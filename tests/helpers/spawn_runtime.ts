/**
 * Runs a TypeScript file in a child process on the runtime the tests run on (Deno, Node ≥ 22 or
 * Bun), so cross-process tests exercise the same runtime as the rest of the suite.
 *
 * @example
 * ```ts
 * import { spawn } from "node:child_process";
 * import process from "node:process";
 * import { runtimeArgs } from "./spawn_runtime.ts";
 *
 * spawn(process.execPath, runtimeArgs("tests/fixtures/slow_server.ts"));
 * ```
 */
import { spawn, type SpawnOptions } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";

/**
 * The configuration with the test, bench and site packages (deno.json holds only what the
 * package itself needs, so that `deno task start` fetches no more): a Deno child finds its
 * imports here, as the test runner itself does.
 */
export const DEV_CONFIG: string = fileURLToPath(new URL("../../deno.dev.json", import.meta.url));

/** Which runtime runs this process. */
export const RUNTIME: "deno" | "bun" | "node" = "Deno" in globalThis
  ? "deno"
  : "Bun" in globalThis
  ? "bun"
  : "node";

/** Arguments for `process.execPath` that run `script` with `args` on the current runtime. */
export function runtimeArgs(script: string, args: readonly string[] = []): string[] {
  if (RUNTIME === "deno") return ["run", "-A", "--quiet", "--config", DEV_CONFIG, script, ...args];
  return [script, ...args];
}

/** The result of {@link runScript}. */
export interface ScriptResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a script to completion on the current runtime and collects its output. */
export function runScript(
  script: string,
  args: readonly string[] = [],
  options: SpawnOptions = {},
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, runtimeArgs(script, args), {
      ...options,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
