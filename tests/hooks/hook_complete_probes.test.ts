// withHookCompletionProbes on PGlite and the PostgreSQL server: hook_complete() finds the rows of
// a batch by primary-key probes, after withHookFunctions alone, with ordering keys, and after the
// hand-off's index walk; it marks done only the attempts still held (an attempt taken over by
// another claim, a later attempt number, stays running), and drains keep each key in order.
import { it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  durableHooks,
  withHookCompletionProbes,
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
      "probes_test",
      (s) =>
        withHookCompletionProbes(withHookFunctions(withHookTable(s.createTable("items", items())))),
    ),
    false,
  ],
  [
    "ordering",
    defineSchema("probes_test", (s) =>
      withHookCompletionProbes(
        withHookFunctions(withHookOrdering(withHookTable(s.createTable("items", items())))),
      )),
    true,
  ],
  [
    "index walk",
    defineSchema(
      "probes_test",
      (s) =>
        withHookCompletionProbes(withHookHandOffLookup(withHookHandOff(withHookFunctions(
          withHookOrdering(withHookTable(s.createTable("items", items()))),
        )))),
    ),
    true,
  ],
] as const;

it("withHookCompletionProbes refuses a schema without withHookFunctions, adds one version", () => {
  assert.throws(
    () => defineSchema("no_functions", (s) => withHookCompletionProbes(withHookTable(s))),
    /after it/,
  );
  const functions = defineSchema(
    "v",
    (s) => withHookFunctions(withHookTable(s.createTable("items", items()))),
  );
  assert.equal(VARIANTS[0][1].version, functions.version + 1);
});

for (const [variant, schema, ordered] of VARIANTS) {
  forEachAdapter((adapterName, getAdapter) => {
    const name = `${adapterName}, ${variant}`;
    let count = 0;
    async function setUp() {
      const namespace = `probes_${adapterName}_${variant.replace(" ", "_")}_${++count}`;
      await migrate(getAdapter(), schema, { namespace });
      return namespace;
    }

    it(`${name}: only the attempts still held are marked done`, async () => {
      const db = getAdapter();
      const namespace = await setUp();
      const table = `"${namespace}".hook_occurrences`;
      const [a, b] = await db.query<{ id: string }>(
        `INSERT INTO ${table} (name, status, attempts) VALUES ('work', 'running', 1),
           ('work', 'running', 2) RETURNING id::text AS id`,
      );
      // b's attempt 1 was taken over (attempt 2 runs now): its completion is stale.
      const rows = await db.query<{ outcome: string; id: string }>(
        `SELECT outcome, id::text AS id FROM "${namespace}".hook_complete($1::int8[], $2::int4[],
           $3::text[], '{}'::text[], 1000, 'w')`,
        [[a.id, b.id], [1, 1], [null, null]],
      );
      assert.deepEqual(rows, [{ outcome: "done", id: a.id }]);
      const statuses = await db.query<{ status: string }>(
        `SELECT status FROM ${table} ORDER BY id`,
      );
      assert.deepEqual(statuses.map((r) => r.status), ["done", "running"]);
    });

    it(`${name}: a drain runs everything once${ordered ? ", each key in order" : ""}`, async () => {
      const db = getAdapter();
      const namespace = await setUp();
      const runs: { key: string | null; seq: number }[] = [];
      const hooks = durableHooks({
        adapter: db,
        namespace,
        hooks: {
          work: (payload) => void runs.push(payload as { key: string | null; seq: number }),
        },
        onError: (error) => console.error(error),
        concurrency: 8,
      });
      const keys = ordered ? ["a", "b", "c", null] : [null];
      const depth = 20;
      await hooks.enqueueMany(
        db,
        Array.from({ length: depth }, (_, seq) =>
          keys.map((key) => ({
            name: "work",
            payload: { key, seq },
            ...(key === null ? {} : { orderKey: key }),
          }))).flat(),
      );
      const total = depth * keys.length;
      assert.deepEqual(await hooks.drain(), { done: total, retried: 0, failed: 0 });
      assert.equal(runs.length, total);
      for (const key of keys.filter((k) => k !== null)) {
        assert.deepEqual(
          runs.filter((r) => r.key === key).map((r) => r.seq),
          Array.from({ length: depth }, (_, i) => i),
          `key ${key} ran in enqueue order`,
        );
      }
      const [{ done }] = await db.query<{ done: number }>(
        `SELECT count(*)::int AS done FROM "${namespace}".hook_occurrences WHERE status = 'done'`,
      );
      assert.equal(done, total);
    });
  });
}
