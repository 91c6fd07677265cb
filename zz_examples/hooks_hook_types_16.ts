import type { HookStatus } from "@app/fragment-cli/hooks";

const needsAttention = (status: HookStatus) => status === "failed" || status === "blocked";
