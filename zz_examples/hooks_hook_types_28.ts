import type { HookContext } from "@app/fragment-cli/hooks";

async function sendWelcome(payload: unknown, context: HookContext): Promise<void> {
  // The id is stable across attempts: the mail provider drops a second send with it.
  const idempotencyKey = `welcome-${context.id}`;
  console.log(idempotencyKey, `attempt ${context.attempt} of ${context.maxAttempts}`, payload);
}
