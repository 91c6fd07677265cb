/**
 * The slots of a cron expression in a time zone: the instants it is due, with the daylight-saving
 * rules of cron(8). Jobs at fixed times of day (neither minute nor hour starts with `*`) run once
 * per day whatever the clock does: a time skipped when clocks go forward runs at the change, and a
 * time repeated when they go back runs the first time only. Other jobs follow the wall clock: they
 * do not run in a skipped hour, and run in both passes of a repeated one (real time elapsed).
 *
 * @module
 */

import { type CronExpression, nextCronWall, parseCron } from "./cron_expression.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Offset probes are this far apart; no time zone changes its offset twice in a day. */
const PROBE_MS = 86_400_000;
/** A daylight-saving change shifts the clock by at most two hours (Antarctica/Troll). */
const LONGEST_SHIFT_MS = 3 * HOUR_MS;

/**
 * A cron expression bound to a time zone: computes its slots (see {@link cronSchedule}).
 *
 * @example
 * ```ts
 * import { cronSchedule } from "./cron_schedule.ts";
 *
 * const slots = cronSchedule("0 * * * *").between(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 3), 10);
 * console.log(slots.length); // 3
 * ```
 */
export interface CronSchedule {
  /** The parsed expression. */
  readonly cron: CronExpression;
  /** The IANA time zone its wall times are read in. */
  readonly timeZone: string;
  /** The first slot strictly after `after` (epoch milliseconds), or `null` within nine years. */
  next(after: number): number | null;
  /**
   * The slots in `(after, until]`, oldest first; at most `limit` of them, the latest ones (a
   * minutely schedule over a long backfill keeps its most recent slots).
   */
  between(after: number, until: number, limit: number): number[];
}

/**
 * Binds a cron expression to a time zone.
 *
 * @param expression A five-field cron expression or an alias (see `parseCron`).
 * @param timeZone An IANA time zone name. @default "UTC"
 * @returns The schedule.
 * @throws {TypeError} For an invalid expression or an unknown time zone.
 *
 * @example Every day at 09:30 in Paris
 * ```ts
 * import { cronSchedule } from "./cron_schedule.ts";
 *
 * const schedule = cronSchedule("30 9 * * *", "Europe/Paris");
 * new Date(schedule.next(Date.UTC(2026, 0, 1))!).toISOString(); // => "2026-01-01T08:30:00.000Z"
 * ```
 */
export function cronSchedule(expression: string, timeZone = "UTC"): CronSchedule {
  const cron = parseCron(expression);
  const offsetAt = timeZoneOffset(timeZone);
  const fixed = cron.fixedTime;

  /** The first instant in `(from, to]` whose offset differs from `offset`, to the minute. */
  function firstChange(from: number, to: number, offset: number): number | null {
    if (offsetAt === null) return null;
    for (let probe = from; probe < to;) {
      const nextProbe = Math.min(probe + PROBE_MS, to);
      if (offsetAt(nextProbe) !== offset) {
        let low = probe;
        let high = nextProbe;
        while (high - low > MINUTE_MS) {
          const middle = Math.floor((low + high) / 2 / MINUTE_MS) * MINUTE_MS;
          if (offsetAt(middle) === offset) low = middle;
          else high = middle;
        }
        return high;
      }
      probe = nextProbe;
    }
    return null;
  }

  function next(after: number): number | null {
    let from = Math.floor(after / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    const offsetOf = offsetAt ?? (() => 0);
    // Walls before this one were already run before the clocks went back (fixed-time jobs only).
    let repeatedUntil: number | null = null;
    if (fixed && offsetAt !== null) {
      const before = offsetAt(from - LONGEST_SHIFT_MS);
      if (before > offsetAt(from)) {
        const change = firstChange(from - LONGEST_SHIFT_MS, from, before);
        if (change !== null) repeatedUntil = change + before;
      }
    }
    // Each turn searches one stretch of constant offset; a turn ends at an offset change.
    for (let turn = 0; turn < 64; turn++) {
      const offset = offsetOf(from);
      const low = Math.max(from + offset, repeatedUntil ?? Number.NEGATIVE_INFINITY);
      const wall = nextCronWall(cron, low);
      if (wall === null) return null;
      const candidate = wall - offset;
      const change = firstChange(from, candidate, offset);
      if (change === null) return candidate;
      const offsetAfter = offsetOf(change);
      if (fixed && offsetAfter > offset) {
        // Clocks went forward: walls [change + offset, change + offsetAfter) never happen; a
        // fixed-time slot among them runs at the change.
        const skipped = nextCronWall(cron, change + offset);
        if (skipped !== null && skipped < change + offsetAfter) return change;
      }
      repeatedUntil = fixed && offsetAfter < offset ? change + offset : null;
      from = change;
    }
    return null;
  }

  return Object.freeze({
    cron,
    timeZone,
    next,
    between(after: number, until: number, limit: number): number[] {
      const slots: number[] = [];
      for (let slot = next(after); slot !== null && slot <= until; slot = next(slot)) {
        slots.push(slot);
      }
      return slots.length > limit ? slots.slice(slots.length - limit) : slots;
    },
  });
}

/**
 * The offset (wall minus UTC, in whole minutes' milliseconds) of a time zone at an instant, read
 * through `Intl` (every runtime ships the time zone database); `null` for UTC, which has none.
 *
 * @throws {TypeError} For a time zone `Intl` does not know.
 */
function timeZoneOffset(timeZone: string): ((at: number) => number) | null {
  if (typeof timeZone !== "string" || timeZone.length === 0) {
    throw new TypeError(`A time zone must be an IANA name such as "Europe/Paris"`);
  }
  if (timeZone === "UTC") return null;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    throw new TypeError(
      `Unknown time zone ${JSON.stringify(timeZone)}: use an IANA name such as "Europe/Paris"`,
    );
  }
  return (at) => {
    const fields: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(at))) {
      if (part.type !== "literal") fields[part.type] = Number(part.value);
    }
    const wall = Date.UTC(
      fields.year,
      fields.month - 1,
      fields.day,
      fields.hour,
      fields.minute,
      fields.second,
    );
    return Math.round((wall - Math.floor(at / 1000) * 1000) / MINUTE_MS) * MINUTE_MS;
  };
}
