/**
 * Scenario 5: start-up of `fragment-cli --help` and `fragment-cli db info <app>` on Deno (the
 * sources, as `deno run -A jsr:…` runs them), Node and Bun (the npm build, as `npx`/`bunx` run
 * it), against the bare start of the same runtime. Median wall time of N runs after a warm run;
 * the bare start and `--help` alternate run by run, so both sides see the same load on a shared
 * machine (in blocks of ten, one side could get a quiet second and the other a busy one: ratios of
 * 1.28 and 1.67 in two runs a minute apart of the same build).
 *
 * `db info` on PostgreSQL is also compared on Deno with a bare script that imports postgres.js and
 * runs the same catalog queries (`bare_db_info.ts`), alternated run by run, on a database
 * `db migrate` brought to the example's latest versions.
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
import { benchTempDir, median, ROOT, timeCommand } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

/** The app `db info` inspects (the README's example). */
const INFO_APP = "examples/app.ts";

export const cliStartScenario: Scenario = {
  number: 5,
  title: "CLI start-up",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const runs = context.quick ? 1 : 10;
    // --help is cheap: twice as many alternated runs for the compared pair.
    const helpRuns = context.quick ? 1 : 20;
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
    const postgresInfo = await createBenchDatabase("cli_start_info");
    try {
      rows.push(await dbInfoOnPostgres(context, postgresInfo.url, cwd));
      for (const side of sides) {
        const time = (argv: string[], warm = !context.quick) =>
          timeCommand(argv[0], argv.slice(1), runs, { cwd, warm, env });
        const [bare, help] = await timeAlternating(
          side.bare,
          [...side.cli, "--help"],
          helpRuns,
          { cwd, warm: !context.quick, env },
        );
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
              : `median of ${helpRuns} runs alternated with the bare start, after a warm ` +
                `run of each; db info: median of ${runs} runs after a warm run; Deno runs the ` +
                `sources, Node and Bun the npm build`,
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
      await postgresInfo.drop();
    }
    return rows;
  },
};

/**
 * `fragment-cli db info` of the example on a migrated PostgreSQL database against the bare script
 * reading the same (`bare_db_info.ts`), on Deno, alternated run by run.
 */
async function dbInfoOnPostgres(
  context: BenchContext,
  url: string,
  cwd: string,
): Promise<BenchRow> {
  const { deno } = context.runtimes;
  const env = { DATABASE_URL: url };
  const app = join(ROOT, INFO_APP);
  await timeCommand(deno, ["run", "-A", join(ROOT, "cli.ts"), "db", "migrate", app], 1, {
    cwd,
    env,
    warm: false,
  });
  const runs = context.quick ? 1 : 15;
  const [bare, info] = await timeAlternating(
    [deno, "run", "-A", join(ROOT, "scripts/bench/bare_db_info.ts"), "auth", "messenger"],
    [deno, "run", "-A", join(ROOT, "cli.ts"), "db", "info", app],
    runs,
    { cwd, warm: !context.quick, env },
  );
  if (!info.stdout.includes("up to date") || !bare.stdout.includes("messenger: version")) {
    throw new Error(
      `db info or the bare script printed no versions:\n${info.stdout}${bare.stdout}`,
    );
  }
  return benchRow({
    scenario: 5,
    name: `Deno: fragment-cli db info ${INFO_APP}, PostgreSQL`,
    unit: "ms",
    ours: info.medianMs,
    reference: bare.medianMs,
    referenceName: "bare postgres.js script, same queries",
    target: { kind: "ratio-at-most", value: 3 },
    note: `median of ${runs} runs alternated with the bare script` +
      (context.quick ? "" : ", after a warm run of each") +
      "; the database migrated to the example's latest versions first",
  });
}

/**
 * Times two commands alternately (a, b, a, b…) after a warm run of each, so a change of load on
 * the machine falls on both; resolves to each one's median wall time and last stdout.
 */
async function timeAlternating(
  a: string[],
  b: string[],
  runs: number,
  options: { cwd: string; warm: boolean; env: Record<string, string> },
): Promise<[{ medianMs: number; stdout: string }, { medianMs: number; stdout: string }]> {
  // One measured run each (warm: false means no extra unmeasured run).
  const once = (argv: string[]) =>
    timeCommand(argv[0], argv.slice(1), 1, { ...options, warm: false });
  if (options.warm) {
    await once(a);
    await once(b);
  }
  const times: [number[], number[]] = [[], []];
  let stdout: [string, string] = ["", ""];
  for (let i = 0; i < runs; i++) {
    const first = await once(a);
    const second = await once(b);
    times[0].push(first.medianMs);
    times[1].push(second.medianMs);
    stdout = [first.stdout, second.stdout];
  }
  return [
    { medianMs: median(times[0]), stdout: stdout[0] },
    { medianMs: median(times[1]), stdout: stdout[1] },
  ];
}

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
