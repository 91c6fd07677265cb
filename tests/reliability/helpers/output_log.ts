/**
 * Everything the processes of one reliability test file print (servers, migrators, and the test
 * process's own console while a module runs in-process), with every secret the file handed out:
 * passwords, session tokens, invitation tokens, webhook secrets, database passwords. The file's
 * last test searches the output for each of them.
 *
 * @example
 * ```ts ignore
 * import { OutputLog } from "./output_log.ts";
 *
 * const log = new OutputLog();
 * const secret = log.secret(crypto.randomUUID());
 * log.attach("serve A", child);
 * // … run the scenario …
 * assert.deepEqual(log.leaks(), []);
 * ```
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";

/** One secret found in the output. */
export interface Leak {
  /** What the secret was (`"password"`, `"session token"`, …). */
  kind: string;
  /** Which output it appeared in. */
  source: string;
  /** The text around it, the secret itself masked. */
  context: string;
}

/** Secrets shorter than this are not searched for: they would match by chance. */
const MIN_SECRET_LENGTH = 8;

/** The output of a test file's processes and the secrets it used. */
export class OutputLog {
  readonly #chunks: Array<{ source: string; text: string }> = [];
  readonly #secrets = new Map<string, string>();

  /** Registers a secret to search for; returns it, so it can be registered where it is made. */
  secret<T extends string>(value: T, kind = "secret"): T {
    if (value.length >= MIN_SECRET_LENGTH && !this.#secrets.has(value)) {
      this.#secrets.set(value, kind);
    }
    return value;
  }

  /** How many distinct secrets are registered. */
  get secretCount(): number {
    return this.#secrets.size;
  }

  /** Records a chunk of output. */
  write(source: string, text: string): void {
    this.#chunks.push({ source, text });
  }

  /** Records everything `child` prints on stdout and stderr, under `label`. */
  attach(label: string, child: ChildProcess): void {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => this.write(label, chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => this.write(label, chunk));
  }

  /**
   * Runs `fn` with `console.log/info/warn/error/debug` of this process recorded under `label`
   * (and not printed), for modules called in-process.
   */
  async captureConsole<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const saved = methods.map((m) => console[m]);
    for (const m of methods) {
      console[m] = (...args: unknown[]) => this.write(label, args.map(show).join(" ") + "\n");
    }
    try {
      return await fn();
    } finally {
      methods.forEach((m, i) => (console[m] = saved[i]));
    }
  }

  /** All output of one source (or of all sources), in order. */
  text(source?: string): string {
    return this.#chunks.filter((c) => source === undefined || c.source === source)
      .map((c) => c.text).join("");
  }

  /** Total characters recorded. */
  get size(): number {
    return this.#chunks.reduce((n, c) => n + c.text.length, 0);
  }

  /** Every place a registered secret appears in the output (also in `extra` texts). */
  leaks(extra: ReadonlyArray<{ source: string; text: string }> = []): Leak[] {
    const bySource = new Map<string, string>();
    for (const { source, text } of [...this.#chunks, ...extra]) {
      bySource.set(source, (bySource.get(source) ?? "") + text);
    }
    const found: Leak[] = [];
    for (const [source, text] of bySource) {
      for (const [secret, kind] of this.#secrets) {
        const at = text.indexOf(secret);
        if (at < 0) continue;
        const context = text.slice(Math.max(0, at - 80), at + secret.length + 80)
          .replaceAll(secret, `<${kind}>`);
        found.push({ kind, source, context });
      }
    }
    return found;
  }
}

/** Renders a console argument the way the console would, errors with stack and cause. */
function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) {
    let text = value.stack ?? `${value.name}: ${value.message}`;
    let cause = value.cause;
    for (let depth = 0; cause !== undefined && depth < 5; depth++) {
      text += `\n[cause] ${cause instanceof Error ? cause.stack ?? cause.message : show(cause)}`;
      cause = cause instanceof Error ? cause.cause : undefined;
    }
    return text + "\n" + safeJson({ ...value });
  }
  return safeJson(value);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => typeof v === "bigint" ? v.toString() : v) ??
      String(value);
  } catch {
    return String(value);
  }
}
