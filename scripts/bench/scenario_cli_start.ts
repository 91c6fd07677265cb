/**
 * Scenario 5: start-up of `fragment-cli --help` and `fragment-cli db info <app>` on Deno (the
 * sources, as `deno run -A jsr:…` runs them), Node and Bun (the npm build, as `npx`/`bunx` run
 * it), against the bare start of the same runtime. Median wall time of N runs after a warm run.
 *
 * @module
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { benchTempDir, ROOT, timeCommand } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

/** The app `db info` inspects (the README's example). */
const INFO_APP = "examples/app.ts";

export const cliStartScenario: Scenario = {
  number: 5,
  title: "CLI start-up",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const runs = context.quick ? 2 : 10;
    const npmCli = join(await npmBuild(context), "bin/fragment-cli.js");
    const { deno, node, bun } = context.runtimes;
    const sides = [
      {
        runtime: "Deno",
        bare: [deno, "eval", "0"],
        cli: [deno, "run", "-A", join(ROOT, "cli.ts")],
      },
      { runtime: "Node", bare: [node, "-e", "0"], cli: [node, npmCli] },
      { runtime: "Bun", bare: [bun, "-e", "0"], cli: [bun, npmCli] },
    ];
    // db info opens the app's embedded database: give it an empty working directory.
    const cwd = benchTempDir("cli-start");
    const rows: BenchRow[] = [];
    try {
      for (const side of sides) {
        const time = (argv: string[], warm = !context.quick) =>
          timeCommand(argv[0], argv.slice(1), runs, { cwd, warm });
        const bare = await time(side.bare);
        const help = await time([...side.cli, "--help"]);
        if (!help.stdout.includes("Usage: fragment-cli")) {
          throw new Error(`${side.runtime} --help printed no usage:\n${help.stdout}`);
        }
        // Always after a warm run: the first one creates the PGlite data directory.
        const info = await time([...side.cli, "db", "info", join(ROOT, INFO_APP)], true);
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
            note: side.runtime === "Deno"
              ? `median of ${runs} runs after a warm run; Deno runs the sources, Node and Bun the npm build`
              : undefined,
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
    }
    return rows;
  },
};

/**
 * Builds the npm package (`deno task build:npm`) and copies it under `.bench/`, so a concurrent
 * build of `npm/` by someone else cannot change it mid-run. Node resolves its dependencies from
 * the repository's node_modules. The smoke run reuses an existing build.
 */
async function npmBuild(context: BenchContext): Promise<string> {
  const copy = join(ROOT, ".bench", "npm");
  if (!(context.quick && existsSync(join(ROOT, "npm/bin/fragment-cli.js")))) {
    context.log("building the npm package");
    await timeCommand(context.runtimes.deno, ["task", "build:npm"], 1, { warm: false });
  }
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(ROOT, "npm"), copy, { recursive: true });
  return copy;
}
