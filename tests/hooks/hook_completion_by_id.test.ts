// withHookCompletionById on PGlite and the PostgreSQL server: it refuses a schema without
// withHookFunctions and adds one version; after withHookFunctions alone, with ordering keys, and
// after either hand-off, hook_complete() marks done exactly the attempts still held (one taken
// over by a later claim, one already finished and one unknown are left alone), with and without
// ordering keys, and hands each finished key on; on PostgreSQL, a completion that waited for a
// row taken over by another claim leaves it to that claim. The drains of every variant run in
// hook_functions.test.ts and hook_hand_off.test.ts; the plans in hook_completion_plans.test.ts.
import { it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  withHookCompletionById,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const items = () => ({ id: column.integer().primaryKey() });
const VARIANTS = [
  [
    "functions",
    defineSchema(
      "by_id_test",
      (s) =>
        withHookCompletionById(withHookFunctions(withHookTable(s.createTable("items", items())))),
    ),
    false,
  ],
  [
    "ordering",
    defineSchema("by_id_test", (s) =>
      withHookCompletionById(
        withHookFunctions(withHookOrdering(withHookTable(s.createTable("items", items())))),
      )),
    true,
  ],
  [
    "hand-off",
    defineSchema("by_id_test", (s) =>
      withHookCompletionById(withHookHandOff(withHookFunctions(
        withHookOrdering(withHookTable(s.createTable("items", items()))),
      )))),
    true,
  ],
  [
    "index walk",
    defineSchema(
      "by_id_test",
      (s) =>
        withHookCompletionById(withHookHandOffLookup(withHookHandOff(withHookFunctions(
          withHookOrdering(withHookTable(s.createTable("items", items()))),
        )))),
    ),
    true,
  ],
] as const;

it("withHookCompletionById refuses a schema without withHookFunctions, adds one version", () => {
  assert.throws(
    () => defineSchema("no_functions", (s) => withHookCompletionById(withHookTable(s))),
    /after it/,
  );
  const functions = defineSchema(
    "v",
    (s) => withHookFunctions(withHookTable(s.createTable("items", items()))),
  );
  assert.equal(VARIANTS[0][1].version, functions.version + 1);
});

forEachAdapter((adapterName, getAdapter) => {
  VARIANTS.forEach(([variant, schema, ordered], n) => {
    let count = 0;
    async function setUp() {
      const namespace = `by_id_${adapterName}_${n}_${++count}`;
      await migrate(getAdapter(), schema, { namespace });
      return { db: getAdapter(), table: `"${namespace}".hook_occurrences`, namespace };
    }
    const keys = ordered ? [null, "k1", "k2"] : [null];

    it(`${adapterName}, ${variant}: only the attempts still held are marked done`, async () => {
      const { db, table, namespace } = await setUp();
      for (const key of keys) {
        const orderKey = ordered ? ", order_key" : "";
        const value = ordered ? ", $1::text" : "";
        // held (attempt 1), taken over (attempt 2 runs now), finished, held at attempt 3.
        const rows = await db.query<{ id: string }>(
          `INSERT INTO ${table} (name, status, attempts${orderKey})
           VALUES ('work', 'running', 1${value}), ('work', 'running', 2${value}),
             ('work', 'done', 1${value}), ('work', 'running', 3${value})
           RETURNING id::text AS id`,
          ordered ? [key] : [],
        );
        const [held, takenOver, finished, third] = rows.map((r) => r.id);
        const unknown = String(BigInt(third) + 1000n);
        const answers = await db.query<{ outcome: string; id: string }>(
          `SELECT outcome, id::text AS id FROM "${namespace}".hook_complete($1::int8[],
             $2::int4[], $3::text[], '{}'::text[], 1000, 'w') AS c ORDER BY c.outcome, c.id`,
          [
            [third, held, takenOver, finished, unknown],
            [3, 1, 1, 1, 1],
            Array(5).fill(key),
          ],
        );
        const done = [held, third].sort((a, b) => Number(a) - Number(b));
        assert.deepEqual(answers, done.map((id) => ({ outcome: "done", id })), `key ${key}`);
        const statuses = await db.query<{ status: string }>(
          `SELECT status FROM ${table} WHERE id = ANY($1::int8[]) ORDER BY id`,
          [[held, takenOver, finished, third]],
        );
        assert.deepEqual(statuses.map((r) => r.status), ["done", "running", "done", "done"]);
      }
    });

    // PostgreSQL only: PGlite has one connection, so no claim can run beside the completion.
    if (adapterName === "postgres") {
      it(`${adapterName}, ${variant}: a claim committed while the completion waits wins`, async () => {
        const { db, table, namespace } = await setUp();
        const [row] = await db.query<{ id: string }>(
          `INSERT INTO ${table} (name, status, attempts) VALUES ('work', 'running', 1)
           RETURNING id::text AS id`,
        );
        // Another worker takes the occurrence over (its lease ran out): attempt 2, uncommitted.
        let commit!: () => void;
        const committing = new Promise<void>((resolve) => (commit = resolve));
        let updated!: () => void;
        const claimed = new Promise<void>((resolve) => (updated = resolve));
        const claim = db.transaction(async (tx) => {
          await tx.query(`UPDATE ${table} SET attempts = 2, leased_by = 'other' WHERE id = $1`, [
            row.id,
          ]);
          updated();
          await committing;
        });
        await claimed;
        const completing = db.query<{ outcome: string }>(
          `SELECT outcome FROM "${namespace}".hook_complete($1::int8[], $2::int4[], $3::text[],
             '{}'::text[], 1000, 'w')`,
          [[row.id], [1], [null]],
        );
        for (let look = 0;; look++) {
          const [{ waiting }] = await db.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (waiting > 0) break;
          assert.ok(look < 500, "the completion waits for the claim's row lock");
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        commit();
        await claim;
        assert.deepEqual(await completing, [], "attempt 1 no longer holds the occurrence");
        const [after] = await db.query<{ status: string; attempts: number }>(
          `SELECT status, attempts FROM ${table} WHERE id = $1`,
          [row.id],
        );
        assert.deepEqual(after, { status: "running", attempts: 2 });
      });
    }

    if (!ordered) return;

    it(`${adapterName}, ${variant}: a finished key's next occurrence goes to the claimant`, async () => {
      const { db, table, namespace } = await setUp();
      const [a, b] = await db.query<{ id: string }>(
        `INSERT INTO ${table} (name, status, attempts, order_key)
         VALUES ('work', 'running', 1, 'ka'), ('work', 'running', 1, 'kb')
         RETURNING id::text AS id`,
      );
      const [nextA, nextB] = await db.query<{ id: string }>(
        `INSERT INTO ${table} (name, status, order_key) VALUES ('work', 'blocked', 'ka'),
           ('work', 'blocked', 'kb') RETURNING id::text AS id`,
      );
      // Without a hand-off step, the ordering trigger releases the next occurrences to pending.
      const answers = await db.query<{ outcome: string; id: string }>(
        `SELECT outcome, id::text AS id FROM "${namespace}".hook_complete($1::int8[],
           $2::int4[], $3::text[], ARRAY['work'], 60000, 'w') AS c ORDER BY c.outcome, c.id`,
        [[a.id, b.id], [1, 1], ["ka", "kb"]],
      );
      assert.deepEqual(answers.map((r) => [r.outcome, r.id]), [
        ["claimed", nextA.id],
        ["claimed", nextB.id],
        ["done", a.id],
        ["done", b.id],
      ]);
      const next = await db.query<{ status: string; leased_by: string; attempts: number }>(
        `SELECT status, leased_by, attempts FROM ${table} WHERE id = ANY($1::int8[]) ORDER BY id`,
        [[nextA.id, nextB.id]],
      );
      assert.deepEqual(next, [
        { status: "running", leased_by: "w", attempts: 1 },
        { status: "running", leased_by: "w", attempts: 1 },
      ]);
    });
  });
});
