/**
 * The hook tests' schema: one `items` table and the durable hook table, applied in a namespace of
 * the test's choosing straight from its plan (no migration history: each test gets a fresh
 * namespace and drops nothing).
 */
import { withHookFunctions, withHookTable } from "../../src/hooks/mod.ts";
import { planMigration } from "../../src/migrate/mod.ts";
import { column, defineSchema } from "../../src/schema/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";

/**
 * A schema named `name` with an `items` table and the hook table; with `functions`, also the
 * worker's SQL functions (`withHookFunctions`): the worker then claims and completes through them
 * instead of transactions.
 */
export function hookTestSchema(name: string, options: { functions?: boolean } = {}) {
  return defineSchema(name, (s) => {
    const table = withHookTable(s.createTable("items", { id: column.integer().primaryKey() }));
    return options.functions ? withHookFunctions(table) : table;
  });
}

/** Creates the tables of `schema` in `namespace`, in one transaction. */
async function applySchema(
  db: SqlAdapter,
  schema: ReturnType<typeof hookTestSchema>,
  namespace: string,
): Promise<void> {
  const plan = planMigration(schema, { from: 0, namespace });
  await db.transaction(async (tx) => {
    for (const step of plan.steps) {
      for (const statement of step.statements) await tx.query(statement);
    }
  });
}

/**
 * A function giving a new namespace with `schema` applied at each call (`<prefix>_1`, `_2`, …),
 * so tests do not see each other's occurrences.
 */
export function freshNamespaces(
  getAdapter: () => SqlAdapter,
  schema: ReturnType<typeof hookTestSchema>,
  prefix: string,
): () => Promise<string> {
  let count = 0;
  return async () => {
    const namespace = `${prefix}_${++count}`;
    await applySchema(getAdapter(), schema, namespace);
    return namespace;
  };
}
