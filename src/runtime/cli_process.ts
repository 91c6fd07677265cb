/**
 * The process `fragment-cli` runs in (arguments, environment, standard output and error, exit),
 * through each runtime's cheapest interface. The only file of the CLI that knows the runtimes.
 *
 * Why not `node:process` everywhere: printing `--help` must cost little more than the runtime's
 * bare start, and on Deno importing `node:process` loads about a hundred Node-compatibility
 * modules (~20 ms, as much as the bare start), while on Bun the first use of `process.stdout`
 * builds its stream (~15 ms, twice Bun's bare start). Node's own `process` is already loaded.
 *
 * @module
 */

/** What the CLI needs from its process. */
export interface CliProcess {
  /** The arguments after the program (and script) name. */
  args: string[];
  /** An environment variable, or `undefined` when unset. */
  env(name: string): string | undefined;
  /** Whether standard output is a terminal (asked only when a command colours its output). */
  stdoutIsTerminal(): boolean;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Waits until everything written has reached the file descriptors, then exits. */
  exit(code: number): Promise<never>;
}

/** The {@link CliProcess} of the runtime running this code. */
export function cliProcess(): CliProcess {
  if ("Deno" in globalThis) return denoProcess();
  if ("Bun" in globalThis) return bunProcess();
  return nodeProcess();
}

function denoProcess(): CliProcess {
  const encoder = new TextEncoder();
  // writeSync may write part of the buffer (a full pipe); loop until all of it is out.
  const writeAll = (file: { writeSync(data: Uint8Array): number }, text: string): void => {
    let data = encoder.encode(text);
    while (data.length > 0) data = data.subarray(file.writeSync(data));
  };
  return {
    args: Deno.args,
    env: (name) => Deno.env.get(name),
    stdoutIsTerminal: () => Deno.stdout.isTerminal(),
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    exit: (code) => Deno.exit(code),
  };
}

interface BunGlobal {
  stdout: unknown;
  write(destination: unknown, data: string): Promise<number>;
}

/** The part of Node's and Bun's `process` the CLI uses. */
interface NodeLikeProcess {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: { isTTY?: boolean; write(text: string, done?: (error?: unknown) => void): boolean };
  stderr: { write(text: string): boolean };
  exit(code: number): never;
}

/**
 * The global `process`, not `import("node:process")`: Node builds the ES module namespace of a
 * built-in by reading each of its properties, and the getters of `process` (stdin, report…) load
 * about fifteen more internal modules (~5 ms).
 */
function globalProcess(): NodeLikeProcess {
  return (globalThis as unknown as { process: NodeLikeProcess }).process;
}

function bunProcess(): CliProcess {
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  const process = globalProcess();
  // Bun.write is asynchronous: chain the writes so they keep their order, and wait for the
  // chain before exiting. Standard error keeps `process.stderr`, whose writes are ordered with
  // `console.error` (used by the serve code); nothing on the `--help` path writes there.
  let written: Promise<unknown> = Promise.resolve();
  return {
    args: process.argv.slice(2),
    env: (name) => process.env[name],
    stdoutIsTerminal: () => process.stdout.isTTY === true,
    stdout: (text) => {
      // A failed write (a closed pipe) loses that output, as with a stream; later ones still run.
      written = written.then(() => bun.write(bun.stdout, text)).catch(() => undefined);
    },
    stderr: (text) => void process.stderr.write(text),
    exit: async (code) => {
      await written;
      return process.exit(code);
    },
  };
}

function nodeProcess(): CliProcess {
  const process = globalProcess();
  // Writes to a pipe are asynchronous on Node: exiting right away cut a large output (the
  // `openapi` document) short. Exit waits until every write was handed to the descriptor.
  let written: Promise<unknown> = Promise.resolve();
  return {
    args: process.argv.slice(2),
    env: (name) => process.env[name],
    stdoutIsTerminal: () => process.stdout.isTTY === true,
    stdout: (text) => {
      // A failed write (a closed pipe) calls back too: exiting never waits forever.
      const flushed = new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
      written = written.then(() => flushed);
    },
    stderr: (text) => void process.stderr.write(text),
    exit: async (code) => {
      await written;
      return process.exit(code);
    },
  };
}
