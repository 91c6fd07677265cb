/**
 * Bench app for scenarios 1 and 7: the messenger module on `DATABASE_URL` (PGlite in the working
 * directory without it) with a no-op message handler, so every new update is stored and its
 * durable hook enqueued and run, as in an application.
 *
 * Usage: DATABASE_URL=… fragment-cli serve scripts/bench/webhook_app.ts --migrate
 *
 * @module
 */
import { databaseFromEnv } from "../../mod.ts";
import { messenger, type MessengerModule } from "../../src/messenger/mod.ts";
import { WEBHOOK_SECRET } from "./webhook_plan.ts";

/** The module under test. */
export const messengerModule: MessengerModule = messenger({
  database: databaseFromEnv(),
  webhookSecret: WEBHOOK_SECRET,
  onMessage: () => {},
});
