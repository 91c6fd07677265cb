// Cron expressions and their slots: the parser (unit and property tests against a brute-force
// minute-by-minute matcher), and slots in time zones across daylight-saving changes.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { CronSyntaxError, nextCronWall, parseCron } from "../../src/hooks/cron_expression.ts";
import { cronSchedule } from "../../src/hooks/cron_schedule.ts";

const MINUTE = 60_000;
const iso = (t: number | null): string | null => t === null ? null : new Date(t).toISOString();
const utc = (text: string): number => Date.parse(text);

/** The brute-force reference: the wall's fields, read the obvious way. */
function referenceMatches(
  fields: { minute: number[]; hour: number[]; dom: number[]; month: number[]; dow: number[] },
  domStar: boolean,
  dowStar: boolean,
  wall: number,
): boolean {
  const d = new Date(wall);
  const dom = fields.dom.includes(d.getUTCDate());
  const dow = fields.dow.includes(d.getUTCDay());
  const day = domStar || dowStar ? dom && dow : dom || dow;
  return fields.minute.includes(d.getUTCMinutes()) && fields.hour.includes(d.getUTCHours()) &&
    fields.month.includes(d.getUTCMonth() + 1) && day;
}

describe("parseCron()", () => {
  it("parses values, lists, ranges, steps and names", () => {
    const cron = parseCron("0,30 9-17/2 1,15 JAN-mar mon-FRI");
    assert.deepEqual([...cron.minutes], [0, 30]);
    assert.deepEqual([...cron.hours], [9, 11, 13, 15, 17]);
    assert.deepEqual([...cron.daysOfMonth], [1, 15]);
    assert.deepEqual([...cron.months], [1, 2, 3]);
    assert.deepEqual([...cron.daysOfWeek], [1, 2, 3, 4, 5]);
    assert.equal(cron.fixedTime, true);
    assert.deepEqual([...parseCron("5/20 * * * *").minutes], [5, 25, 45]);
    assert.deepEqual([...parseCron("*/15 * * * *").minutes], [0, 15, 30, 45]);
    assert.equal(parseCron("*/15 * * * *").fixedTime, false);
    assert.deepEqual([...parseCron("0 0 * * 7").daysOfWeek], [0], "7 is Sunday");
    assert.deepEqual([...parseCron("0 0 * * 5-7").daysOfWeek].sort(), [0, 5, 6]);
    assert.deepEqual([...parseCron("0 0 * * */2").daysOfWeek], [0, 2, 4, 6]);
  });

  it("expands the aliases", () => {
    const pairs: Array<[string, string]> = [
      ["@yearly", "0 0 1 1 *"],
      ["@annually", "0 0 1 1 *"],
      ["@monthly", "0 0 1 * *"],
      ["@weekly", "0 0 * * 0"],
      ["@daily", "0 0 * * *"],
      ["@midnight", "0 0 * * *"],
      ["@HOURLY", "0 * * * *"],
    ];
    for (const [alias, expression] of pairs) {
      const a = parseCron(alias);
      const b = parseCron(expression);
      for (const field of ["minutes", "hours", "daysOfMonth", "months", "daysOfWeek"] as const) {
        assert.deepEqual([...a[field]], [...b[field]], `${alias} ${field}`);
      }
    }
  });

  it("matches a day on either field when both are restricted, on both otherwise", () => {
    // The 13th, or any Friday.
    const either = parseCron("0 0 13 * FRI");
    assert.equal(either.matches(utc("2026-11-13T00:00Z")), true); // a Friday the 13th
    assert.equal(either.matches(utc("2026-11-20T00:00Z")), true); // a Friday
    assert.equal(either.matches(utc("2026-12-13T00:00Z")), true); // a Sunday the 13th
    assert.equal(either.matches(utc("2026-11-21T00:00Z")), false);
    // `*/2` starts with `*`: both must match (every other day of month that is a Friday).
    const both = parseCron("0 0 */2 * FRI");
    assert.equal(both.matches(utc("2026-11-13T00:00Z")), true);
    assert.equal(both.matches(utc("2026-11-20T00:00Z")), false);
  });

  it("rejects invalid expressions with the field at fault", () => {
    const cases: Array<[string, RegExp]> = [
      ["* * * *", /expected 5 fields .* got 4/],
      ["* * * * * *", /expected 5 fields .* got 6/],
      ["", /got 0/],
      ["60 * * * *", /minute field "60": 60 is out of range 0-59/],
      ["* 24 * * *", /hour field "24": 24 is out of range 0-23/],
      ["* * 0 * *", /day-of-month field "0": 0 is out of range 1-31/],
      ["* * * 13 *", /month field "13": 13 is out of range 1-12/],
      ["* * * * 8", /day-of-week field "8": 8 is out of range 0-7/],
      ["* * * FOO *", /month field "FOO": "FOO" is not a number or a name \(JAN/],
      ["*/0 * * * *", /step "0" must be a positive whole number/],
      ["*/x * * * *", /step "x"/],
      ["10-5 * * * *", /range "10-5" runs backwards/],
      ["1,,2 * * * *", /empty list item/],
      ["1-2-3 * * * *", /not a value or a range/],
      ["*/2/3 * * * *", /more than one "\/"/],
      ["-1 * * * *", /minute field/],
      ["@reboot", /unknown alias/],
      ["0 0 30 2 *", /never runs/],
      ["0 0 31 4,6,9,11 *", /never runs/],
    ];
    for (const [expression, message] of cases) {
      assert.throws(() => parseCron(expression), (error: unknown) => {
        assert.ok(error instanceof CronSyntaxError, expression);
        assert.ok(error instanceof TypeError);
        assert.match((error as Error).message, /^Invalid cron expression /);
        assert.match((error as Error).message, message, expression);
        return true;
      });
    }
    // February 30th never comes, but "the 30th or a Monday" does.
    assert.doesNotThrow(() => parseCron("0 0 30 2 MON"));
    assert.doesNotThrow(() => parseCron("0 0 29 2 *"));
  });

  it("round-trips any field set written as a list (property)", () => {
    const arb = fc.record({
      minute: fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 6 }),
      hour: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 4 }),
      dom: fc.uniqueArray(fc.integer({ min: 1, max: 28 }), { minLength: 1, maxLength: 4 }),
      month: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
      dow: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(fc.property(arb, (f) => {
      const cron = parseCron(
        [f.minute, f.hour, f.dom, f.month, f.dow].map((v) => v.join(",")).join(" "),
      );
      const sorted = (values: Iterable<number>) => [...values].sort((a, b) => a - b);
      assert.deepEqual(sorted(cron.minutes), sorted(f.minute));
      assert.deepEqual(sorted(cron.hours), sorted(f.hour));
      assert.deepEqual(sorted(cron.daysOfMonth), sorted(f.dom));
      assert.deepEqual(sorted(cron.months), sorted(f.month));
      assert.deepEqual(sorted(cron.daysOfWeek), sorted(f.dow));
    }));
  });

  it("nextCronWall() finds the first matching minute, as a minute-by-minute scan does (property)", () => {
    // Fields are `*`, a step or a short list, so that matches are frequent enough to scan for.
    const field = (min: number, max: number) =>
      fc.oneof(
        fc.constant({ text: "*", star: true, values: range(min, max, 1) }),
        fc.integer({ min: 2, max: Math.max(2, Math.floor((max - min) / 2)) }).map((step) => ({
          text: `*/${step}`,
          star: true,
          values: range(min, max, step),
        })),
        fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 5 }).map((v) => ({
          text: v.join(","),
          star: false,
          values: v,
        })),
      );
    const arb = fc.record({
      minute: field(0, 59),
      hour: field(0, 23),
      dom: field(1, 31),
      month: fc.constant({ text: "*", star: true, values: range(1, 12, 1) }),
      dow: field(0, 6),
      from: fc.integer({ min: utc("2020-01-01T00:00Z"), max: utc("2030-01-01T00:00Z") }),
    });
    fc.assert(
      fc.property(arb, (f) => {
        const expression = [f.minute, f.hour, f.dom, f.month, f.dow].map((x) => x.text).join(" ");
        const cron = parseCron(expression);
        const found = nextCronWall(cron, f.from);
        const fields = {
          minute: f.minute.values,
          hour: f.hour.values,
          dom: f.dom.values,
          month: f.month.values,
          dow: f.dow.values,
        };
        // Scan 40 days of minutes (every pattern here matches within about a month).
        let t = Math.ceil(f.from / MINUTE) * MINUTE;
        const end = t + 40 * 86_400_000;
        while (t < end && !referenceMatches(fields, f.dom.star, f.dow.star, t)) t += MINUTE;
        if (t < end) assert.equal(iso(found), iso(t), expression);
        else assert.ok(found === null || found >= end, expression);
        if (found !== null) assert.equal(cron.matches(found), true);
      }),
      { numRuns: 150 },
    );
  });
});

function range(min: number, max: number, step: number): number[] {
  const values: number[] = [];
  for (let v = min; v <= max; v += step) values.push(v);
  return values;
}

describe("cronSchedule()", () => {
  it("computes UTC slots strictly after a time", () => {
    const every5 = cronSchedule("*/5 * * * *");
    assert.equal(iso(every5.next(utc("2026-11-25T20:30:00Z"))), "2026-11-25T20:35:00.000Z");
    assert.equal(iso(every5.next(utc("2026-11-25T20:29:59.999Z"))), "2026-11-25T20:30:00.000Z");
    assert.deepEqual(
      every5.between(utc("2026-11-25T20:30Z"), utc("2026-11-25T20:45Z"), 10).map(iso),
      ["2026-11-25T20:35:00.000Z", "2026-11-25T20:40:00.000Z", "2026-11-25T20:45:00.000Z"],
    );
    // A limit keeps the latest slots.
    assert.deepEqual(
      every5.between(utc("2026-11-25T20:30Z"), utc("2026-11-25T20:45Z"), 2).map(iso),
      ["2026-11-25T20:40:00.000Z", "2026-11-25T20:45:00.000Z"],
    );
    assert.equal(
      iso(cronSchedule("0 0 29 2 *").next(utc("2026-03-01T00:00Z"))),
      "2028-02-29T00:00:00.000Z",
    );
    assert.equal(
      iso(cronSchedule("0 12 13 * FRI").next(utc("2026-11-14T00:00Z"))),
      "2026-11-20T12:00:00.000Z",
    );
  });

  it("reads times in a time zone, and rejects an unknown one", () => {
    const paris = cronSchedule("30 9 * * *", "Europe/Paris");
    assert.equal(iso(paris.next(utc("2026-01-01T00:00Z"))), "2026-01-01T08:30:00.000Z"); // CET
    assert.equal(iso(paris.next(utc("2026-07-01T00:00Z"))), "2026-07-01T07:30:00.000Z"); // CEST
    const kathmandu = cronSchedule("0 0 * * *", "Asia/Kathmandu"); // +05:45
    assert.equal(iso(kathmandu.next(utc("2026-01-01T00:00Z"))), "2026-01-01T18:15:00.000Z");
    assert.equal(
      iso(cronSchedule("@yearly", "America/New_York").next(utc("2026-06-01T00:00Z"))),
      "2027-01-01T05:00:00.000Z",
    );
    assert.throws(
      () => cronSchedule("* * * * *", "Mars/Olympus"),
      /Unknown time zone "Mars\/Olympus"/,
    );
  });

  it("runs a fixed-time slot skipped by clocks going forward at the change, once", () => {
    // Europe/Paris, 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00Z; 02:30 never happens.
    const at0230 = cronSchedule("30 2 * * *", "Europe/Paris");
    assert.deepEqual(
      at0230.between(utc("2026-03-28T00:00Z"), utc("2026-03-30T12:00Z"), 10).map(iso),
      ["2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"],
    );
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT at 07:00Z.
    assert.deepEqual(
      cronSchedule("15 2 * * *", "America/New_York")
        .between(utc("2026-03-07T12:00Z"), utc("2026-03-09T12:00Z"), 10).map(iso),
      ["2026-03-08T07:00:00.000Z", "2026-03-09T06:15:00.000Z"],
    );
  });

  it("runs a fixed-time slot repeated by clocks going back the first time only", () => {
    // Europe/Paris, 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00Z; 02:30 happens twice.
    const at0230 = cronSchedule("30 2 * * *", "Europe/Paris");
    assert.deepEqual(
      at0230.between(utc("2026-10-24T12:00Z"), utc("2026-10-26T12:00Z"), 10).map(iso),
      ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"],
    );
    // Asked from inside the second pass (a worker that started then): not again.
    assert.equal(iso(at0230.next(utc("2026-10-25T01:10Z"))), "2026-10-26T01:30:00.000Z");
  });

  it("follows the wall clock for interval jobs across both changes", () => {
    const half = cronSchedule("*/30 * * * *", "Europe/Paris");
    // Forward: local 01:30, 03:00, 03:30 (02:xx does not exist); every real half hour.
    assert.deepEqual(
      half.between(utc("2026-03-29T00:00Z"), utc("2026-03-29T02:00Z"), 10).map(iso),
      [
        "2026-03-29T00:30:00.000Z",
        "2026-03-29T01:00:00.000Z",
        "2026-03-29T01:30:00.000Z",
        "2026-03-29T02:00:00.000Z",
      ],
    );
    // Back: 02:00 and 02:30 run in both passes.
    assert.deepEqual(
      half.between(utc("2026-10-24T23:45Z"), utc("2026-10-25T02:00Z"), 10).map(iso),
      [
        "2026-10-25T00:00:00.000Z",
        "2026-10-25T00:30:00.000Z",
        "2026-10-25T01:00:00.000Z",
        "2026-10-25T01:30:00.000Z",
        "2026-10-25T02:00:00.000Z",
      ],
    );
  });

  it("agrees with a minute-by-minute scan of local times for interval jobs (property)", () => {
    const zones = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"];
    const arb = fc.record({
      zone: fc.constantFrom(...zones),
      minute: fc.constantFrom("*/7", "*/15", "5,35", "*"),
      hour: fc.constantFrom("*", "*/2", "*/3"),
      // Around the changes of 2026 (March/April and October) and elsewhere.
      from: fc.oneof(
        fc.integer({ min: utc("2026-03-07T00:00Z"), max: utc("2026-04-06T00:00Z") }),
        fc.integer({ min: utc("2026-09-30T00:00Z"), max: utc("2026-11-02T00:00Z") }),
        fc.integer({ min: utc("2026-01-01T00:00Z"), max: utc("2027-01-01T00:00Z") }),
      ),
    });
    fc.assert(
      fc.property(arb, ({ zone, minute, hour, from }) => {
        const expression = `${minute} ${hour} * * *`;
        const schedule = cronSchedule(expression, zone);
        const format = new Intl.DateTimeFormat("en-US", {
          timeZone: zone,
          hourCycle: "h23",
          hour: "numeric",
          minute: "numeric",
        });
        const local = (t: number) => {
          const parts = Object.fromEntries(
            format.formatToParts(new Date(t)).map((p) => [p.type, Number(p.value)]),
          );
          return Date.UTC(2026, 0, 1, parts.hour, parts.minute);
        };
        let t = Math.floor(from / MINUTE) * MINUTE + MINUTE;
        while (!schedule.cron.matches(local(t))) t += MINUTE;
        assert.equal(iso(schedule.next(from)), iso(t), `${expression} ${zone}`);
      }),
      { numRuns: 200 },
    );
  });

  it("never yields a slot at or before the time asked from (property)", () => {
    const zones = ["UTC", "Europe/Paris", "America/Santiago", "Australia/Lord_Howe"];
    fc.assert(
      fc.property(
        fc.constantFrom("30 2 * * *", "0 1,2,3 * * *", "15 2 * * 0", "@daily", "0 */6 * * *"),
        fc.constantFrom(...zones),
        fc.integer({ min: utc("2026-01-01T00:00Z"), max: utc("2027-01-01T00:00Z") }),
        (expression, zone, from) => {
          const schedule = cronSchedule(expression, zone);
          let t = from;
          for (let n = 0; n < 5; n++) {
            const slot = schedule.next(t);
            assert.ok(slot !== null && slot > t, `${expression} ${zone} after ${iso(t)}`);
            t = slot;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
