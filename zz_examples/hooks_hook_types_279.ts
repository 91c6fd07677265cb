import { durableHooks, type HookRetention } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const retention: HookRetention = { done: "7d" }; // keep a week of history
const hooks = durableHooks({
  adapter: pgliteAdapter(),
  namespace: "mailer",
  hooks: { send: () => {} },
  retention,
});
