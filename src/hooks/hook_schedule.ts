/**
 * Scheduled hooks: a hook declared with a cron `schedule` gets one occurrence per slot. Every
 * worker (in any number of processes) computes the slots that came due and inserts them keyed
 * `cron:<slot>`; the hook table's unique `(name, key)` keeps exactly one occurrence per slot, and
 * the occurrence then runs and retries like any other.
 *
 * @module
 */

import type { SqlAdapter } from "../sql/adapter.ts";
import { type CronSchedule, cronSchedule } from "./cron_schedule.ts";
import { HOOK_CHANNEL } from "./hook_enqueue_store.ts";
import { HOOK_TABLE, KEY_CONFLICT } from "./hook_table.ts";
import { parseHookDuration } from "./hook_duration.ts";
import { quoteQualified } from "../sql/sql_identifier.ts";

/**
 * How far back a worker that starts looks for slots: a slot that came due while no worker ran
 * (a restart, a deploy) still runs if it is at most this old, plus the hook's `backfill`.
 */
export const SCHEDULE_GRACE_MS = 60_000;

/** The most slots one hook inserts at once (a long backfill of a frequent schedule). */
export const MAX_SLOTS_PER_TICK = 1000;

/** The key prefix of scheduled occurrences: `cron:2026-11-25T20:30Z`. */
export const SCHEDULE_KEY_PREFIX = "cron:";

/**
 * The payload of a scheduled occurrence: the slot it is for.
 *
 * @example A scheduled hook's handler
 * ```ts
 * import type { HookDefinition, ScheduledHookPayload } from "@app/fragment-cli/hooks";
 *
 * const nightly: HookDefinition<ScheduledHookPayload> = {
 *   schedule: "0 3 * * *",
 *   handler: ({ scheduledFor }) => console.log(`the run of ${scheduledFor}`),
 * };
 * ```
 */
export interface ScheduledHookPayload {
  /** The slot this occurrence is for, as an ISO 8601 UTC time (`2026-11-25T20:30:00.000Z`). */
  scheduledFor: string;
}

/** The schedule options of one hook, as declared. */
export interface HookScheduleInput {
  schedule?: string;
  timezone?: string;
  backfill?: string | number;
  rerunSafe?: boolean;
}

/** A hook's schedule, checked. */
export interface ScheduledHook {
  name: string;
  schedule: CronSchedule;
  /** How far back, beyond the grace, a starting worker inserts missed slots. */
  backfillMs: number;
  /** Whether a slot run twice is harmless (it does not bound `retention`). */
  rerunSafe?: boolean;
}

/**
 * Checks the schedule options of a hook definition; `null` for a hook without a schedule.
 *
 * @throws {TypeError} For an invalid expression, time zone or backfill, or `timezone`/`backfill`
 *   without `schedule`.
 */
export function scheduledHook(name: string, input: HookScheduleInput): ScheduledHook | null {
  if (input.schedule === undefined) {
    if (input.timezone !== undefined || input.backfill !== undefined) {
      throw new TypeError(`Hook "${name}" has a timezone or backfill but no schedule`);
    }
    return null;
  }
  let schedule: CronSchedule;
  try {
    schedule = cronSchedule(input.schedule, input.timezone ?? "UTC");
  } catch (error) {
    throw new TypeError(`The schedule of hook "${name}" is invalid. ${(error as Error).message}`);
  }
  const backfillMs = input.backfill === undefined ? 0 : parseHookDuration(input.backfill);
  if (backfillMs === null) {
    throw new TypeError(
      `The backfill of hook "${name}" must be a duration such as "1h" or "1d", got ` +
        JSON.stringify(input.backfill),
    );
  }
  return { name, schedule, backfillMs, rerunSafe: input.rerunSafe === true };
}

/**
 * The key of a slot's occurrence: `cron:` and the UTC minute, e.g. to find it with
 * `hooks.find(name, scheduleKey(slot))`.
 *
 * @param slot The slot, in epoch milliseconds.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { scheduleKey } from "./hook_schedule.ts";
 *
 * scheduleKey(Date.UTC(2026, 10, 25, 20, 30)); // => "cron:2026-11-25T20:30Z"
 * ```
 */
export function scheduleKey(slot: number): string {
  return `${SCHEDULE_KEY_PREFIX}${new Date(slot).toISOString().slice(0, 16)}Z`;
}

interface HookState {
  hook: ScheduledHook;
  /** The time up to which this worker inserted the slots; `null` until its first tick. */
  doneUntil: number | null;
  /** The next slot after `doneUntil`; `undefined` until computed. */
  next: number | null | undefined;
}

/**
 * Inserts the due slots of a namespace's scheduled hooks. It keeps, per hook, the time up to which
 * it inserted the slots, so a tick before the next slot is pure computation, not a query: the
 * database is asked once per slot per worker.
 */
export class HookScheduler {
  readonly #table: string;
  readonly #namespace: string;
  readonly #now: () => number;
  readonly #hooks: HookState[];

  constructor(namespace: string, hooks: readonly ScheduledHook[], now: () => number) {
    this.#namespace = namespace;
    this.#table = quoteQualified(namespace, HOOK_TABLE);
    this.#now = now;
    this.#hooks = hooks.map((hook) => ({ hook, doneUntil: null, next: undefined }));
  }

  /** Whether any hook has a schedule. */
  get empty(): boolean {
    return this.#hooks.length === 0;
  }

  /**
   * The longest look-back of a starting worker: the grace plus the longest backfill, over the
   * hooks whose slots must not run twice (0 when every scheduled hook is `rerunSafe`).
   */
  get longestCatchUpMs(): number {
    const strict = this.#hooks.filter((state) => !state.hook.rerunSafe);
    if (strict.length === 0) return 0;
    return SCHEDULE_GRACE_MS + Math.max(0, ...strict.map((state) => state.hook.backfillMs));
  }

  /** Forgets what was inserted: the next tick looks back like a starting worker. */
  reset(): void {
    for (const state of this.#hooks) {
      state.doneUntil = null;
      state.next = undefined;
    }
  }

  /**
   * Inserts one occurrence per slot that came due since the last tick (on the first, since the
   * grace plus the hook's backfill), unless one exists; returns how many were inserted. A failed
   * insert leaves the slots to the next tick.
   */
  async tick(db: SqlAdapter): Promise<number> {
    const now = this.#now();
    let inserted = 0;
    for (const state of this.#hooks) {
      if (state.next !== undefined && (state.next === null || state.next > now)) continue;
      const { hook } = state;
      const from = state.doneUntil ?? now - SCHEDULE_GRACE_MS - hook.backfillMs;
      const slots = hook.schedule.between(from, now, MAX_SLOTS_PER_TICK);
      if (slots.length > 0) inserted += await this.#insert(db, hook.name, slots);
      state.doneUntil = Math.max(now, state.doneUntil ?? now);
      state.next = hook.schedule.next(state.doneUntil);
    }
    return inserted;
  }

  /** Milliseconds until the next slot of any hook (0 when one is due), `null` when none comes. */
  msUntilNext(): number | null {
    let soonest: number | null = null;
    for (const state of this.#hooks) {
      if (state.next === undefined) return 0; // never ticked
      if (state.next !== null && (soonest === null || state.next < soonest)) soonest = state.next;
    }
    return soonest === null ? null : Math.max(0, soonest - this.#now());
  }

  /**
   * One statement for all the slots: inserted unless their key exists (another worker, or this
   * one before a restart, inserted it), then one notification when any was new, so the workers
   * of other processes run it at once.
   */
  async #insert(db: SqlAdapter, name: string, slots: readonly number[]): Promise<number> {
    const rows = slots.map((slot) => {
      const scheduledFor = new Date(slot).toISOString();
      const payload: ScheduledHookPayload = { scheduledFor };
      return { key: scheduleKey(slot), payload, due_at: scheduledFor };
    });
    const [{ inserted }] = await db.query<{ inserted: number }>(
      `WITH inserted AS (
         INSERT INTO ${this.#table} (name, key, payload, due_at)
         SELECT $1::text, slot.key, slot.payload, slot.due_at
           FROM jsonb_to_recordset($2::text::jsonb) AS slot(key text, payload jsonb, due_at timestamptz)
         ON CONFLICT ${KEY_CONFLICT} DO NOTHING
         RETURNING id
       )
       SELECT count(*)::int AS inserted,
              (SELECT count(*) FROM (SELECT pg_notify($3, $4) FROM inserted LIMIT 1) AS notified)
                AS notified
         FROM inserted`,
      [name, JSON.stringify(rows), HOOK_CHANNEL, this.#namespace],
    );
    return inserted;
  }
}
