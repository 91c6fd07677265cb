import type { HookDefinition, ScheduledHookPayload } from "@app/fragment-cli/hooks";

const nightly: HookDefinition<ScheduledHookPayload> = {
  schedule: "0 3 * * *",
  handler: ({ scheduledFor }) => console.log(`the run of ${scheduledFor}`),
};
