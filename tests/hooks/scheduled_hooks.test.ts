// Scheduled hooks on PGlite and the PostgreSQL server, with an injected clock: two workers on one
// database run exactly one occurrence per slot, missed slots follow the catch-up policy (a minute
// of grace, `backfill` beyond it, a running worker misses nothing), the worker asks the database
// only when a slot is due, and invalid schedules fail at definition.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type DurableHooks,
  durableHooks,
  type DurableHooksOptions,
  type ScheduledHookPayload,
} from "../../src/hooks/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { freshNamespaces, hookTestSchema } from "../helpers/hook_schema.ts";

const schema = hookTestSchema("cron_test");

/** A clock the test moves; its times stay in the past of the database's, so slots are due. */
function testClock(start: string): { now: () => Date; set(iso: string): void } {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    set(iso: string) {
      current = Date.parse(iso);
    },
  };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("scheduled hooks: definition", () => {
  const adapter = {} as SqlAdapter;
  const base: DurableHooksOptions = { adapter, namespace: "ok", hooks: {} };
  const withHook = (hook: Record<string, unknown>, extra: Partial<DurableHooksOptions> = {}) =>
    durableHooks({ ...base, ...extra, hooks: { report: { handler: () => {}, ...hook } } });

  it("durableHooks() rejects an invalid schedule, time zone or backfill at once", () => {
    assert.throws(
      () => withHook({ schedule: "*/5 * * *" }),
      /^TypeError: The schedule of hook "report" is invalid\. Invalid cron expression "\*\/5 \* \* \*": expected 5 fields/,
    );
    assert.throws(
      () => withHook({ schedule: "0 25 * * *" }),
      /hour field "25": 25 is out of range/,
    );
    assert.throws(
      () => withHook({ schedule: "0 9 * * *", timezone: "Europe/Pariss" }),
      /hook "report" is invalid\. Unknown time zone "Europe\/Pariss"/,
    );
    assert.throws(
      () => withHook({ timezone: "UTC" }),
      /has a timezone or backfill but no schedule/,
    );
    assert.throws(
      () => withHook({ schedule: "@daily", backfill: "soon" }),
      /backfill of hook "report" must be a duration/,
    );
    assert.throws(
      () => withHook({ schedule: "@daily", backfill: "1h" }, { retention: { done: "30m" } }),
      /retention\.done \(1800000 ms\) must be at least the look-back of the scheduled hooks .*3660000 ms/,
    );
    assert.throws(
      () => withHook({ schedule: "@daily" }, { now: 5 as never }),
      /now must be a function/,
    );
    assert.doesNotThrow(() =>
      withHook({ schedule: "@daily", timezone: "Asia/Tokyo", backfill: "1h" }, {
        retention: { done: "2h" },
      })
    );
  });

  it("a rerunSafe scheduled hook does not bound retention.done (running a slot twice is harmless)", () => {
    assert.doesNotThrow(() =>
      withHook({ schedule: "@daily", rerunSafe: true, backfill: "1h" }, {
        retention: { done: "0s" },
      })
    );
    // Another, strict, scheduled hook still does.
    assert.throws(
      () =>
        durableHooks({
          ...base,
          retention: { done: "0s" },
          hooks: {
            purge: { handler: () => {}, schedule: "@daily", rerunSafe: true },
            report: { handler: () => {}, schedule: "@daily" },
          },
        }),
      /retention\.done \(0 ms\) must be at least the look-back of the scheduled hooks .*60000 ms/,
    );
  });
});

forEachAdapter((name, getAdapter) => {
  const freshNamespace = freshNamespaces(getAdapter, schema, `cron_${name}`);

  async function keys(namespace: string): Promise<Array<{ key: string; status: string }>> {
    return await getAdapter().query<{ key: string; status: string }>(
      `SELECT key, status FROM "${namespace}".hook_occurrences ORDER BY key`,
    );
  }

  it(`${name}: two workers on one database run exactly one occurrence per slot`, async () => {
    const namespace = await freshNamespace();
    const clock = testClock("2026-01-05T10:00:30Z");
    const runs: Array<{ worker: string; id: string; scheduledFor: string }> = [];
    const worker = (label: string): DurableHooks =>
      durableHooks({
        adapter: getAdapter(),
        namespace,
        now: clock.now,
        pollIntervalMs: 50,
        hooks: {
          tick: {
            schedule: "* * * * *",
            handler: (payload: ScheduledHookPayload, context) => {
              runs.push({ worker: label, id: context.id, scheduledFor: payload.scheduledFor });
            },
          },
        },
        onError: (error) => assert.fail(error as Error),
      });
    const a = worker("a");
    const b = worker("b");
    await Promise.all([a.start(), b.start()]);
    try {
      // Both start at 10:00:30: both insert the 10:00 slot (within the minute of grace).
      await until(() => runs.length === 1, "the 10:00 slot");
      for (const minute of ["01", "02", "03", "04", "05"]) {
        clock.set(`2026-01-05T10:${minute}:00.500Z`);
        a.wake();
        b.wake();
        await until(() => runs.length === Number(minute) + 1, `the 10:${minute} slot`);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    // A late duplicate would be inserted by a look at the schedule or be left due: one more look
    // and run by each worker, at the same time, shows it instead of waiting for it.
    assert.deepEqual(await Promise.all([a.drain(), b.drain()]), [
      { done: 0, retried: 0, failed: 0 },
      { done: 0, retried: 0, failed: 0 },
    ]);
    const slots = runs.map((run) => run.scheduledFor).sort();
    assert.deepEqual(slots, [0, 1, 2, 3, 4, 5].map((m) => `2026-01-05T10:0${m}:00.000Z`));
    assert.equal(new Set(runs.map((run) => run.id)).size, 6);
    assert.deepEqual(
      await keys(namespace),
      [0, 1, 2, 3, 4, 5].map((m) => ({ key: `cron:2026-01-05T10:0${m}Z`, status: "done" })),
    );
  });

  it(`${name}: concurrent first ticks of two workers insert each slot once`, async () => {
    const namespace = await freshNamespace();
    const clock = testClock("2026-01-06T12:00:10Z");
    const ran: string[] = [];
    const make = () =>
      durableHooks({
        adapter: getAdapter(),
        namespace,
        now: clock.now,
        hooks: {
          tick: {
            schedule: "*/2 * * * *",
            backfill: "30m",
            handler: (payload: ScheduledHookPayload) => {
              ran.push(payload.scheduledFor);
            },
          },
        },
      });
    // Both look back 31 minutes at once: 16 slots (11:30 … 12:00), each inserted by one of them.
    const results = await Promise.all([make().drain(), make().drain()]);
    assert.equal(results[0].done + results[1].done, 16);
    assert.equal(ran.length, 16);
    assert.equal(new Set(ran).size, 16);
    assert.equal(ran.sort()[0], "2026-01-06T11:30:00.000Z");
    assert.equal((await keys(namespace)).length, 16);
  });

  it(`${name}: missed slots: a minute of grace, backfill beyond it, none lost while running`, async () => {
    const namespace = await freshNamespace();
    const clock = testClock("2026-01-07T10:00:10Z");
    const make = (backfill?: string) =>
      durableHooks({
        adapter: getAdapter(),
        namespace,
        now: clock.now,
        hooks: { tick: { schedule: "* * * * *", backfill, handler: () => {} } },
      });
    const slotKeys = async () => (await keys(namespace)).map((row) => row.key.slice(16, 21));

    assert.equal((await make().drain()).done, 1);
    assert.deepEqual(await slotKeys(), ["10:00"]);

    // Ten minutes of downtime, then a new worker: the slots 10:01 … 10:09 are skipped; 10:10 is
    // within the minute of grace.
    clock.set("2026-01-07T10:10:10Z");
    assert.equal((await make().drain()).done, 1);
    assert.deepEqual(await slotKeys(), ["10:00", "10:10"]);

    // A worker straddling the slot (stopped at 10:10:30, the next one starting at 10:11:50) does
    // not lose it.
    clock.set("2026-01-07T10:11:50Z");
    assert.equal((await make().drain()).done, 1);
    assert.deepEqual(await slotKeys(), ["10:00", "10:10", "10:11"]);

    // With a backfill of five minutes, a worker starting at 10:20:10 inserts 10:15 … 10:20
    // (five minutes plus the minute of grace), not 10:12 … 10:14.
    clock.set("2026-01-07T10:20:10Z");
    const backfilling = make("5m");
    assert.equal((await backfilling.drain()).done, 6);
    assert.deepEqual((await slotKeys()).slice(3), [
      "10:15",
      "10:16",
      "10:17",
      "10:18",
      "10:19",
      "10:20",
    ]);

    // The same worker, a quarter of an hour later (its loop was blocked, or a drain per quarter
    // hour): every slot since its last look, beyond the backfill.
    clock.set("2026-01-07T10:35:00Z");
    assert.equal((await backfilling.drain()).done, 15);
    const all = await slotKeys();
    assert.equal(all.length, 3 + 6 + 15);
    assert.deepEqual(all.slice(-2), ["10:34", "10:35"]);
    assert.ok((await keys(namespace)).every((row) => row.status === "done"));
  });

  it(`${name}: a worker stopped and started again looks back like after downtime`, async () => {
    const namespace = await freshNamespace();
    const clock = testClock("2026-01-09T10:00:10Z");
    const ran: string[] = [];
    const hooks = durableHooks({
      adapter: getAdapter(),
      namespace,
      now: clock.now,
      pollIntervalMs: 50,
      hooks: {
        tick: {
          schedule: "* * * * *",
          handler: (payload: ScheduledHookPayload) => {
            ran.push(payload.scheduledFor.slice(11, 16));
          },
        },
      },
    });
    await hooks.start();
    await until(() => ran.length === 1, "the 10:00 slot");
    await hooks.stop();
    clock.set("2026-01-09T10:10:10Z");
    await hooks.start();
    try {
      await until(() => ran.length === 2, "the 10:10 slot");
    } finally {
      await hooks.stop();
    }
    // Nothing else is due or inserted by one more look (no slot of the downtime is backfilled).
    assert.deepEqual(await hooks.drain(), { done: 0, retried: 0, failed: 0 });
    assert.deepEqual(ran, ["10:00", "10:10"]);
  });

  it(`${name}: reads the schedule in its time zone`, async () => {
    const namespace = await freshNamespace();
    const clock = testClock("2026-01-08T08:00:20Z");
    const seen: ScheduledHookPayload[] = [];
    const hooks = durableHooks({
      adapter: getAdapter(),
      namespace,
      now: clock.now,
      hooks: {
        morning: {
          schedule: "0 9 * * MON-FRI",
          timezone: "Europe/Paris",
          handler: (payload: ScheduledHookPayload) => {
            seen.push(payload);
          },
        },
      },
    });
    assert.equal((await hooks.drain()).done, 1); // 09:00 in Paris, a Thursday
    assert.deepEqual(seen, [{ scheduledFor: "2026-01-08T08:00:00.000Z" }]);
    assert.deepEqual(await keys(namespace), [{ key: "cron:2026-01-08T08:00Z", status: "done" }]);
    const occurrence = await hooks.find("morning", "cron:2026-01-08T08:00Z");
    assert.deepEqual(occurrence?.payload, { scheduledFor: "2026-01-08T08:00:00.000Z" });
    // The next weekday at 09:00 Paris time is Friday; nothing before it.
    clock.set("2026-01-09T07:59:59Z");
    assert.equal((await hooks.drain()).done, 0);
    clock.set("2026-01-09T08:00:01Z");
    assert.equal((await hooks.drain()).done, 1);
    assert.deepEqual(seen.at(-1), { scheduledFor: "2026-01-09T08:00:00.000Z" });
  });

  it(`${name}: a running worker asks the database only when a slot is due`, async () => {
    const namespace = await freshNamespace();
    // The test's clock, which counts the worker's looks at it (at least one per loop turn).
    let time = Date.parse("2026-01-10T10:00:30Z");
    let looks = 0;
    const now = () => {
      looks++;
      return new Date(time);
    };
    let inserts = 0;
    const db = getAdapter();
    const counting = new Proxy(db, {
      get(target, property) {
        if (property === "query") {
          return (sql: string, params?: readonly unknown[]) => {
            if (sql.includes("jsonb_to_recordset")) inserts++;
            return target.query(sql, params);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ran: string[] = [];
    const hooks = durableHooks({
      adapter: counting,
      namespace,
      now,
      pollIntervalMs: 20,
      hooks: {
        every5: {
          schedule: "*/5 * * * *",
          handler: (payload: ScheduledHookPayload) => {
            ran.push(payload.scheduledFor);
          },
        },
      },
    });
    await hooks.start();
    try {
      // Twenty minutes in steps of thirty seconds, a loop turn each: four slots after the first.
      for (let step = 0; step < 40; step++) {
        time += 30_000;
        const seen = looks;
        hooks.wake();
        await until(() => looks > seen, "a look at the clock");
      }
      await until(() => ran.length >= 4, "four slots");
    } finally {
      await hooks.stop();
    }
    // One insert per slot (the last one may not have run yet), never one per loop turn.
    assert.ok(
      inserts >= ran.length && inserts <= ran.length + 1,
      `${inserts} inserts for ${ran.length} slots`,
    );
    assert.ok(ran.every((slot) => /:[0-5][05]:00\.000Z$/.test(slot)), ran.join(", "));
  });
});
