/**
 * Scenario 1: webhook ingest through `fragment-cli serve` (the messenger module on PostgreSQL)
 * against a bare Hono + postgres.js handler, each on a fresh database, alternating sides over
 * the rounds and keeping each side's best round.
 *
 * @module
 */
import { withBenchDatabase } from "./databases.ts";
import type { LoadResult } from "./load_spec.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";
import { startOurServe, startReference, withServer } from "./servers.ts";
import {
  OUR_WEBHOOK_PATH,
  REFERENCE_WEBHOOK_PATH,
  runWebhookLoad,
  webhookLoadSize,
} from "./webhook_load.ts";

/** The bench app: the messenger module on `DATABASE_URL`. */
export const WEBHOOK_APP = "scripts/bench/webhook_app.ts";

export const webhookScenario: Scenario = {
  number: 1,
  title: "webhook ingest",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const rounds = context.quick ? 1 : 2;
    const ours: LoadResult[] = [];
    const reference: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      reference.push(await measureReference(context));
      ours.push(await measureOurs(context));
    }
    const best = (results: LoadResult[]): LoadResult =>
      results.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const o = best(ours);
    const r = best(reference);
    const size = webhookLoadSize(context);
    const setting =
      `${size.deliveries} deliveries, 10 % repeated update_ids, ${size.connections} ` +
      `connections, best of ${rounds} round(s) per side`;
    return [
      benchRow({
        scenario: 1,
        name: "webhook ingest throughput",
        unit: "req/s",
        ours: o.requestsPerSecond,
        reference: r.requestsPerSecond,
        referenceName: "bare Hono + postgres.js",
        // Issue 34 point 1: at least the bare handler's throughput, at most its p99.
        target: { kind: "ratio-at-least", value: 1 },
        note: setting,
      }),
      benchRow({
        scenario: 1,
        name: "webhook ingest p99 latency",
        unit: "ms",
        ours: o.p99,
        reference: r.p99,
        referenceName: "bare Hono + postgres.js",
        target: { kind: "ratio-at-most", value: 1 },
      }),
    ];
  },
};

function measureReference(context: BenchContext): Promise<LoadResult> {
  return withBenchDatabase("webhook_ref", (database) =>
    withServer(
      startReference(context, "reference_webhook_server.ts", database.url),
      (server) => runWebhookLoad(context, server, REFERENCE_WEBHOOK_PATH),
    ));
}

function measureOurs(context: BenchContext): Promise<LoadResult> {
  return withBenchDatabase("webhook_ours", (database) =>
    withServer(
      startOurServe(context, [WEBHOOK_APP], { databaseUrl: database.url }),
      (server) => runWebhookLoad(context, server, OUR_WEBHOOK_PATH),
    ));
}
