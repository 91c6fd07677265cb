/**
 * Text PostgreSQL can store as given: well-formed UTF-16 (no unpaired surrogate code units), on
 * every runtime, and no U+0000.
 *
 * @module
 */

import type { z } from "zod";

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` holds no unpaired surrogate, i.e. encodes to UTF-8 and back unchanged:
 * `String.prototype.isWellFormed` where the runtime has it, the equivalent pattern otherwise.
 *
 * @example
 * ```ts
 * import { isWellFormedText } from "./well_formed.ts";
 *
 * console.log(isWellFormedText("key \u{1F511}")); // true
 * console.log(isWellFormedText("key \uD83D")); // false
 * ```
 */
export function isWellFormedText(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * Why PostgreSQL could not store `text` as given, or `null`: text and jsonb values cannot hold
 * U+0000, and unpaired surrogates cannot be encoded as UTF-8 (the driver would store U+FFFD or
 * the server refuse the value with a 500).
 *
 * @example
 * ```ts
 * import { storageProblem } from "./well_formed.ts";
 *
 * console.log(storageProblem("Work laptop")); // null
 * console.log(storageProblem("a\u0000b")); // "Must not contain the character U+0000"
 * ```
 */
export function storageProblem(text: string): string | null {
  if (text.includes("\u0000")) return "Must not contain the character U+0000";
  if (!isWellFormedText(text)) return "Must not contain unpaired surrogate code units";
  return null;
}

/**
 * A zod refinement: adds the storage problem of `text` (see {@link storageProblem}) as a
 * validation issue, so the route answers 400 instead of the database refusing it.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { checkStorable } from "./well_formed.ts";
 *
 * const name = z.string().trim().min(1).max(64).superRefine(checkStorable);
 * console.log(name.safeParse("a\u0000b").success); // false
 * ```
 */
export function checkStorable(text: string, context: z.RefinementCtx): void {
  const problem = storageProblem(text);
  if (problem) context.addIssue({ code: "custom", message: problem });
}
