import type { HookHandler } from "@app/fragment-cli/hooks";

const sendWelcome: HookHandler<{ userId: string }> = async ({ userId }, { attempt }) => {
  if (attempt > 1) console.log(`retrying the welcome mail of ${userId}`);
};
