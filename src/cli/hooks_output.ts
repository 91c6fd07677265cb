import type { HookOccurrence, OccurrenceWithErrors } from "../hooks/mod.ts";
import type { JsonValue } from "../schema/mod.ts";
import { bindingLabel } from "./database_report.ts";
import type { DatabaseBinding } from "./user_files/mod.ts";
import { textTable } from "./text_table.ts";

/** One occurrence in `hooks list --json` (and, with more fields, `hooks show --json`). */
export interface HookJson {
  namespace: string;
  id: string;
  name: string;
  key: string | null;
  /** The ordering key (`withHookOrdering`), or `null`. */
  orderKey: string | null;
  status: HookOccurrence["status"];
  attempts: number;
  /** When a pending occurrence runs next (due, or its retry); `null` otherwise. */
  nextRunAt: string | null;
  /** When the lease of a running attempt expires; `null` otherwise. */
  leaseExpiresAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** The JSON of an occurrence: dates as ISO strings. */
export function occurrenceJson(namespace: string, o: HookOccurrence): HookJson {
  return {
    namespace,
    id: o.id,
    name: o.name,
    key: o.key,
    orderKey: o.orderKey,
    status: o.status,
    attempts: o.attempts,
    nextRunAt: o.status === "pending" ? o.dueAt.toISOString() : null,
    leaseExpiresAt: o.status === "running" ? o.dueAt.toISOString() : null,
    lastError: o.lastError,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    finishedAt: o.finishedAt?.toISOString() ?? null,
  };
}

/** The table of `hooks list`. */
export function hooksTable(
  rows: readonly { namespace: string; occurrence: HookOccurrence }[],
): string {
  return textTable(
    ["Namespace", "ID", "Hook", "Key", "Status", "Attempts", "Next run", "Last error"],
    rows.map(({ namespace, occurrence: o }) => [
      namespace,
      o.id,
      o.name,
      o.key === null ? "-" : clip(o.key, 24),
      o.status,
      String(o.attempts),
      o.status === "failed" ? "-" : nextRun(o),
      o.lastError === null ? "-" : clip(firstLine(o.lastError), 60),
    ]),
  );
}

/** The text of `hooks show`. */
export function showText(
  file: string,
  binding: DatabaseBinding,
  o: OccurrenceWithErrors,
  details: JsonValue | null,
): string {
  const lines = [
    `Hook occurrence ${o.id} of ${bindingLabel(binding)} in ${file}`,
    "",
    `  Hook:      ${o.name}`,
    `  Key:       ${o.key ?? "-"}`,
    ...(o.orderKey === null ? [] : [`  Order key: ${o.orderKey}`]),
    `  Status:    ${o.status}`,
    `  Attempts:  ${o.attempts}`,
    `  Next run:  ${nextRun(o)}`,
    `  Created:   ${time(o.createdAt)}`,
    `  Updated:   ${time(o.updatedAt)}`,
    `  Finished:  ${o.finishedAt ? time(o.finishedAt) : "-"}`,
    "",
    "Payload:",
    indent(JSON.stringify(o.payload, null, 2), 2),
  ];
  if (details !== null) {
    lines.push("", "Details (from the module):", indent(JSON.stringify(details, null, 2), 2));
  }
  lines.push("");
  if (o.errors.length > 0) {
    lines.push(`Errors (${o.errors.length}, oldest first):`);
    for (const e of o.errors) {
      lines.push(`  attempt ${e.attempt} at ${time(e.at)}:`, indent(e.error, 4));
    }
  } else if (o.lastError !== null) {
    // A table without the error log (withHookErrorLog) keeps only the latest error.
    lines.push("Last error (earlier ones are not kept without withHookErrorLog):");
    lines.push(indent(o.lastError, 4));
  } else {
    lines.push("Errors: none");
  }
  return `${lines.join("\n")}\n`;
}

function nextRun(o: HookOccurrence): string {
  switch (o.status) {
    case "pending":
      return time(o.dueAt);
    case "running":
      return `running (lease until ${time(o.dueAt)})`;
    case "failed":
      return "- (out of attempts: retry runs it again)";
    case "blocked":
      return "after the earlier hooks of its order key";
    default:
      return "-";
  }
}

/** `2026-11-25 17:05:56Z`: seconds are enough for an operator. */
function time(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")}Z`;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0];
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text.split("\n").map((line) => `${pad}${line}`).join("\n");
}
