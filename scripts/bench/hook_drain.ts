/**
 * One durable hook drain, in a process of its own, for scenario 11 (and to measure another
 * checkout's code the same way): enqueues `<count>` no-op occurrences in one statement, then
 * times `drain()` at concurrency 16 until none is left, and prints one JSON line
 * `{"count", "ms", "perSecond"}`.
 *
 *   deno run -A scripts/bench/hook_drain.ts <database-url> <namespace> <count> <keys>
 *
 * `<keys>` 0 enqueues unordered occurrences; n > 0 spreads them over n ordering keys (round
 * robin, so each key's chain is `count / n` long). The hooks' code is imported from
 * `HOOK_DRAIN_SRC` (a checkout's `src` directory; default this checkout's): pointing it at another
 * checkout measures that code on the same script, database and machine. Unordered drains only
 * need `withHookTable`, so a checkout without ordering keys can be measured too; the worker's SQL
 * functions (`withHookFunctions`), the direct hand-off (`withHookHandOff`), its index walk
 * (`withHookHandOffLookup`), the completion by id (`withHookCompletionById`) and the partial key
 * index (`withHookPartialKeyIndex`) are appended when the checkout has them.
 *
 * @module
 */
import { existsSync } from "node:fs";
import process from "node:process";
import { pathToFileURL } from "node:url";

const [url, namespace, countText, keysText] = process.argv.slice(2);
const count = Number(countText);
const keys = Number(keysText);
const src = process.env.HOOK_DRAIN_SRC ?? new URL("../../src", import.meta.url).pathname;
// The checkout's schema, SQL, migration and hooks API in one object: `src/db/mod.ts` in checkouts
// from before the split of src/db (issue 19), the four folders' mod.ts after it.
// deno-lint-ignore no-explicit-any
const db: any = existsSync(`${src}/db/mod.ts`)
  ? await import(pathToFileURL(`${src}/db/mod.ts`).href)
  : Object.assign(
    {},
    ...await Promise.all(
      ["sql", "schema", "migrate", "hooks"].map((f) =>
        import(pathToFileURL(`${src}/${f}/mod.ts`).href)
      ),
    ),
  );

const schema = db.defineSchema("drain_bench", (s: unknown) => {
  // deno-lint-ignore no-explicit-any
  const table = db.withHookTable((s as any).createTable("probe", {
    id: db.column.integer().primaryKey(),
  }));
  const ordered = keys > 0 ? db.withHookOrdering(table) : table;
  // The worker's SQL functions, in checkouts that have them (one round trip per claim and
  // completion, hand-off of ordering keys).
  const functions = db.withHookFunctions ? db.withHookFunctions(ordered) : ordered;
  // The direct hand-off of ordering keys, in checkouts that have it (HOOK_DRAIN_HAND_OFF=0
  // leaves it out, for a comparison on the same code).
  const handOff = keys > 0 && db.withHookHandOff && process.env.HOOK_DRAIN_HAND_OFF !== "0"
    ? db.withHookHandOff(functions)
    : functions;
  // The hand-off's lookup by a walk of the ordering index, in checkouts that have it
  // (HOOK_DRAIN_LOOKUP=0 leaves it out).
  const lookup = handOff !== functions && db.withHookHandOffLookup &&
      process.env.HOOK_DRAIN_LOOKUP !== "0"
    ? db.withHookHandOffLookup(handOff)
    : handOff;
  // The completion that finds its rows by id, in checkouts that have it (HOOK_DRAIN_BY_ID=0
  // leaves it out).
  const byId =
    functions !== ordered && db.withHookCompletionById && process.env.HOOK_DRAIN_BY_ID !== "0"
      ? db.withHookCompletionById(lookup)
      : lookup;
  // The `(name, key)` index for keyed occurrences only, in checkouts that have it
  // (HOOK_DRAIN_PARTIAL_KEY=0 leaves it out).
  return db.withHookPartialKeyIndex && process.env.HOOK_DRAIN_PARTIAL_KEY !== "0"
    ? db.withHookPartialKeyIndex(byId)
    : byId;
});
const adapter = db.postgresAdapter(url, { max: 8 });
const plan = db.planMigration(schema, { from: 0, namespace });
// deno-lint-ignore no-explicit-any
await adapter.transaction(async (tx: any) => {
  for (const step of plan.steps) for (const sql of step.statements) await tx.query(sql);
});
const table = `"${namespace}".hook_occurrences`;
// In key lock order, then enqueue order: the order a multi-key writer takes the keys' locks in.
await adapter.query(
  keys > 0
    ? `INSERT INTO ${table} (name, payload, order_key)
       SELECT 'probe', NULL, 'key-' || (n % $2) FROM generate_series(1, $1) AS n
       ORDER BY hashtext('key-' || (n % $2)), n`
    : `INSERT INTO ${table} (name, payload) SELECT 'probe', NULL FROM generate_series(1, $1)`,
  keys > 0 ? [count, keys] : [count],
);
await adapter.query(`ANALYZE ${table}`);
const hooks = db.durableHooks({
  adapter,
  namespace,
  hooks: { probe: () => {} },
  concurrency: 16,
  onError: (error: unknown) => console.error(error),
});
const started = performance.now();
const result = await hooks.drain({ waitForScheduled: true, timeoutMs: 600_000 });
const ms = performance.now() - started;
await adapter.close();
if (result.done !== count) {
  console.error(`drained ${result.done} of ${count}`);
  process.exit(1);
}
console.log(JSON.stringify({ count, ms, perSecond: count / (ms / 1000) }));
