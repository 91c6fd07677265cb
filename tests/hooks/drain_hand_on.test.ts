// drain() and ordering keys on the PostgreSQL server: an occurrence that a finishing one hands on
// (blocked → pending) while drain() claims is still run by that drain(), whether the finishing
// attempt was this process's or another worker's. Each race is forced by holding drain()'s claim
// open (its snapshot taken, its empty answer not yet returned) until the hand-on has committed.
// PostgreSQL only: PGlite runs one statement at a time, so nothing commits during a claim there.
// Both worker paths: the SQL functions of withHookFunctions (a claim or a completion is one
// statement, and a completion hands the key on to its own worker) and the transactions used
// without them.
import { it } from "node:test";
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  withHookFunctions,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { quoteQualified, type SqlAdapter, type SqlTransaction } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const schema = defineSchema(
  "drain_hand_on",
  (s) =>
    withHookOrdering(withHookTable(s.createTable("items", { id: column.integer().primaryKey() }))),
);
const functionsSchema = defineSchema(
  "drain_hand_on",
  (s) =>
    withHookFunctions(
      withHookOrdering(
        withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
      ),
    ),
);
const VARIANTS = [["functions", functionsSchema], ["transactions", schema]] as const;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => resolve = r);
  return { promise, resolve };
}

const CLAIM = /SET status = 'running'|"hook_claim"\(/;
const COMPLETE = /SET status = 'done'|"hook_complete"\(/;

/** What a test does around the statements of the hooks' transactions. */
interface Interceptor {
  /** Before a statement runs: may hold it back. */
  before?: (sql: string) => Promise<void>;
  /** After a statement ran, before its answer reaches the caller: may hold the answer back. */
  after?: (sql: string, rows: readonly unknown[]) => Promise<void>;
  /** After a transaction committed, with its statements. */
  committed?: (statements: readonly string[]) => void;
}

/** The adapter with its statements intercepted (a statement outside a transaction is one). */
function intercepted(db: SqlAdapter, interceptor: Interceptor): SqlAdapter {
  const wrap = <Q extends SqlTransaction | SqlAdapter>(tx: Q, statements: string[]): Q =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return async <T>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
          statements.push(sql);
          await interceptor.before?.(sql);
          const rows = await target.query<T>(sql, params);
          await interceptor.after?.(sql, rows);
          return rows;
        };
      },
    });
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "query") {
        return async <T>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
          const statements: string[] = [];
          const rows = await wrap(target, statements).query<T>(sql, params);
          interceptor.committed?.(statements);
          return rows;
        };
      }
      if (property !== "transaction") return Reflect.get(target, property, receiver);
      return async <T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> => {
        const statements: string[] = [];
        const result = await target.transaction((tx) => fn(wrap(tx, statements)));
        interceptor.committed?.(statements);
        return result;
      };
    },
  });
}

/**
 * Holds drain()'s first claim that finds nothing: its statement has run (its snapshot is taken)
 * but its answer reaches the runner only once `release` resolved and the microtasks queued by
 * then have run. `claimed` resolves when that claim has run.
 */
function holdFirstEmptyClaim(release: Promise<void>): {
  after: NonNullable<Interceptor["after"]>;
  claimed: Promise<void>;
} {
  const claimed = deferred();
  let held = false;
  return {
    claimed: claimed.promise,
    after: async (sql, rows) => {
      if (held || !CLAIM.test(sql) || rows.length > 0) return;
      held = true;
      claimed.resolve();
      await release;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

forEachAdapter((adapterName, getAdapter) => {
  if (adapterName !== "postgres") return;
  let count = 0;
  VARIANTS.forEach(([variant, schema]) => {
    const name = `${adapterName}, ${variant}`;
    async function freshNamespace(): Promise<string> {
      const namespace = `drain_hand_on_${++count}`;
      await migrate(getAdapter(), schema, { namespace });
      return namespace;
    }

    it(`${name}: drain() runs the occurrence its own completion hands on while it claims`, async () => {
      const db = getAdapter();
      const namespace = await freshNamespace();
      // The completion of the key's first occurrence waits until drain()'s next claim has taken
      // its snapshot (which sees the second one blocked); that claim answers once it committed.
      const completionCommitted = deferred();
      const hold = holdFirstEmptyClaim(completionCommitted.promise);
      const ran: number[] = [];
      const hooks = durableHooks({
        adapter: intercepted(db, {
          before: async (sql) => {
            if (COMPLETE.test(sql)) await hold.claimed;
          },
          after: hold.after,
          committed: (statements) => {
            if (statements.some((sql) => COMPLETE.test(sql))) completionCommitted.resolve();
          },
        }),
        namespace,
        hooks: { work: (payload) => void ran.push((payload as { seq: number }).seq) },
        onError: (error) => console.error(error),
      });
      for (const seq of [1, 2]) {
        await hooks.enqueue(db, { name: "work", orderKey: "chat", payload: { seq } });
      }
      const result = await hooks.drain({ timeoutMs: 10_000 });
      assert.deepEqual(ran, [1, 2], "the second occurrence ran once the first handed it on");
      assert.deepEqual(result, { done: 2, retried: 0, failed: 0 });
      const rows = await db.query<{ status: string }>(
        `SELECT status FROM ${quoteQualified(namespace, "hook_occurrences")} ORDER BY id`,
      );
      assert.deepEqual(rows.map((r) => r.status), ["done", "done"]);
    });

    it(`${name}: drain() runs the occurrence another worker hands on while it claims`, async () => {
      const db = getAdapter();
      const namespace = await freshNamespace();
      const table = quoteQualified(namespace, "hook_occurrences");
      const committed = deferred();
      const hold = holdFirstEmptyClaim(committed.promise);
      const ran: number[] = [];
      const hooks = durableHooks({
        adapter: intercepted(db, { after: hold.after }),
        namespace,
        hooks: { work: (payload) => void ran.push((payload as { seq: number }).seq) },
        onError: (error) => console.error(error),
      });
      const first = await hooks.enqueue(db, {
        name: "work",
        orderKey: "chat",
        payload: { seq: 1 },
      });
      await hooks.enqueue(db, { name: "work", orderKey: "chat", payload: { seq: 2 } });
      // Another worker runs the first one: leased by it, for a minute.
      await db.query(
        `UPDATE ${table} SET status = 'running', attempts = 1, leased_by = 'other',
         due_at = clock_timestamp() + interval '1 minute' WHERE id = $1`,
        [first.id],
      );
      // It finishes while drain() claims: its completion (which hands the key on) commits after
      // the claim's snapshot.
      const otherWorker = db.transaction(async (tx) => {
        await tx.query(
          `UPDATE ${table} SET status = 'done', leased_by = NULL, finished_at = clock_timestamp()
         WHERE id = $1`,
          [first.id],
        );
        await hold.claimed;
      }).then(committed.resolve);
      const result = await hooks.drain({ timeoutMs: 10_000 });
      await otherWorker;
      assert.deepEqual(ran, [2], "the occurrence handed on by the other worker ran");
      assert.deepEqual(result, { done: 1, retried: 0, failed: 0 });
    });
  });
});
