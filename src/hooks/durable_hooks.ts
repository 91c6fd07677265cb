/**
 * Durable hooks: a transactional outbox with a worker. A module enqueues occurrences inside its
 * own transaction; workers (in this process and others, on the same database) claim due
 * occurrences with `FOR UPDATE SKIP LOCKED` and a lease, run the handlers outside any
 * transaction, and retry failures with exponential backoff until `maxAttempts`. A hook with a
 * cron `schedule` gets one occurrence per slot, inserted by whichever worker sees it due first.
 *
 * @module
 */

import process from "node:process";
import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import { HOOK_CHANNEL, HookEnqueueStore } from "./hook_enqueue_store.ts";
import { HookOperatorStore } from "./hook_operator_store.ts";
import { HookTableProbe } from "./hook_table_probe.ts";
import { HookWorkerStore } from "./hook_worker_store.ts";
import { HookRunner } from "./hook_runner.ts";
import { insertOccurrences } from "./hook_enqueue_many.ts";
import { createHookAdmin } from "./hook_admin.ts";
import type { HookOccurrence } from "./hook_operations.ts";
import type {
  DrainOptions,
  DrainResult,
  DurableHooks,
  DurableHooksOptions,
  EnqueueResult,
  EnqueueSql,
  EnqueueSqlOptions,
  HookContext,
  HookDefinition,
  HookOccurrenceInput,
  HookQuerier,
  HookRetention,
  StatusJoinSql,
  StatusJoinSqlOptions,
} from "./hook_types.ts";
import { assertName } from "../schema/schema_state.ts";
import { hookRetentionMs } from "./hook_duration.ts";
import { HookScheduler, type ScheduledHook, scheduledHook } from "./hook_schedule.ts";
import { DatabaseClosedError, DatabaseUnavailableError } from "../sql/adapter_errors.ts";
import type { JsonValue } from "../schema/column.ts";

/** How long a loop waits before looking again when due rows are locked by another worker. */
const LOCKED_RETRY_MS = 50;

/** The shortest wait of drain() before it looks again for an occurrence due but not claimed. */
const DRAIN_RECHECK_MS = 10;

/** The longest interval between two automatic purges of done occurrences (`retention`). */
const PURGE_INTERVAL_MS = 60_000;

/** The most one automatic purge deletes; the next one takes the rest. */
const PURGE_LIMIT = 5000;

/** The shortest interval between two cross-process wake-ups sent by `wake()`. */
const NOTIFY_INTERVAL_MS = 20;

/**
 * On a database with one connection (PGlite), how long a started worker holds its first claim
 * back: see `loop()`.
 */
const SINGLE_CONNECTION_FIRST_CLAIM_DELAY_MS = 1000;

/**
 * Creates the durable hooks of one namespace. The namespace's schema must include the hook table
 * (`withHookTable`). Nothing runs until {@link DurableHooks.start} (called at the module's first
 * request, or by `serve()`, when the hooks are a module's `background`) or
 * {@link DurableHooks.drain}; until then occurrences wait in the database, none is lost.
 *
 * Wake-up: `enqueue()` sends `NOTIFY` inside the transaction, so every worker listening on the
 * database (this process or another) looks for work as soon as it commits. `wake()`, called after
 * a commit, wakes this process's worker without a round trip and the others with a coalesced
 * `NOTIFY` sent outside any transaction (at most one per 20 ms) — the way for statements built
 * with `enqueueSql()`, whose transactions then send no notification (a transaction that
 * notifies serializes its commit on PostgreSQL's notification queue lock). Polling every
 * `pollIntervalMs` bounds the delay when a notification is missed or unavailable.
 *
 * @param options The database, namespace, hooks and retry/lease settings.
 * @returns The hooks: enqueue, worker control, inspection.
 * @throws {TypeError} For an invalid namespace, hook name or setting.
 *
 * @example Enqueue in a transaction, run in the background
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { migrate } from "@app/fragment-cli/migrate";
 * import { durableHooks, withHookTable } from "@app/fragment-cli/hooks";
 * import { pgliteAdapter } from "@app/fragment-cli/sql";
 *
 * const mailer = defineSchema("mailer", (s) =>
 *   withHookTable(s.createTable("mails", { id: column.uuid().primaryKey().defaultRandom() })));
 * const db = pgliteAdapter();
 * await migrate(db, mailer);
 * const hooks = durableHooks({
 *   adapter: db,
 *   namespace: "mailer",
 *   hooks: {
 *     sendWelcome: async (payload, { id, attempt }) => {
 *       console.log(`occurrence ${id}, attempt ${attempt}:`, payload);
 *     },
 *   },
 * });
 * await db.transaction(async (tx) => {
 *   await tx.query(`INSERT INTO mailer.mails DEFAULT VALUES`);
 *   await hooks.enqueue(tx, { name: "sendWelcome", key: "user-42", payload: { userId: 42 } });
 * });
 * await hooks.drain(); // or hooks.start() for a long-running worker
 * await db.close();
 * ```
 */
export function durableHooks(options: DurableHooksOptions): DurableHooks {
  const { adapter, namespace } = options;
  assertName(namespace, "Durable hooks namespace");
  const definitions = normalizeHooks(options.hooks);
  const scheduler = schedulerOf(namespace, definitions, options);
  const settings = {
    maxAttempts: positiveInteger(options.maxAttempts, 12, "maxAttempts"),
    retryDelayMs: positiveInteger(options.retryDelayMs, 1000, "retryDelayMs"),
    maxRetryDelayMs: positiveInteger(options.maxRetryDelayMs, 600_000, "maxRetryDelayMs"),
    leaseMs: positiveInteger(options.leaseMs, 60_000, "leaseMs"),
    pollIntervalMs: positiveInteger(options.pollIntervalMs, 2000, "pollIntervalMs"),
    concurrency: positiveInteger(options.concurrency, 4, "concurrency"),
  };
  const onError = options.onError ?? defaultOnError(namespace);
  const retentionMs = retentionOf(options.retention);
  if (retentionMs !== null && !scheduler.empty && retentionMs < scheduler.longestCatchUpMs) {
    // A purged slot inside the look-back of a starting worker would be inserted and run again.
    throw new TypeError(
      `retention.done (${retentionMs} ms) must be at least the look-back of the scheduled hooks ` +
        `(one minute plus their longest backfill: ${scheduler.longestCatchUpMs} ms)`,
    );
  }
  const probe = new HookTableProbe(namespace);
  const store = new HookEnqueueStore(probe);
  const operatorStore = new HookOperatorStore(probe);
  // Purges at most once per interval: the retention itself when shorter than a minute (so `0s`
  // purges at every look for work), else once a minute.
  const purgeEveryMs = retentionMs === null ? null : Math.min(retentionMs, PURGE_INTERVAL_MS);
  let lastPurgeAt = Number.NEGATIVE_INFINITY;
  async function purgeIfDue(): Promise<void> {
    if (retentionMs === null || performance.now() - lastPurgeAt < purgeEveryMs!) return;
    lastPurgeAt = performance.now();
    await operatorStore.purgeDone(adapter, retentionMs, PURGE_LIMIT);
  }
  const runner = new HookRunner({
    adapter,
    namespace,
    store: new HookWorkerStore(probe),
    hooks: definitions,
    ...settings,
    workerId: `${process.pid}:${crypto.randomUUID().slice(0, 8)}`,
    onError,
  });

  let started = false;
  let stopping = false;
  let loopDone: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let wakePending = false;
  let interrupt: (() => void) | undefined;

  /** Set while a PGlite worker holds its first claim back (see `loop()`): wake-ups wait for it. */
  let holdingFirstClaim = false;

  function wakeLocal(): void {
    if (!started) return;
    if (interrupt && !holdingFirstClaim) interrupt();
    else wakePending = true;
  }
  runner.onSettled = wakeLocal;

  // At most one NOTIFY every NOTIFY_INTERVAL_MS, and one in flight at a time: under load,
  // wake() runs per request and a NOTIFY per call would add a statement to each. A call made
  // while one is in flight asks for one more after it, so every commit that preceded a wake()
  // is followed by a notification sent after it.
  let notifying = false;
  let notifyAgain = false;
  let notifyTimer: ReturnType<typeof setTimeout> | undefined;
  let lastNotifyAt = Number.NEGATIVE_INFINITY;
  function notifyOthers(): void {
    if (notifyTimer !== undefined) return; // the scheduled one is sent after this call
    if (notifying) {
      notifyAgain = true;
      return;
    }
    const wait = lastNotifyAt + NOTIFY_INTERVAL_MS - performance.now();
    if (wait > 0) {
      // A wake-up, not work: it must not keep a process alive whose server has stopped.
      notifyTimer = setTimeout(sendNotify, wait).unref();
      return;
    }
    sendNotify();
  }
  function sendNotify(): void {
    notifyTimer = undefined;
    notifying = true;
    lastNotifyAt = performance.now();
    store.notify(adapter)
      .catch((error) => {
        // A closed adapter has no workers left to wake; polling covers any other failure.
        if (!(error instanceof DatabaseUnavailableError)) onError(error);
      })
      .finally(() => {
        notifying = false;
        if (notifyAgain) {
          notifyAgain = false;
          notifyOthers();
        }
      });
  }

  function wake(): void {
    wakeLocal();
    notifyOthers();
  }

  /** Waits `ms`, or less: until a wake-up (unless the first claim is held back) or `stop()`. */
  function sleep(ms: number): Promise<void> {
    if (stopping || (wakePending && !holdingFirstClaim)) {
      wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        interrupt = undefined;
        resolve();
      };
      // The idle wait between two looks does not keep the process alive: a process that embeds a
      // module lives as long as its server (or whatever else it waits for), not its worker.
      const timer = setTimeout(done, ms).unref();
      interrupt = done;
    });
  }

  async function subscribe(): Promise<void> {
    if (unlisten) return;
    unlisten = await adapter.listen(HOOK_CHANNEL, (payload) => {
      if (payload === namespace) wakeLocal();
    });
  }

  // The loop is created by start(), so it (and the handlers it launches) runs in start()'s async
  // context, never inside the transaction of whoever calls wake().
  async function loop(): Promise<void> {
    let failing = false;
    // PGlite runs one statement at a time, on the thread that also sends the responses, and the
    // first look for work (a claim transaction and the next due time, per namespace, on code
    // PGlite compiles at its first call) took about 100 ms: the requests that reach a server
    // right after it starts waited behind it (`serve`'s first answer came 90 – 220 ms after it
    // listened, 45 – 125 ms without that look), and so did the first answer when its own wake()
    // started the look (about 150 ms more CPU before it was out). So on PGlite the worker listens
    // at once, then holds its first claim back for a delay; a notification or wake() heard
    // meanwhile is kept and answered by that first claim.
    if (adapter.kind === "pglite") {
      holdingFirstClaim = true;
      try {
        await subscribe();
        await sleep(SINGLE_CONNECTION_FIRST_CLAIM_DELAY_MS);
      } catch (error) {
        // The loop below tries again and reports a lasting failure.
        if (error instanceof DatabaseClosedError) return;
      } finally {
        holdingFirstClaim = false;
        wakePending = false;
      }
    }
    while (!stopping) {
      let delay = settings.pollIntervalMs;
      try {
        await subscribe();
        await purgeIfDue();
        await scheduler.tick(adapter);
        // Nothing to claim for (slots taken, enough claimed ahead): a finishing attempt wakes
        // the loop. Read before the claim, not after: handlers that ended meanwhile would
        // otherwise make a claim that took nothing look like an empty table.
        const asked = runner.free;
        const claimed = asked === 0 ? -1 : await runner.fill();
        if (claimed < 0 || runner.free === 0) {
          delay = settings.pollIntervalMs;
        } else if (claimed >= asked || wakePending) {
          // More may be due: a full claim, or a notification heard while it was out (the
          // claim's snapshot may predate that commit). Not a look at the next due time first:
          // at a steady trickle, that round trip delayed every occurrence enqueued meanwhile.
          wakePending = false;
          delay = 0;
        } else {
          // A partial claim took everything due at its snapshot (or all that others had not
          // locked): what comes later is announced, so ask when the next one is due instead
          // of claiming again at once (the claim that found nothing cost a round trip per wake).
          // Under a webhook load on PGlite this also halves the next-due queries (685 → 399 for
          // 5,000 deliveries), each planned afresh with 13 file-size lookups.
          const next = await runner.nextDueIn();
          if (next !== null) {
            delay = Math.min(settings.pollIntervalMs, next === 0 ? LOCKED_RETRY_MS : next);
          }
        }
        const untilSlot = scheduler.msUntilNext();
        // One millisecond late rather than early: a timer that fires early finds nothing due.
        if (untilSlot !== null) delay = Math.min(delay, untilSlot + 1);
        failing = false;
      } catch (error) {
        // The application closed the database under a running worker (it shut down without
        // closing the module first): nothing can run any more, and there is nothing to report.
        if (error instanceof DatabaseClosedError) return;
        // Report once per outage, not at every poll.
        if (!failing) onError(error);
        failing = true;
      }
      // More may be due: look again after this turn (a timer of 0 waits a millisecond or more,
      // between every two claims of a backlog).
      if (delay === 0) await new Promise((resolve) => setImmediate(resolve));
      else await sleep(delay);
    }
  }

  const hooks: DurableHooks = {
    // The operator API (get, find, list, retry, retryFailed, cancel, purgeDone, counts, exists):
    // the one of hookAdmin(), which also wakes this worker after a retry.
    ...createHookAdmin(adapter, probe, wakeLocal),
    names: Object.freeze([...definitions.keys()]),
    get running(): boolean {
      return started;
    },
    async enqueue(tx: HookQuerier, occurrence: HookOccurrenceInput): Promise<EnqueueResult> {
      checkOccurrence(occurrence, definitions);
      return await store.insert(tx, occurrence);
    },
    async enqueueMany(
      tx: HookQuerier,
      occurrences: readonly HookOccurrenceInput[],
    ): Promise<EnqueueResult[]> {
      for (const occurrence of occurrences) checkOccurrence(occurrence, definitions);
      const results = await insertOccurrences(tx, probe.table, occurrences);
      if (results.some((result) => !result.duplicate)) await store.notify(tx);
      return results;
    },
    enqueueSql(occurrence: HookOccurrenceInput, sqlOptions: EnqueueSqlOptions = {}): EnqueueSql {
      checkOccurrence(occurrence, definitions);
      const firstParam = firstParamOf(sqlOptions.firstParam);
      return store.insertSql(
        occurrence,
        sqlOptions.from,
        firstParam,
        sqlOptions.payloadSql,
        sqlOptions.keySql,
        sqlOptions.orderKeySql,
        sqlOptions.inOneCall ?? false,
      );
    },
    statusJoinSql(joinOptions: StatusJoinSqlOptions): StatusJoinSql {
      const { name, keySql, alias } = joinOptions;
      if (!definitions.has(name)) {
        throw new TypeError(
          `Unknown hook "${name}"; registered hooks: ${[...definitions.keys()].join(", ")}`,
        );
      }
      if (typeof keySql !== "string" || keySql.trim() === "") {
        throw new TypeError("statusJoinSql() needs keySql: an SQL expression of the row's key");
      }
      return store.statusJoinSql(name, keySql, alias, firstParamOf(joinOptions.firstParam));
    },
    wake,
    async start(): Promise<void> {
      if (started) return;
      started = true;
      stopping = false;
      wakePending = false;
      scheduler.reset(); // a worker that starts looks back like after downtime
      loopDone = loop();
      await Promise.resolve(); // start() resolves once the loop has begun its first look
    },
    async stop(): Promise<void> {
      if (!started) return;
      stopping = true;
      // A stopping worker takes no more hand-offs (see HookRunner.handOff), starts nothing more
      // and gives back what it claimed but did not start.
      runner.handOff = false;
      runner.starting = false;
      interrupt?.();
      await loopDone;
      await runner.releaseWaiting();
      await runner.settleAll();
      runner.handOff = true;
      runner.starting = true;
      const stopListening = unlisten;
      unlisten = undefined;
      started = false;
      await stopListening?.().catch((error) => onError(error));
    },
    async drain(drainOptions: DrainOptions = {}): Promise<DrainResult> {
      const timeoutMs = drainOptions.timeoutMs ?? 60_000;
      const deadline = Date.now() + timeoutMs;
      const finish = runner.count();
      try {
        await scheduler.tick(adapter);
        for (;;) {
          if (Date.now() > deadline) {
            throw new Error(`drain() of hooks "${namespace}" timed out after ${timeoutMs} ms`);
          }
          const settled = runner.settled;
          if ((await runner.fill()) > 0) continue;
          if (runner.busy > 0) {
            await runner.nextLook();
            continue;
          }
          // An attempt of this runner finished while the claim ran: its outcome, committed after
          // the claim's snapshot, may have made an occurrence due (a completion hands its ordering
          // key on to the next occurrence in the same transaction), which the claim could not see.
          if (runner.settled !== settled) continue;
          const next = await runner.nextDueIn();
          if (next === null || (next > 0 && !drainOptions.waitForScheduled)) break;
          // Due now, yet the claim took nothing: another transaction held it (SKIP LOCKED), or
          // committed it after the claim's snapshot (another worker's completion handing a key
          // on). Look again shortly: drain() runs everything due, until its deadline.
          const wait = Math.min(
            Math.max(next, DRAIN_RECHECK_MS),
            Math.max(0, deadline - Date.now()) + 1,
          );
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
        await purgeIfDue();
      } catch (error) {
        finish();
        throw error;
      }
      return finish();
    },
    async describe(occurrence: HookOccurrence): Promise<JsonValue | null> {
      const describe = definitions.get(occurrence.name)?.describe;
      return describe ? (await describe(occurrence)) ?? null : null;
    },
  };
  return hooks;
}

function normalizeHooks(
  hooks: DurableHooksOptions["hooks"],
): Map<string, HookDefinition<unknown>> {
  if (typeof hooks !== "object" || hooks === null) {
    throw new TypeError("durableHooks() needs `hooks`: an object of handlers by hook name");
  }
  const result = new Map<string, HookDefinition<unknown>>();
  for (const [name, hook] of Object.entries(hooks)) {
    if (name.length === 0) throw new TypeError("A hook name must not be empty");
    const definition = typeof hook === "function" ? { handler: hook } : hook;
    if (typeof definition?.handler !== "function") {
      throw new TypeError(`Hook "${name}" needs a handler function`);
    }
    if (definition.maxAttempts !== undefined) {
      positiveInteger(definition.maxAttempts, 1, `hooks.${name}.maxAttempts`);
    }
    result.set(name, definition as HookDefinition<unknown>);
  }
  return result;
}

function schedulerOf(
  namespace: string,
  definitions: ReadonlyMap<string, HookDefinition<unknown>>,
  options: DurableHooksOptions,
): HookScheduler {
  if (options.now !== undefined && typeof options.now !== "function") {
    throw new TypeError("now must be a function returning a Date");
  }
  const clock = options.now;
  const scheduled: ScheduledHook[] = [];
  for (const [name, definition] of definitions) {
    const hook = scheduledHook(name, definition);
    if (hook !== null) scheduled.push(hook);
  }
  return new HookScheduler(
    namespace,
    scheduled,
    clock === undefined ? Date.now : () => clock().getTime(),
  );
}

function retentionOf(retention: HookRetention | undefined): number | null {
  if (retention === undefined) return null;
  const ms = hookRetentionMs(retention);
  if (ms === null) {
    throw new TypeError(
      `retention.done must be a duration such as "7d", "12h", "30m" or "0s", got ` +
        JSON.stringify((retention as { done?: unknown } | null)?.done ?? retention),
    );
  }
  return ms;
}

function firstParamOf(firstParam: number | undefined): number {
  const value = firstParam ?? 1;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`firstParam must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${what} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function checkOccurrence(
  occurrence: HookOccurrenceInput,
  definitions: ReadonlyMap<string, unknown>,
): void {
  if (!definitions.has(occurrence.name)) {
    throw new TypeError(
      `Unknown hook "${occurrence.name}"; registered hooks: ${[...definitions.keys()].join(", ")}`,
    );
  }
  if (occurrence.key !== undefined && typeof occurrence.key !== "string") {
    throw new TypeError(`The key of a "${occurrence.name}" occurrence must be a string`);
  }
  if (occurrence.orderKey !== undefined && typeof occurrence.orderKey !== "string") {
    throw new TypeError(`The orderKey of a "${occurrence.name}" occurrence must be a string`);
  }
  if (
    occurrence.runAt !== undefined &&
    !(occurrence.runAt instanceof Date && Number.isFinite(occurrence.runAt.getTime()))
  ) {
    throw new TypeError(`The runAt of a "${occurrence.name}" occurrence must be a valid Date`);
  }
}

function defaultOnError(namespace: string): (error: unknown, occurrence?: HookContext) => void {
  return (error, occurrence) => {
    if (occurrence) {
      console.error(
        `[hooks ${namespace}] ${occurrence.name} #${occurrence.id} attempt ` +
          `${occurrence.attempt}/${occurrence.maxAttempts} failed:`,
        error,
      );
    } else {
      console.error(`[hooks ${namespace}] worker error:`, error);
    }
  };
}
