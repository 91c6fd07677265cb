/**
 * Scenario 5: start-up of `fragment-cli --help` and `fragment-cli db info <app>` on Deno (the
 * sources, as `deno run -A jsr:…` runs them), Node and Bun (the npm build, as `npx`/`bunx` run
 * it), against the bare start of the same runtime. Median wall time of N runs after a warm run.
 *
 * The smoke run (`--quick`) does not build the npm package (40–60 s): Node 22 and Bun run the
 * sources (`cli.ts`; Node strips the types and resolves from the node_modules Deno creates), one
 * run without a warm run, and `db info` reads a fresh PostgreSQL database instead of creating a
 * PGlite directory per runtime.
 *
 * @module
 */
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type BenchDatabase, createBenchDatabase } from "./databases.ts";
import { benchTempDir, ROOT, timeCommand } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

/** The app `db info` inspects (the README's example). */
const INFO_APP = "examples/app.ts";

export const cliStartScenario: Scenario = {
  number: 5,
  title: "CLI start-up",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const runs = context.quick ? 1 : 10;
    // The smoke run times the sources on every runtime: building npm/ would take most of it.
    const nodeCli = context.quick
      ? join(ROOT, "cli.ts")
      : join(await npmBuild(context), "bin/fragment-cli.js");
    const { deno, node, bun } = context.runtimes;
    const sides = [
      {
        runtime: "Deno",
        bare: [deno, "eval", "0"],
        cli: [deno, "run", "-A", join(ROOT, "cli.ts")],
      },
      { runtime: "Node", bare: [node, "-e", "0"], cli: [node, nodeCli] },
      { runtime: "Bun", bare: [bun, "-e", "0"], cli: [bun, nodeCli] },
    ];
    // db info opens the app's embedded database: give it an empty working directory. The smoke
    // run points it at PostgreSQL instead (no PGlite cold start per runtime, no warm run).
    const cwd = benchTempDir("cli-start");
    const database: BenchDatabase | undefined = context.quick
      ? await createBenchDatabase("cli_start")
      : undefined;
    const env: Record<string, string> = { DATABASE_URL: database?.url ?? "" };
    const rows: BenchRow[] = [];
    try {
      for (const side of sides) {
        const time = (argv: string[], warm = !context.quick) =>
          timeCommand(argv[0], argv.slice(1), runs, { cwd, warm, env });
        const bare = await time(side.bare);
        const help = await time([...side.cli, "--help"]);
        if (!help.stdout.includes("Usage: fragment-cli")) {
          throw new Error(`${side.runtime} --help printed no usage:\n${help.stdout}`);
        }
        // After a warm run on PGlite: the first one creates the data directory.
        const info = await time(
          [...side.cli, "db", "info", join(ROOT, INFO_APP)],
          database ? false : true,
        );
        const bareName = `bare \`${side.bare.slice(1).join(" ")}\``;
        rows.push(
          benchRow({
            scenario: 5,
            name: `${side.runtime}: fragment-cli --help`,
            unit: "ms",
            ours: help.medianMs,
            reference: bare.medianMs,
            referenceName: bareName,
            target: { kind: "ratio-at-most", value: 1.5 },
            note: side.runtime !== "Deno"
              ? undefined
              : context.quick
              ? "smoke run: 1 run, no warm run; every runtime runs the sources (no npm build); " +
                "db info on PostgreSQL"
              : `median of ${runs} runs after a warm run; Deno runs the sources, Node and Bun the npm build`,
          }),
          benchRow({
            scenario: 5,
            name: `${side.runtime}: fragment-cli db info ${INFO_APP}`,
            unit: "ms",
            ours: info.medianMs,
            reference: bare.medianMs,
            referenceName: bareName,
            target: { kind: "report" },
          }),
        );
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      await database?.drop();
    }
    return rows;
  },
};

/**
 * Builds the npm package (`deno task build:npm`) and copies it under `.bench/`, so a concurrent
 * build of `npm/` by someone else cannot change it mid-run. Node resolves its dependencies from
 * the repository's node_modules.
 */
async function npmBuild(context: BenchContext): Promise<string> {
  const copy = join(ROOT, ".bench", "npm");
  context.log("building the npm package");
  await timeCommand(context.runtimes.deno, ["task", "build:npm"], 1, { warm: false });
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(ROOT, "npm"), copy, { recursive: true });
  return copy;
}
