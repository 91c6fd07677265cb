/**
 * Internal: the batch insert of durable hooks (`enqueueMany`): every occurrence of the batch in
 * one statement, with the deduplication of a single `enqueue()`.
 *
 * @module
 */

import { serializeJson } from "../sql/driver_support.ts";
import type { EnqueueResult, HookOccurrenceInput, HookQuerier } from "./hook_types.ts";
import { KEY_CONFLICT } from "./hook_table.ts";

/**
 * Inserts `inputs` into the hook table `table` (already quoted) in one statement: the batch
 * travels as four parallel arrays, unnested in the caller's order. An existing `(name, key)`,
 * or one repeated inside the batch, inserts nothing and is answered as a duplicate with the id of
 * the row that holds the key. Sends no notification.
 *
 * @returns One result per input, in the order given.
 */
export async function insertOccurrences(
  db: HookQuerier,
  table: string,
  inputs: readonly HookOccurrenceInput[],
): Promise<EnqueueResult[]> {
  if (inputs.length === 0) return [];
  // Payloads go as JSON text, so each element keeps its JSON type (a string payload stays a
  // JSON string) whatever the driver does with arrays of objects; `null` is SQL NULL, like the
  // payload of `enqueue()`.
  const inserted = await db.query<{ id: string; name: string; key: string | null }>(
    `INSERT INTO ${table} (name, key, payload, due_at)
     SELECT name, key, payload::jsonb, COALESCE(run_at, now())
     FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
       WITH ORDINALITY AS batch(name, key, payload, run_at, n)
     ORDER BY n
     ON CONFLICT ${KEY_CONFLICT} DO NOTHING
     RETURNING id::text AS id, name, key`,
    [
      inputs.map((input) => input.name),
      inputs.map((input) => input.key ?? null),
      inputs.map((input) =>
        input.payload === undefined || input.payload === null ? null : serializeJson(input.payload)
      ),
      inputs.map((input) => input.runAt?.toISOString() ?? null),
    ],
  );
  const byKey = new Map<string, string>();
  // Keyless rows never conflict: they are all inserted, with ids in the batch's order.
  const keyless: string[] = [];
  for (const row of inserted) {
    if (row.key === null) keyless.push(String(row.id));
    else byKey.set(keyOf(row.name, row.key), String(row.id));
  }
  keyless.sort(compareIds);

  // Keys that existed before the batch: ON CONFLICT waited for a concurrent inserter to commit,
  // so their rows are visible to this next statement.
  const missing = inputs.filter((input) =>
    input.key !== undefined && !byKey.has(keyOf(input.name, input.key))
  );
  if (missing.length > 0) {
    const existing = await db.query<{ id: string; name: string; key: string }>(
      `SELECT o.id::text AS id, o.name, o.key FROM ${table} AS o
       JOIN unnest($1::text[], $2::text[]) AS wanted(name, key)
         ON o.name = wanted.name AND o.key = wanted.key`,
      [missing.map((input) => input.name), missing.map((input) => input.key!)],
    );
    for (const row of existing) byKey.set(keyOf(row.name, row.key), String(row.id));
  }

  const insertedIds = new Set(inserted.map((row) => String(row.id)));
  const firstOfKey = new Set<string>();
  let nextKeyless = 0;
  return inputs.map((input) => {
    if (input.key === undefined) return { id: keyless[nextKeyless++], duplicate: false };
    const key = keyOf(input.name, input.key);
    const id = byKey.get(key)!;
    // The first input of a key inserted its row when the row came back from the insert.
    const insertedNow = !firstOfKey.has(key) && insertedIds.has(id);
    firstOfKey.add(key);
    return { id, duplicate: !insertedNow };
  });
}

function keyOf(name: string, key: string): string {
  return JSON.stringify([name, key]);
}

/** Orders decimal id strings numerically. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
