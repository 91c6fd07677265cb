/**
 * Scenario 7: resident memory of `fragment-cli serve` with the messenger bench app, idle (after
 * start and a settle pause) and at the peak of the scenario-1 load (VmHWM), on PGlite and on the
 * PostgreSQL server.
 *
 * @module
 */
import { rmSync } from "node:fs";
import { withBenchDatabase } from "./databases.ts";
import { benchTempDir, type ServerProcess } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";
import { WEBHOOK_APP } from "./scenario_webhook.ts";
import { startOurServe, withServer } from "./servers.ts";
import { OUR_WEBHOOK_PATH, runWebhookLoad } from "./webhook_load.ts";

/** How long the server sits idle before its idle figure is read (shorter in the smoke run). */
const SETTLE_MS = 2000;
const QUICK_SETTLE_MS = 300;

interface Memory {
  idle: number;
  peak: number;
  /** Throughput of the load, so the reader sees what the peak was reached under. */
  requestsPerSecond: number;
}

export const memoryScenario: Scenario = {
  number: 7,
  title: "serve resident memory",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const onPostgres = () =>
      withBenchDatabase("memory", (database) =>
        withServer(
          startOurServe(context, [WEBHOOK_APP], { databaseUrl: database.url }),
          (server) => measure(context, server),
        ));
    const onPglite = async () => {
      const dir = benchTempDir("memory-pglite");
      try {
        return await withServer(
          startOurServe(context, [WEBHOOK_APP], { cwd: dir }),
          (server) => measure(context, server),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // The smoke run's figures mean nothing: both servers run at once to keep it short.
    const [postgres, pglite]: Memory[] = context.quick
      ? await Promise.all([onPostgres(), onPglite()])
      : [await onPostgres(), await onPglite()];
    const row = (name: string, value: number, target: BenchRow["target"], note?: string) =>
      benchRow({
        scenario: 7,
        name,
        unit: "MiB",
        ours: value,
        reference: null,
        referenceName: "",
        target,
        note,
      });
    return [
      row(
        "serve RSS idle, PostgreSQL",
        postgres.idle,
        { kind: "at-most", value: 80 },
        `VmRSS ${SETTLE_MS / 1000} s after start; peak = VmHWM after the scenario-1 load`,
      ),
      row(
        "serve RSS peak of scenario 1, PostgreSQL",
        postgres.peak,
        { kind: "report" },
        `load served at ${postgres.requestsPerSecond.toFixed(0)} req/s`,
      ),
      // Issue 34: idle ≤ 200 MiB, peak under scenario 1's load ≤ 300 MiB.
      row("serve RSS idle, PGlite", pglite.idle, { kind: "at-most", value: 200 }),
      row(
        "serve RSS peak of scenario 1, PGlite",
        pglite.peak,
        { kind: "at-most", value: 300 },
        `load served at ${pglite.requestsPerSecond.toFixed(0)} req/s`,
      ),
    ];
  },
};

async function measure(context: BenchContext, server: ServerProcess): Promise<Memory> {
  await new Promise((r) => setTimeout(r, context.quick ? QUICK_SETTLE_MS : SETTLE_MS));
  const idle = server.rssMib();
  const load = await runWebhookLoad(context, server, OUR_WEBHOOK_PATH);
  return { idle, peak: server.peakRssMib(), requestsPerSecond: load.requestsPerSecond };
}
