/**
 * The arguments of `fragment-cli hooks`, checked before any user code runs: the file, the
 * subcommand, its ids and options. Every problem is a {@link UsageError} (exit 2).
 *
 * @module
 */

import type { HookStatus } from "../hooks/mod.ts";
import { parseHookDuration } from "../hooks/hook_duration.ts";
import { type CommandArgs, UsageError } from "./command.ts";

/** The subcommands of `hooks`. */
export const HOOK_SUBCOMMANDS = ["list", "show", "retry", "cancel", "purge"] as const;
/** One subcommand of `hooks`. */
export type HookSubcommand = typeof HOOK_SUBCOMMANDS[number];

/** The statuses `--status` takes. */
export const HOOK_STATUSES: readonly HookStatus[] = [
  "pending",
  "running",
  "failed",
  "done",
  "cancelled",
  "blocked",
];

/** The default and the largest `--limit` of `hooks list`. */
export const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 1000;

/** Which options each subcommand takes (besides `--json`, `--namespace` and the global ones). */
const OWN_OPTIONS: Record<HookSubcommand, readonly string[]> = {
  list: ["status", "limit"],
  show: [],
  retry: ["failed"],
  cancel: [],
  purge: ["done", "older-than"],
};

/** A checked `hooks` invocation. */
export interface HooksRequest {
  /** The file as the user wrote it. */
  file: string;
  subcommand: HookSubcommand;
  /** Occurrence ids (`show`, `retry`, `cancel`), as typed. */
  ids: string[];
  status?: HookStatus;
  namespace?: string;
  limit: number;
  /** `retry --failed`. */
  allFailed: boolean;
  /** `purge --older-than`, in milliseconds. */
  olderThanMs: number;
  /** `--older-than` as typed, for messages. */
  olderThan: string;
  json: boolean;
}

/**
 * Reads `hooks <file> <subcommand> [ids…]` (or `hooks <subcommand> <file> …`, the order of
 * `db info <file>`) and its options.
 */
export function parseHooksArgs(args: CommandArgs): HooksRequest {
  const [first, second, ...rest] = args.positionals;
  const isSub = (word: string | undefined): word is HookSubcommand =>
    (HOOK_SUBCOMMANDS as readonly string[]).includes(word ?? "");
  let file: string | undefined;
  let subcommand: HookSubcommand;
  if (isSub(first) && second !== undefined && !isSub(second)) {
    [subcommand, file] = [first, second];
  } else if (isSub(second)) {
    [file, subcommand] = [first, second];
  } else if (first === undefined) {
    throw new UsageError("missing <file>");
  } else if (second === undefined) {
    throw new UsageError(
      isSub(first)
        ? "missing <file>"
        : `a subcommand is missing; use one of: ${HOOK_SUBCOMMANDS.join(", ")}`,
    );
  } else {
    throw new UsageError(
      `unknown subcommand "${second}"; use one of: ${HOOK_SUBCOMMANDS.join(", ")}`,
    );
  }
  const values = args.values;
  for (const [option, owners] of Object.entries(optionOwners())) {
    if (values[option] !== undefined && !owners.includes(subcommand)) {
      throw new UsageError(`--${option} is an option of hooks ${owners.join(", ")}`);
    }
  }
  const ids = rest;
  for (const id of ids) {
    if (!/^[0-9]{1,19}$/.test(id)) {
      throw new UsageError(`"${id}" is not a hook occurrence id (a number, as "hooks list" shows)`);
    }
  }
  const request: HooksRequest = {
    file,
    subcommand,
    ids,
    namespace: stringValue(values.namespace, "--namespace"),
    limit: DEFAULT_LIST_LIMIT,
    allFailed: values.failed === true,
    olderThanMs: 0,
    olderThan: "",
    json: values.json === true,
  };
  switch (subcommand) {
    case "list": {
      noIds(ids, subcommand);
      const status = stringValue(values.status, "--status");
      if (status !== undefined && !(HOOK_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(
          `unknown status "${status}"; use one of: ${HOOK_STATUSES.join(", ")}`,
        );
      }
      request.status = status as HookStatus | undefined;
      const limit = stringValue(values.limit, "--limit");
      if (limit !== undefined) {
        if (!/^[0-9]{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIST_LIMIT) {
          throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`);
        }
        request.limit = Number(limit);
      }
      break;
    }
    case "show":
      if (ids.length !== 1) {
        throw new UsageError(
          ids.length === 0 ? "missing <id>" : `expected one <id>, got ${ids.length}`,
        );
      }
      break;
    case "retry":
      if (request.allFailed && ids.length > 0) {
        throw new UsageError("give ids or --failed, not both");
      }
      if (!request.allFailed && ids.length === 0) {
        throw new UsageError("missing <id…> (or --failed, for every failed hook)");
      }
      break;
    case "cancel":
      if (ids.length === 0) throw new UsageError("missing <id…>");
      break;
    case "purge": {
      noIds(ids, subcommand);
      if (values.done !== true) {
        throw new UsageError("purge needs --done (only done hooks are purged)");
      }
      const olderThan = stringValue(values["older-than"], "--older-than");
      if (olderThan === undefined) {
        throw new UsageError("purge needs --older-than <duration>, e.g. --older-than 30d");
      }
      const ms = parseHookDuration(olderThan);
      if (ms === null) {
        throw new UsageError(
          `--older-than must be a duration such as 30d, 12h, 15m or 0s, got "${olderThan}"`,
        );
      }
      request.olderThanMs = ms;
      request.olderThan = olderThan;
      break;
    }
  }
  return request;
}

/** The subcommands of each subcommand-specific option. */
function optionOwners(): Record<string, HookSubcommand[]> {
  const owners: Record<string, HookSubcommand[]> = {};
  for (const [subcommand, options] of Object.entries(OWN_OPTIONS)) {
    for (const option of options) (owners[option] ??= []).push(subcommand as HookSubcommand);
  }
  return owners;
}

function noIds(ids: readonly string[], subcommand: HookSubcommand): void {
  if (ids.length > 0) {
    throw new UsageError(`hooks ${subcommand} takes no ids, got: ${ids.join(" ")}`);
  }
}

function stringValue(value: string | boolean | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UsageError(`${name} needs a value`);
  return value;
}
