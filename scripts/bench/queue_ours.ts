/**
 * Scenario 10, our side: durable hooks on postgres.js, under Deno, with the worker's SQL functions
 * (`withHookFunctions`, `withHookCompletionById` and `withHookPartialKeyIndex`, as the first-party
 * modules have them). One
 * configuration: the defaults (a pool of 10 connections, 2 s polling with NOTIFY wake-ups), with
 * `concurrency` set by the measurement; single jobs through `enqueue()` on the adapter, batches
 * through `enqueueMany()`.
 *
 * @module
 */
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  type DurableHooks,
  durableHooks,
  withHookCompletionById,
  withHookFunctions,
  withHookPartialKeyIndex,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { postgresAdapter } from "../../src/sql/mod.ts";
import type { JobData, QueueSide } from "./queue_side.ts";

const schema = defineSchema(
  "queue_bench",
  (s) =>
    withHookPartialKeyIndex(withHookCompletionById(withHookFunctions(
      withHookTable(s.createTable("marker", { id: column.integer().primaryKey() })),
    ))),
);

/** Our side of the comparison. */
export function oursSide(url: string): QueueSide {
  const db = postgresAdapter(url);
  let handle: (data: JobData) => void = () => {};
  const create = (concurrency: number): DurableHooks =>
    durableHooks({
      adapter: db,
      namespace: "queue_bench",
      concurrency,
      hooks: { noop: (payload) => handle(payload as unknown as JobData) },
    });
  let hooks = create(4);
  return {
    async setup() {
      await migrate(db, schema);
    },
    async enqueue(data) {
      await hooks.enqueue(db, { name: "noop", payload: { ...data } });
    },
    async enqueueBatch(data) {
      await hooks.enqueueMany(db, data.map((d) => ({ name: "noop", payload: { ...d } })));
    },
    async work(concurrency, handler) {
      handle = handler;
      hooks = create(concurrency);
      await hooks.start();
    },
    async close() {
      await hooks.stop();
      await db.close();
    },
  };
}
