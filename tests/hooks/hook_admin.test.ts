// The operator's side of durable hooks on PGlite and the PostgreSQL server: the error log
// (withHookErrorLog, bounded), hookAdmin() on a schema without it, and automatic purging
// (`retention`) by drain() and by the worker.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { durableHooks, hookAdmin, withHookErrorLog, withHookTable } from "../../src/hooks/mod.ts";
import { HOOK_ERROR_LOG_LENGTH } from "../../src/hooks/hook_table.ts";
import { parseHookDuration } from "../../src/hooks/hook_duration.ts";
import { migrate } from "../../src/migrate/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const withLog = defineSchema(
  "ops_log",
  (s) =>
    withHookErrorLog(withHookTable(s.createTable("items", { id: column.integer().primaryKey() }))),
);
const withoutLog = defineSchema(
  "ops_plain",
  (s) => withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
);

const quiet = (): void => {};

function hooksOf(
  adapter: SqlAdapter,
  namespace: string,
  extra: { retention?: { done: string } } = {},
) {
  return durableHooks({
    adapter,
    namespace,
    maxAttempts: HOOK_ERROR_LOG_LENGTH + 5,
    retryDelayMs: 1,
    maxRetryDelayMs: 1,
    pollIntervalMs: 20,
    onError: quiet,
    hooks: {
      fails: (_payload, { attempt }) => {
        throw new Error(`failure ${attempt}`);
      },
      works: () => {},
    },
    ...extra,
  });
}

describe("parseHookDuration()", () => {
  it("reads s, m, h, d and milliseconds; refuses anything else", () => {
    assert.deepEqual(
      ["0s", "90s", "15m", "12h", "30d"].map(parseHookDuration),
      [0, 90_000, 900_000, 43_200_000, 2_592_000_000],
    );
    assert.equal(parseHookDuration(250), 250);
    for (const bad of ["", "1", "1w", "-1d", "1.5h", " 1d"]) {
      assert.equal(parseHookDuration(bad), null);
    }
    assert.equal(parseHookDuration(-1), null);
  });
});

forEachAdapter((name, getAdapter) => {
  it(`${name}: the error log keeps every failed attempt's error with its time, the latest ${HOOK_ERROR_LOG_LENGTH}`, async () => {
    const db = getAdapter();
    await migrate(db, withLog, { namespace: "ops_log" });
    const hooks = hooksOf(db, "ops_log");
    const { id } = await hooks.enqueue(db, { name: "fails", key: "k", payload: { a: 1 } });
    const result = await hooks.drain({ waitForScheduled: true, timeoutMs: 60_000 });
    assert.equal(result.failed, 1);
    const admin = hookAdmin({ adapter: db, namespace: "ops_log" });
    const shown = (await admin.get(id))!;
    assert.equal(shown.status, "failed");
    assert.equal(shown.attempts, HOOK_ERROR_LOG_LENGTH + 5);
    assert.deepEqual(
      shown.errors.map((e) => e.attempt),
      Array.from({ length: HOOK_ERROR_LOG_LENGTH }, (_, i) => i + 6),
    );
    for (const e of shown.errors) {
      assert.match(e.error, new RegExp(`^Error: failure ${e.attempt}\\b`));
      assert.ok(e.at instanceof Date && Number.isFinite(e.at.getTime()));
    }
    assert.ok(shown.errors.every((e, i) => i === 0 || e.at >= shown.errors[i - 1].at));
    assert.deepEqual(await admin.counts(), {
      pending: 0,
      running: 0,
      failed: 1,
      blocked: 0,
      oldestPendingAgeSeconds: null,
    });
  });

  it(`${name}: hookAdmin() works on a hook table without the error log (the last error only)`, async () => {
    const db = getAdapter();
    await migrate(db, withoutLog, { namespace: "ops_plain" });
    const hooks = durableHooks({
      adapter: db,
      namespace: "ops_plain",
      maxAttempts: 2,
      retryDelayMs: 1,
      onError: quiet,
      hooks: { fails: () => Promise.reject(new Error("nope")) },
    });
    const { id } = await hooks.enqueue(db, { name: "fails" });
    await hooks.drain({ waitForScheduled: true });
    const admin = hookAdmin({ adapter: db, namespace: "ops_plain" });
    const shown = (await admin.get(id))!;
    assert.equal(shown.status, "failed");
    assert.deepEqual(shown.errors, []);
    assert.match(shown.lastError!, /^Error: nope/);
    assert.deepEqual((await admin.retry([id, "0000"])).unknown, ["0000"]);
    assert.equal((await admin.get(id))!.status, "failed", "nothing changed with an unknown id");
    assert.deepEqual((await admin.retry([`00${id}`])).changed, [id]);
    assert.equal((await admin.get(id))!.status, "pending");
    assert.equal(await hookAdmin({ adapter: db, namespace: "ops_nowhere" }).exists(), false);
  });

  it(`${name}: retention purges done occurrences after drain(), never failed or pending ones`, async () => {
    const db = getAdapter();
    await migrate(db, withLog, { namespace: "ops_log" });
    const keep = hooksOf(db, "ops_log", { retention: { done: "1d" } });
    const kept = await keep.enqueue(db, { name: "works" });
    await keep.drain();
    assert.equal((await keep.get(kept.id))?.status, "done", "younger than the retention");

    const purging = hooksOf(db, "ops_log", { retention: { done: "0s" } });
    const later = await purging.enqueue(db, {
      name: "works",
      runAt: new Date(Date.now() + 3_600_000),
    });
    const done = await purging.enqueue(db, { name: "works" });
    await purging.drain();
    assert.equal(await purging.get(done.id), null);
    assert.equal(await purging.get(kept.id), null, "every done occurrence past the retention");
    assert.equal((await purging.get(later.id))?.status, "pending");
    assert.equal((await purging.list({ status: "failed" })).occurrences.length, 1);
  });

  it(`${name}: the worker purges with its retention while it runs`, async () => {
    const db = getAdapter();
    await migrate(db, withLog, { namespace: "ops_log" });
    const hooks = hooksOf(db, "ops_log", { retention: { done: "0s" } });
    const { id } = await hooks.enqueue(db, { name: "works" });
    await hooks.start();
    try {
      // Waits for the state, not for a time: the worker runs it, then a later look purges it.
      const deadline = Date.now() + 30_000;
      while ((await hooks.get(id)) !== null) {
        assert.ok(Date.now() < deadline, "purged by the worker");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await hooks.stop();
    }
  });

  it(`${name}: a retention that is not a duration is refused at once`, () => {
    assert.throws(
      () => hooksOf(getAdapter(), "ops_log", { retention: { done: "a week" } }),
      /retention\.done must be a duration such as "7d", "12h", "30m" or "0s", got "a week"/,
    );
  });
});
