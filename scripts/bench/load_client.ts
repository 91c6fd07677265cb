/**
 * Drives the load generator process (`load_generator.ts`, autocannon on Node): one process for
 * the whole benchmark run, started by the first {@link runLoad}, ended by {@link closeLoad}.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import type { LoadResult, LoadSpec } from "./load_spec.ts";
import { ROOT, type Runtimes } from "./processes.ts";

interface Pending {
  resolve(result: LoadResult): void;
  reject(error: Error): void;
}

interface Generator {
  child: ChildProcess;
  pending: Map<number, Pending>;
}

let generator: Generator | undefined;
let nextId = 0;

/** Runs one load spec in the shared load generator process and returns its figures. */
export function runLoad(runtimes: Runtimes, spec: LoadSpec): Promise<LoadResult> {
  const { child, pending } = generator ??= startGenerator(runtimes.node);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.stdin!.write(`${JSON.stringify({ id, spec })}\n`);
  });
}

/** Ends the load generator process (it exits once its stdin closes); a no-op if none ran. */
export function closeLoad(): void {
  generator?.child.stdin?.end();
  generator = undefined;
}

function startGenerator(node: string): Generator {
  const child = spawn(node, [join(ROOT, "scripts/bench/load_generator.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  });
  const pending = new Map<number, Pending>();
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as { id: number; result?: LoadResult; error?: string };
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    if (message.result) job.resolve(message.result);
    else job.reject(new Error(`load generator: ${message.error}`));
  });
  child.once("close", (code) => {
    for (const job of pending.values()) {
      job.reject(new Error(`load generator exited with ${code}:\n${stderr}`));
    }
    pending.clear();
    if (generator?.child === child) generator = undefined;
  });
  return { child, pending };
}
