/**
 * Durations of hook retention, as operators write them: `30d`, `12h`, `15m`, `0s`.
 *
 * @module
 */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration: a whole number followed by `s`, `m`, `h` or `d` (`"30d"`, `"12h"`, `"0s"`),
 * or a number of milliseconds.
 *
 * @param value The duration.
 * @returns Milliseconds, or `null` when `value` is not a duration.
 *
 * @example
 * ```ts
 * import { parseHookDuration } from "./hook_duration.ts";
 *
 * parseHookDuration("12h"); // => 43200000
 * parseHookDuration("0s"); // => 0
 * parseHookDuration("soon"); // => null
 * ```
 */
export function parseHookDuration(value: string | number): number | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? value : null;
  }
  const match = /^(\d{1,9})([smhd])$/.exec(value);
  if (match === null) return null;
  return Number(match[1]) * UNIT_MS[match[2]];
}

/**
 * The milliseconds of a `retention` option's `done` duration (`{ done: "7d" }`), or `null` when
 * the value is not such an object: one check for every option that passes a retention on to
 * `durableHooks()` (its own, the messenger's, the auth module's `organizations.retention`).
 */
export function hookRetentionMs(retention: unknown): number | null {
  const done = typeof retention === "object" && retention !== null
    ? (retention as { done?: unknown }).done
    : undefined;
  return typeof done === "string" || typeof done === "number" ? parseHookDuration(done) : null;
}
