import { durableHooks, type DurableHooksOptions } from "@app/fragment-cli/hooks";
import { databaseFromEnv } from "@app/fragment-cli/sql";

const options: DurableHooksOptions = {
  adapter: databaseFromEnv(),
  namespace: "mailer",
  hooks: { send: (payload) => console.log("send", payload) },
  maxAttempts: 5,
  concurrency: 8,
  onError: (error, occurrence) => console.error(occurrence?.name ?? "worker", error),
};
const hooks = durableHooks(options);
