/**
 * Scenario 10's child processes (`queue_process.ts`) seen from the scenario: started under the
 * right runtime, their stdout lines handed over as they come, `go` sent on stdin, stopped.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { ROOT, type Runtimes } from "./processes.ts";

const ENTRY = join(ROOT, "scripts/bench/queue_process.ts");

/** One queue in one configuration. */
export interface QueueConfig {
  queue: "ours" | "pg-boss" | "graphile";
  variant: "default" | "tuned";
  /** How the table names it, e.g. `pg-boss tuned`. */
  label: string;
}

/** A running child. */
export interface QueueChild {
  /** Resolves with the first line (from now on) that `match` accepts, mapped by it. */
  next<T>(match: (line: string) => T | undefined, timeoutMs?: number): Promise<T>;
  /** Calls `onLine` for every line from now on. */
  onLine(onLine: (line: string) => void): void;
  send(line: string): void;
  /** Closes stdin (the worker roles stop and exit), then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Starts `queue_process.ts` for `config` in `role`; ours under Deno, the anchors under Node. */
export function startQueueChild(
  runtimes: Runtimes,
  config: QueueConfig,
  role: string,
  url: string,
  args: readonly (string | number)[],
): QueueChild {
  const runtime = config.queue === "ours"
    ? [runtimes.deno, "run", "-A", ENTRY]
    : [runtimes.node, ENTRY];
  const child: ChildProcess = spawn(
    runtime[0],
    [...runtime.slice(1), config.queue, config.variant, role, url, ...args.map(String)],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", NODE_NO_WARNINGS: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const listeners = new Set<(line: string) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    for (const listener of [...listeners]) listener(line);
  });
  // "close", not "exit": the last lines of stdout may still be unread when the process exits.
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  const describe = `${config.label} ${role}`;
  return {
    next(match, timeoutMs = 300_000) {
      return new Promise((resolve, reject) => {
        const listener = (line: string): void => {
          const value = match(line);
          if (value === undefined) return;
          settle();
          resolve(value);
        };
        const timer = setTimeout(() => {
          settle();
          reject(new Error(`${describe}: nothing after ${timeoutMs} ms\n${stderr}`));
        }, timeoutMs);
        const settle = (): void => {
          clearTimeout(timer);
          listeners.delete(listener);
        };
        listeners.add(listener);
        exited.then((code) => {
          if (!listeners.has(listener)) return;
          settle();
          reject(new Error(`${describe} exited (${code}) too early\n${stderr}`));
        });
      });
    },
    onLine(onLine) {
      listeners.add(onLine);
    },
    send(line) {
      child.stdin!.write(`${line}\n`);
    },
    async stop() {
      child.stdin!.end();
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** Parses `<word> <number> [<number>]` lines. */
export function numbersAfter(word: string): (line: string) => number[] | undefined {
  return (line) => {
    const parts = line.split(" ");
    return parts[0] === word ? parts.slice(1).map(Number) : undefined;
  };
}
