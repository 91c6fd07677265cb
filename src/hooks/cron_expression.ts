/**
 * Standard five-field cron expressions (minute hour day-of-month month day-of-week), parsed once
 * and matched against wall-clock times. Hand-written rather than a dependency: the grammar is
 * exactly the one documented (no seconds field, no `L`/`W`/`#` extensions whose meaning differs
 * between libraries), errors name the field, and wall-clock search is all the scheduler needs.
 *
 * @module
 */

/**
 * A parsed cron expression (see {@link parseCron}). Wall times are milliseconds of a naive
 * calendar: the `Date.UTC` of the local date and time.
 *
 * @example
 * ```ts
 * import { parseCron } from "./cron_expression.ts";
 *
 * const cron = parseCron("0 9 * * MON-FRI");
 * console.log([...cron.daysOfWeek]); // [1, 2, 3, 4, 5]
 * ```
 */
export interface CronExpression {
  /** The expression as written (an alias such as `@daily` stays as written). */
  readonly source: string;
  /** The allowed values of each field (day-of-week 0-6, Sunday 0). */
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /**
   * Whether minute and hour are both fixed (neither field starts with `*`): such a job runs at
   * set times of day, so a daylight-saving change neither skips nor repeats it (see cron(8)).
   */
  readonly fixedTime: boolean;
  /** Whether a day matches: both fields when either starts with `*`, else either of them. */
  matchesDay(dayOfMonth: number, dayOfWeek: number): boolean;
  /** Whether the wall time (whole minute) matches. */
  matches(wall: number): boolean;
}

const MINUTE_MS = 60_000;
/** How far ahead a wall-clock search looks: a 29 February can be eight years away. */
const SEARCH_YEARS = 9;

const ALIASES: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const MONTH_NAMES = [
  "JAN",
  "FEB",
  "MAR",
  "APR",
  "MAY",
  "JUN",
  "JUL",
  "AUG",
  "SEP",
  "OCT",
  "NOV",
  "DEC",
];
const DAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Names of the values from `min` on. */
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTH_NAMES },
  // 7 is Sunday too, as in every cron; folded to 0 below.
  { name: "day-of-week", min: 0, max: 7, names: DAY_NAMES },
];

/** The longest day-of-month of each month (February in a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Thrown for an expression that is not a valid five-field cron expression; a `TypeError`, with a
 * message naming the field at fault.
 *
 * @example
 * ```ts
 * import { CronSyntaxError, parseCron } from "./cron_expression.ts";
 *
 * try {
 *   parseCron("0 25 * * *");
 * } catch (error) {
 *   console.log(error instanceof CronSyntaxError); // true
 *   console.log((error as Error).message);
 *   // Invalid cron expression "0 25 * * *": hour field "25": 25 is out of range 0-23
 * }
 * ```
 */
export class CronSyntaxError extends TypeError {
  /**
   * Creates the error.
   *
   * @param expression The expression as written.
   * @param reason What is wrong with it, naming the field at fault.
   */
  constructor(expression: string, reason: string) {
    super(`Invalid cron expression ${JSON.stringify(expression)}: ${reason}`);
    this.name = "CronSyntaxError";
  }
}

/**
 * Parses a cron expression: five fields separated by spaces, each `*`, a value, a range `a-b`, a
 * step `*\/n`, `a-b/n` or `a/n`, or a comma-separated list of those; months and days of the week
 * also by name (`JAN`, `MON`, any case); day-of-week 0-7 (0 and 7 are Sunday). The aliases
 * `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight` and `@hourly` stand for
 * their usual expressions. When both day-of-month and day-of-week are restricted (neither starts
 * with `*`), a day matching either runs, as in every cron.
 *
 * @param expression The expression.
 * @returns The parsed expression.
 * @throws {CronSyntaxError} (a `TypeError`) naming the field at fault, or for an expression that
 *   can never match (`0 0 30 2 *`).
 *
 * @example
 * ```ts
 * import { parseCron } from "./cron_expression.ts";
 *
 * const everyFiveMinutes = parseCron("*\/5 * * * *");
 * everyFiveMinutes.matches(Date.UTC(2026, 10, 25, 20, 30)); // => true
 * ```
 */
export function parseCron(expression: string): CronExpression {
  if (typeof expression !== "string") {
    throw new CronSyntaxError(String(expression), "a cron expression must be a string");
  }
  const trimmed = expression.trim();
  let text = trimmed;
  if (trimmed.startsWith("@")) {
    const alias = ALIASES[trimmed.toLowerCase()];
    if (alias === undefined) {
      throw new CronSyntaxError(
        expression,
        `unknown alias (known: ${Object.keys(ALIASES).join(", ")})`,
      );
    }
    text = alias;
  }
  const parts = text.split(/\s+/).filter((part) => part.length > 0);
  if (parts.length !== 5) {
    throw new CronSyntaxError(
      expression,
      `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`,
    );
  }
  const [minutes, hours, daysOfMonth, months, weekDays] = parts.map((part, index) =>
    parseField(expression, part, FIELDS[index])
  );
  const daysOfWeek = new Set([...weekDays].map((day) => day % 7));
  const domStar = parts[2].startsWith("*");
  const dowStar = parts[4].startsWith("*");
  if (
    dowStar &&
    ![...months].some((month) => [...daysOfMonth].some((day) => day <= MONTH_DAYS[month - 1]))
  ) {
    throw new CronSyntaxError(expression, "no month has the days of month it names; it never runs");
  }
  const dayMatches = (dayOfMonth: number, dayOfWeek: number): boolean => {
    const dom = daysOfMonth.has(dayOfMonth);
    const dow = daysOfWeek.has(dayOfWeek);
    return domStar || dowStar ? dom && dow : dom || dow;
  };
  return Object.freeze({
    source: expression,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    fixedTime: !parts[0].startsWith("*") && !parts[1].startsWith("*"),
    matches(wall: number): boolean {
      const date = new Date(wall);
      return minutes.has(date.getUTCMinutes()) && hours.has(date.getUTCHours()) &&
        months.has(date.getUTCMonth() + 1) &&
        dayMatches(date.getUTCDate(), date.getUTCDay());
    },
    matchesDay: dayMatches,
  });
}

/**
 * The first wall time at or after `from` (rounded up to a whole minute) that the expression
 * matches, or `null` when none does within nine years. Skips whole months, days and hours that
 * cannot match, so a yearly expression costs a few hundred steps, not half a million minutes.
 *
 * @param cron The expression.
 * @param from A wall time (naive calendar milliseconds).
 * @returns The matching wall time, or `null`.
 */
export function nextCronWall(cron: CronExpression, from: number): number | null {
  let t = Math.ceil(from / MINUTE_MS) * MINUTE_MS;
  const limit = new Date(t).getUTCFullYear() + SEARCH_YEARS;
  for (;;) {
    const d = new Date(t);
    const year = d.getUTCFullYear();
    if (year > limit) return null;
    const month = d.getUTCMonth();
    const day = d.getUTCDate();
    const hour = d.getUTCHours();
    if (!cron.months.has(month + 1)) {
      t = Date.UTC(year, month + 1, 1);
    } else if (!cron.matchesDay(day, d.getUTCDay())) {
      t = Date.UTC(year, month, day + 1);
    } else if (!cron.hours.has(hour)) {
      t = Date.UTC(year, month, day, hour + 1);
    } else if (!cron.minutes.has(d.getUTCMinutes())) {
      t += MINUTE_MS;
    } else {
      return t;
    }
  }
}

function parseField(expression: string, text: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    const fail = (reason: string): never => {
      throw new CronSyntaxError(expression, `${spec.name} field "${text}": ${reason}`);
    };
    if (item.length === 0) fail("empty list item");
    const [rangeText, stepText, ...rest] = item.split("/");
    if (rest.length > 0) fail(`"${item}" has more than one "/"`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) < 1) {
        fail(`step "${stepText}" must be a positive whole number`);
      }
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (rangeText === "*") {
      low = spec.min;
      high = spec.name === "day-of-week" ? 6 : spec.max;
    } else {
      const bounds = rangeText.split("-");
      if (bounds.length > 2) fail(`"${rangeText}" is not a value or a range`);
      low = fieldValue(bounds[0], spec, fail);
      high = bounds.length === 2
        ? fieldValue(bounds[1], spec, fail)
        // `a/n` runs from a to the end of the field, as in cronie and most schedulers.
        : stepText === undefined
        ? low
        : spec.name === "day-of-week"
        ? 6
        : spec.max;
      if (low > high) fail(`range "${rangeText}" runs backwards`);
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return values;
}

function fieldValue(text: string, spec: FieldSpec, fail: (reason: string) => never): number {
  let value: number;
  if (/^\d+$/.test(text)) {
    value = Number(text);
  } else {
    const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
    if (index < 0) {
      fail(
        `"${text}" is not a number` +
          (spec.names ? ` or a name (${spec.names.join(", ")})` : ""),
      );
    }
    value = index + spec.min;
  }
  if (value < spec.min || value > spec.max) {
    fail(`${value} is out of range ${spec.min}-${spec.max}`);
  }
  return value;
}
