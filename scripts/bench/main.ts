/**
 * `deno task bench`: runs every benchmark scenario of issue 9 (each side of a comparison in the
 * same run, on the same machine, runtime and database) and prints one table: scenario, ours,
 * reference, ratio, target, result.
 *
 * Usage: deno task bench [--quick] [--json <file>] [--only <n,n…>] [--help]
 *
 * - `--quick`: smoke mode (tiny counts, no warm-ups, the scenarios run side by side) that
 *   `deno task test` runs so the scripts cannot rot. Its figures mean nothing.
 * - `--json <file>`: also writes the rows as JSON.
 * - `--only 1,3`: runs only those scenarios.
 *
 * Exits 1 when a scenario could not be measured (a target that fails is a result, not an error).
 *
 * @module
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import process from "node:process";
import { parseArgs } from "node:util";
import { closeLoad } from "./load_client.ts";
import { findRuntimes } from "./processes.ts";
import { type BenchRow, renderNotes, renderTable } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";
import { SCENARIOS } from "./scenarios.ts";

const USAGE = `Usage: deno task bench [--quick] [--json <file>] [--only <n,n…>]

Runs the benchmark scenarios (each side of a comparison in the same run) and prints one table.

  --quick          smoke mode: tiny counts, figures mean nothing (deno task test runs it)
  --json <file>    also write the rows as JSON
  --only <n,n…>    run only these scenarios (${SCENARIOS.map((s) => s.number).join(", ")})
  -h, --help       show this help

Scenarios:
${SCENARIOS.map((s) => `  ${String(s.number).padStart(2)}  ${s.title}`).join("\n")}`;

/** Stops with a one-line message and the usage (a bad option is not a crash). */
function usageError(message: string): never {
  console.error(`bench: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: { quick?: boolean; json?: string; only?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: "boolean", default: false },
      json: { type: "string" },
      only: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const only = values.only?.split(",").map((n) => Number(n.trim()));
const unknown = only?.filter((n) => !SCENARIOS.some((s) => s.number === n)) ?? [];
if (unknown.length > 0 || only?.length === 0) {
  usageError(`--only: no scenario ${unknown.join(", ") || "given"}`);
}
const selected: Scenario[] = SCENARIOS.filter((s) => !only || only.includes(s.number));

const started = performance.now();
const context: BenchContext = {
  runtimes: await findRuntimes(),
  quick: values.quick ?? false,
  log: (message) => console.error(`[bench] ${message}`),
};

// The full run measures one scenario at a time (each alone on the machine). The smoke run's
// figures mean nothing, so it runs the scenarios side by side: most of its time is processes
// starting, which overlaps well.
const outcomes = values.quick
  ? await Promise.all(selected.map(runScenario))
  : await sequentially(selected, runScenario);
const rows: BenchRow[] = outcomes.flatMap((outcome) => outcome.rows);
const failures: string[] = outcomes.flatMap((outcome) => outcome.failure ?? []);
closeLoad();
const seconds = (performance.now() - started) / 1000;

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${
  Math.round(os.totalmem() / 2 ** 30)
} GiB, ${os.loadavg()[0].toFixed(2)} load at the end`;
console.log(renderTable(rows));
const notes = renderNotes(rows);
if (notes) console.log(`\n${notes}`);
console.log(
  `\n${values.quick ? "quick (smoke) run, figures not meaningful; " : ""}${
    seconds.toFixed(0)
  } s; ${machine}`,
);
for (const failure of failures) console.error(failure);

if (values.json) {
  writeFileSync(
    values.json,
    `${
      JSON.stringify(
        {
          date: new Date().toISOString(),
          quick: context.quick,
          machine,
          seconds,
          rows,
          failures,
        },
        null,
        2,
      )
    }\n`,
  );
}
process.exit(failures.length > 0 ? 1 : 0);

/** Runs one scenario; a failure is reported, not thrown, so the others still print. */
async function runScenario(scenario: Scenario): Promise<{ rows: BenchRow[]; failure?: string }> {
  context.log(`scenario ${scenario.number}: ${scenario.title}`);
  const scenarioStarted = performance.now();
  try {
    const rows = await scenario.run(context);
    context.log(
      `scenario ${scenario.number} took ${
        ((performance.now() - scenarioStarted) / 1000).toFixed(1)
      } s`,
    );
    return { rows };
  } catch (error) {
    const reason = error instanceof Error ? error.stack ?? error.message : String(error);
    const failure = `scenario ${scenario.number} (${scenario.title}) failed: ${reason}`;
    context.log(failure);
    return { rows: [], failure };
  }
}

async function sequentially<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await fn(item));
  return results;
}
