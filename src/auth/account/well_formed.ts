/**
 * Whether text is well-formed UTF-16 (no unpaired surrogate code units), on every runtime.
 *
 * @module
 */

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
