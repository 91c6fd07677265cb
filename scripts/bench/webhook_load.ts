/**
 * The load of scenario 1 (also used by scenario 7 for memory at its peak): deliveries with 10 %
 * repeated update_ids over many connections, after an unmeasured warm-up with other ids.
 *
 * @module
 */
import type { LoadResult } from "./load_spec.ts";
import { runLoad } from "./load_client.ts";
import type { ServerProcess } from "./processes.ts";
import type { BenchContext } from "./scenario.ts";
import { WEBHOOK_SECRET, WEBHOOK_SECRET_HEADER, webhookDeliveries } from "./webhook_plan.ts";

/** Where our messenger module answers under `fragment-cli serve`. */
export const OUR_WEBHOOK_PATH = "/api/messenger/messenger/webhook";
/** Where the bare reference handler answers. */
export const REFERENCE_WEBHOOK_PATH = "/webhook";

/** The sizes of scenario 1 (the figures) or of the smoke run. */
export function webhookLoadSize(context: BenchContext): {
  deliveries: number;
  warmup: number;
  connections: number;
} {
  return context.quick
    ? { deliveries: 40, warmup: 0, connections: 8 }
    : { deliveries: 20_000, warmup: 2_000, connections: 64 };
}

/** Sends the scenario-1 load to `server` and checks every delivery was answered 200. */
export async function runWebhookLoad(
  context: BenchContext,
  server: ServerProcess,
  path: string,
): Promise<LoadResult> {
  const size = webhookLoadSize(context);
  const result = await runLoad(context.runtimes, {
    origin: server.origin,
    mode: "throughput",
    connections: size.connections,
    headers: { [WEBHOOK_SECRET_HEADER]: WEBHOOK_SECRET },
    warmup: webhookDeliveries(path, size.warmup, { firstUpdateId: 1, seed: 7 }),
    requests: webhookDeliveries(path, size.deliveries),
  });
  const ok = result.statuses["200"] ?? 0;
  if (ok !== size.deliveries || result.errors > 0) {
    throw new Error(
      `webhook load on ${server.origin}${path}: ${ok}/${size.deliveries} answered 200, ` +
        `statuses ${JSON.stringify(result.statuses)}, ${result.errors} errors\n${server.output()}`,
    );
  }
  return result;
}
