/**
 * The scenarios of `deno task bench`, in the order.
 *
 * @module
 */
import { betterAuthSide } from "./better_auth_side.ts";
import { ourAuthSide } from "./our_auth_side.ts";
import type { Scenario } from "./scenario.ts";
import { cliStartScenario } from "./scenario_cli_start.ts";
import { clientSizeScenario } from "./scenario_client_size.ts";
import { hashingFloodScenario } from "./scenario_hashing_flood.ts";
import { hookAnchorsScenario } from "./scenario_hook_anchors.ts";
import { hookOrderScenario } from "./scenario_hook_order.ts";
import { hookWakeScenario } from "./scenario_hook_wake.ts";
import { meScenario } from "./scenario_me.ts";
import { membersPageScenario } from "./scenario_members_page.ts";
import { memoryScenario } from "./scenario_memory.ts";
import { organizationsScenario } from "./scenario_organizations.ts";
import { serveStartScenario } from "./scenario_serve_start.ts";
import { webhookScenario } from "./scenario_webhook.ts";

/** Every scenario, run in this order. */
export const SCENARIOS: readonly Scenario[] = [
  webhookScenario,
  organizationsScenario(ourAuthSide, betterAuthSide),
  meScenario,
  membersPageScenario,
  cliStartScenario,
  serveStartScenario,
  memoryScenario,
  hashingFloodScenario,
  hookWakeScenario,
  hookAnchorsScenario,
  hookOrderScenario,
  clientSizeScenario,
];
