/**
 * Scenario 6: `fragment-cli serve examples/app.ts` on PGlite, time from spawn to the first 200
 * answer, on a fresh data directory (PGlite initialises it and the schemas are migrated) and on
 * the existing one (second start). The existing directory's start is compared with a bare server
 * on the same directory, run right after it (`bare_pglite_server.ts`: PGlite opened, one
 * `INSERT` per request): the floor that PGlite's own open sets on the same machine and load.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { benchTempDir, median, ROOT } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";
import { OUR_WEBHOOK_PATH } from "./webhook_load.ts";
import { WEBHOOK_SECRET, WEBHOOK_SECRET_HEADER } from "./webhook_plan.ts";

/** The app the README starts with. */
export const EXAMPLE_APP = "examples/app.ts";
/**
 * The probe: a webhook delivery to the example app's messenger module (its secret from
 * `WEBHOOK_SECRET`), a 200 that needs the database opened and migrated.
 */
export const FIRST_OK_PATH = OUR_WEBHOOK_PATH;

export const serveStartScenario: Scenario = {
  number: 6,
  title: "serve start-up on PGlite",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const runs = context.quick ? 1 : 5;
    const fresh: number[] = [];
    const existing: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const cwd = benchTempDir("serve-start");
      try {
        fresh.push(await timeToFirstOk(context, cwd, serveArgs));
        existing.push(await timeToFirstOk(context, cwd, serveArgs));
        bare.push(await timeToFirstOk(context, cwd, bareServerArgs));
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    }
    const note = `median of ${runs} start(s); from spawn to the first 200 of a webhook delivery; ` +
      "the bare server started right after each start on the existing directory";
    return [
      benchRow({
        scenario: 6,
        name: "serve examples/app.ts, fresh PGlite directory",
        unit: "ms",
        ours: median(fresh),
        reference: null,
        referenceName: "",
        target: { kind: "at-most", value: 3000 },
        note,
      }),
      benchRow({
        scenario: 6,
        name: "serve examples/app.ts, existing PGlite directory",
        unit: "ms",
        ours: median(existing),
        reference: median(bare),
        referenceName: "bare PGlite + Deno.serve, same directory",
        // Issue 34: within 1.2 × bare PGlite started on the same directory in the same run.
        target: { kind: "ratio-at-most", value: 1.2 },
      }),
    ];
  },
};

/** `deno run` arguments of `serve` on `port`. */
function serveArgs(port: number): string[] {
  return [
    "run",
    "-A",
    join(ROOT, "cli.ts"),
    "serve",
    join(ROOT, EXAMPLE_APP),
    "--port",
    String(port),
    "--host",
    "127.0.0.1",
  ];
}

/** `deno run` arguments of the bare reference server on `port`. */
function bareServerArgs(port: number): string[] {
  return ["run", "-A", join(ROOT, "scripts/bench/bare_pglite_server.ts"), String(port)];
}

/**
 * Spawns a server (`args` of `deno` for a port) in `cwd`, polls until a 200, stops it; returns
 * the milliseconds to that 200.
 */
async function timeToFirstOk(
  context: BenchContext,
  cwd: string,
  args: (port: number) => string[],
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    context.runtimes.deno,
    args(port),
    {
      cwd,
      env: { ...process.env, DATABASE_URL: "", WEBHOOK_SECRET, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (output += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (output += c));
  const exited = new Promise<void>((done) => child.once("close", () => done()));
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`serve exited early:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}${FIRST_OK_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/json", [WEBHOOK_SECRET_HEADER]: WEBHOOK_SECRET },
          body: JSON.stringify({ update_id: 1, message: { message_id: 1, text: "ready?" } }),
        });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`serve gave no 200 on ${FIRST_OK_PATH} within 60 s:\n${output}`);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
