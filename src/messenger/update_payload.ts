/**
 * Validation of a webhook body: a JSON object with an integer `update_id` ≥ 0, read from the raw
 * text so that ids beyond 2^53 (up to 2^63 - 1) keep every digit.
 *
 * @module
 */

/**
 * Every kind of update the Bot API documents (its `Update` object's optional fields, as
 * `@grammyjs/types` 5.0 of grammY 1.46 lists them): an update is stored with the kind of the field
 * it carries. The
 * specification's three come first; an update carrying none of these (a field a later Bot API
 * adds) is stored as `other`.
 *
 * @example Tell a known kind from a string
 * ```ts
 * import { type KnownMessengerUpdateKind, MESSENGER_UPDATE_KINDS } from "@app/fragment-cli/messenger";
 *
 * function isKnownKind(text: string): text is KnownMessengerUpdateKind {
 *   return (MESSENGER_UPDATE_KINDS as readonly string[]).includes(text);
 * }
 * console.log(isKnownKind("callback_query")); // true
 * ```
 */
export const MESSENGER_UPDATE_KINDS = [
  "message",
  "edited_message",
  "channel_post",
  "edited_channel_post",
  "business_connection",
  "business_message",
  "edited_business_message",
  "deleted_business_messages",
  "guest_message",
  "stopped_message_generation",
  "message_reaction",
  "message_reaction_count",
  "inline_query",
  "chosen_inline_result",
  "callback_query",
  "shipping_query",
  "pre_checkout_query",
  "purchased_paid_media",
  "poll",
  "poll_answer",
  "my_chat_member",
  "chat_member",
  "chat_join_request",
  "chat_boost",
  "removed_chat_boost",
  "managed_bot",
  "subscription",
] as const;

/**
 * One of {@link MESSENGER_UPDATE_KINDS}, the field an update carries.
 *
 * @example
 * ```ts
 * import type { KnownMessengerUpdateKind } from "@app/fragment-cli/messenger";
 *
 * const kinds: KnownMessengerUpdateKind[] = ["message", "callback_query"];
 * ```
 */
export type KnownMessengerUpdateKind = typeof MESSENGER_UPDATE_KINDS[number];

/**
 * The field an update carries (`message`, `callback_query`, …), or `other` for none we know.
 *
 * @example List the stored updates of one kind
 * ```ts ignore
 * import type { MessengerModule, MessengerUpdateKind } from "@app/fragment-cli/messenger";
 *
 * async function countOf(bot: MessengerModule, kind: MessengerUpdateKind): Promise<number> {
 *   const page = await bot.api.listUpdates({ kind, pageSize: 100 });
 *   return page.updates.length;
 * }
 * ```
 */
export type MessengerUpdateKind = KnownMessengerUpdateKind | "other";

/**
 * The kind of a parsed update: the first field of {@link MESSENGER_UPDATE_KINDS} it carries as an
 * object (the Bot API sends exactly one), else `other`.
 *
 * @param update A parsed update object.
 * @returns Its kind.
 *
 * @example
 * ```ts
 * import { updateKindOf } from "./update_payload.ts";
 *
 * updateKindOf({ update_id: 1, callback_query: { id: "4382", data: "yes" } }); // "callback_query"
 * updateKindOf({ update_id: 2, some_future_field: {} }); // "other"
 * ```
 */
export function updateKindOf(update: Record<string, unknown>): MessengerUpdateKind {
  return MESSENGER_UPDATE_KINDS.find((kind) => {
    const part = Object.hasOwn(update, kind) ? update[kind] : undefined;
    return typeof part === "object" && part !== null && !Array.isArray(part);
  }) ?? "other";
}

/** The largest `update_id` accepted: the largest PostgreSQL `bigint`. */
const MAX_UPDATE_ID = 9223372036854775807n;

/** Why a body was rejected: `code` is the JSON error code of the 400 answer. */
export class InvalidUpdateError extends Error {
  /** `INVALID_JSON` or `INVALID_UPDATE`. */
  readonly code: "INVALID_JSON" | "INVALID_UPDATE";

  constructor(code: "INVALID_JSON" | "INVALID_UPDATE", message: string) {
    super(message);
    this.name = "InvalidUpdateError";
    this.code = code;
  }
}

/** A validated update. */
export interface ParsedUpdate {
  /** `update_id` as its exact decimal digits. */
  updateId: string;
  /** Which kind of update it is. */
  kind: MessengerUpdateKind;
  /** The parsed body (numbers beyond 2^53 rounded: keep `raw` for exact values). */
  update: Record<string, unknown>;
}

/**
 * Validates a raw webhook body.
 *
 * @param raw The request body text.
 * @returns The update id (exact), its kind and the parsed body.
 * @throws {InvalidUpdateError} Not JSON, not an object, or no integer `update_id` in 0 … 2^63-1.
 *
 * @example
 * ```ts
 * import { parseUpdate } from "./update_payload.ts";
 *
 * const { updateId, kind } = parseUpdate('{"update_id": 9223372036854775807, "message": {}}');
 * console.log(updateId, kind); // "9223372036854775807" "message"
 * ```
 */
export function parseUpdate(raw: string): ParsedUpdate {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidUpdateError("INVALID_JSON", "Request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidUpdateError("INVALID_UPDATE", "The update must be a JSON object");
  }
  const update = value as Record<string, unknown>;
  if (!Object.hasOwn(update, "update_id")) {
    throw new InvalidUpdateError("INVALID_UPDATE", "The update has no update_id");
  }
  if (typeof update.update_id !== "number") {
    throw new InvalidUpdateError("INVALID_UPDATE", "update_id must be an integer");
  }
  // The parsed number may be rounded; the digits come from the text itself.
  const digits = topLevelValueText(raw, "update_id");
  if (digits === undefined || !/^(0|[1-9][0-9]*)$/.test(digits)) {
    throw new InvalidUpdateError(
      "INVALID_UPDATE",
      "update_id must be an integer ≥ 0 written without sign, fraction or exponent",
    );
  }
  if (BigInt(digits) > MAX_UPDATE_ID) {
    throw new InvalidUpdateError("INVALID_UPDATE", "update_id must be at most 2^63 - 1");
  }
  return { updateId: digits, kind: updateKindOf(update), update };
}

/**
 * The source text of the value of `key` in the top-level object of `json` (already known to be
 * valid JSON), or `undefined`. Like `JSON.parse`, the last occurrence of a repeated key wins, and
 * keys are compared after decoding escapes (`"update\u005fid"` is `update_id`). Strings are
 * skipped with `indexOf` jumps to their closing quote rather than character by character: the
 * body is mostly string content, and this scan runs on every delivery.
 */
function topLevelValueText(json: string, key: string): string | undefined {
  let i = skipSpace(json, 0) + 1; // past "{"
  let found: string | undefined;
  for (;;) {
    i = skipSpace(json, i);
    if (json.charCodeAt(i) === CLOSE_BRACE) return found;
    const keyEnd = skipString(json, i);
    // A key without escapes is its own text; only one with a backslash needs decoding.
    const raw = json.slice(i + 1, keyEnd - 1);
    const name = raw.includes("\\") ? JSON.parse(json.slice(i, keyEnd)) as string : raw;
    i = skipSpace(json, keyEnd) + 1; // past ":"
    i = skipSpace(json, i);
    const valueEnd = skipValue(json, i);
    if (name === key) found = json.slice(i, valueEnd);
    i = skipSpace(json, valueEnd);
    if (json.charCodeAt(i) === COMMA) i++;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function skipSpace(json: string, i: number): number {
  for (;;) {
    const c = json.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}

/** The index after the string starting at `i` (at its opening quote). */
function skipString(json: string, i: number): number {
  let quote = json.indexOf('"', i + 1);
  for (;;) {
    // Escaped when preceded by an odd number of backslashes.
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = json.indexOf('"', quote + 1);
  }
}

/** The index after the value starting at `i`. */
function skipValue(json: string, i: number): number {
  const c = json.charCodeAt(i);
  if (c === QUOTE) return skipString(json, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    let j = i;
    do {
      const d = json.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(json, j);
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) depth--;
      j++;
    } while (depth > 0);
    return j;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  for (; j < json.length; j++) {
    const d = json.charCodeAt(j);
    if (
      d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 0x20 || d === 0x09 ||
      d === 0x0a || d === 0x0d
    ) break;
  }
  return j;
}

/**
 * The chat an update belongs to, as the decimal digits of its id: the `chat` of the update's
 * object (a message, a `chat_member` change, a reaction, a join request, …) or of the message a
 * `callback_query` came from; `null` for updates without a chat (inline queries, polls, payments,
 * a callback query of an inline message).
 *
 * @param update The parsed update.
 * @param kind Its kind.
 * @returns The chat id, or `null`.
 */
export function chatIdOf(
  update: Record<string, unknown>,
  kind: MessengerUpdateKind,
): string | null {
  if (kind === "other") return null;
  const object = update[kind];
  if (typeof object !== "object" || object === null) return null;
  const { chat, message } = object as { chat?: unknown; message?: unknown };
  const holder = typeof chat === "object" && chat !== null
    ? chat
    : typeof message === "object" && message !== null
    ? (message as { chat?: unknown }).chat
    : undefined;
  const id = typeof holder === "object" && holder !== null
    ? (holder as { id?: unknown }).id
    : undefined;
  if (typeof id === "number" && Number.isSafeInteger(id)) return String(id);
  if (typeof id === "string" && /^-?[0-9]{1,20}$/.test(id)) return id;
  return null;
}
