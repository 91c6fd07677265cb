/**
 * The scenarios of `deno task bench`, in the order.
 *
 * @module
 */
import type { Scenario } from "./scenario.ts";
import { webhookScenario } from "./scenario_webhook.ts";
import { cliStartScenario } from "./scenario_cli_start.ts";
import { serveStartScenario } from "./scenario_serve_start.ts";
import { memoryScenario } from "./scenario_memory.ts";

/** Every scenario, run in this order. */
export const SCENARIOS: readonly Scenario[] = [
  webhookScenario,
  cliStartScenario,
  serveStartScenario,
  memoryScenario,
];
