import { durableHooks, type HookDefinition } from "@app/fragment-cli/hooks";
import { pgliteAdapter } from "@app/fragment-cli/sql";

const sendInvoice: HookDefinition<{ invoiceId: string }> = {
  handler: ({ invoiceId }) => console.log("sending", invoiceId),
  maxAttempts: 3, // an invoice mail is not worth a day of retries
};
const hooks = durableHooks({ adapter: pgliteAdapter(), namespace: "billing", hooks: { sendInvoice } });
