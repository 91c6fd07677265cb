// hook_complete() on the PostgreSQL server never scans the hook table, whatever it holds and
// whatever its statistics say. The first-party modules' function (withHookCompletionById after the
// hand-off, as the Telegram outbox has it) runs on a table of 20,000 and then 1,000,000 done
// occurrences, analyzed before the running ones arrive (the statistics see none, as after a
// backlog was enqueued): batches of 1 and 2,000 attempts, without ordering keys and with one key
// each (the hand-off claims each key's next occurrence). The other functions the step writes
// (after withHookFunctions alone, with ordering keys, after the first hand-off) run the same
// batches on 20,000 done occurrences, where the joins they replace read the whole primary key.
// The plans of the function's own statements are read with auto_explain (nested statements, sent
// to this session as notices), with custom and with generic plans: every scan of the hook table
// must be bounded by an index condition on its index's leading column and read at most a few rows
// per attempt (auto_explain ships with PostgreSQL's contrib; the test loads it as the superuser the
// test server is used as). Runs under Deno only: it is PostgreSQL's planner that is tested, and
// filling the table is most of its time.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import {
  withHookCompletionById,
  withHookFunctions,
  withHookHandOff,
  withHookOrdering,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { telegramOutboxSchema } from "../../src/messenger/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { defineSchema, type Schema } from "../../src/schema/mod.ts";
import { postgresAdapter } from "../../src/sql/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";

/** A schema whose completion is checked, the table sizes it is checked at, and whether ordered. */
interface Variant {
  label: string;
  schema: Schema<never>;
  sizes: readonly number[];
  ordered: boolean;
}

const VARIANTS: readonly Variant[] = [
  {
    label: "first-party (Telegram outbox)",
    schema: telegramOutboxSchema as unknown as Schema<never>,
    sizes: [20_000, 1_000_000],
    ordered: true,
  },
  {
    label: "after withHookFunctions",
    schema: defineSchema(
      "plans_functions",
      (s) => withHookCompletionById(withHookFunctions(withHookTable(s))),
    ) as unknown as Schema<never>,
    sizes: [20_000],
    ordered: false,
  },
  {
    label: "after withHookFunctions with ordering keys",
    schema: defineSchema(
      "plans_ordering",
      (s) => withHookCompletionById(withHookFunctions(withHookOrdering(withHookTable(s)))),
    ) as unknown as Schema<never>,
    sizes: [20_000],
    ordered: true,
  },
  {
    label: "after withHookHandOff",
    schema: defineSchema(
      "plans_hand_off",
      (s) =>
        withHookCompletionById(
          withHookHandOff(withHookFunctions(withHookOrdering(withHookTable(s)))),
        ),
    ) as unknown as Schema<never>,
    sizes: [20_000],
    ordered: true,
  },
];

const underDeno = "Deno" in globalThis;
const skip = !underDeno
  ? "PostgreSQL's plans do not depend on the runtime: Deno only"
  : !enabledAdapters().includes("postgres")
  ? "needs the PostgreSQL server"
  : false;

/** One plan node of EXPLAIN's JSON format (the fields read here). */
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Schema"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** A statement the function ran, with its plan (auto_explain's JSON). */
interface Explained {
  text: string;
  plan: PlanNode;
}

describe("hook_complete() plans on up to 1,000,000 done occurrences (PostgreSQL)", { skip }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  VARIANTS.forEach(({ label, schema, sizes, ordered: withKeys }, n) => {
    it(`${label}: completions read only their rows`, { timeout: 180_000 }, async () => {
      const namespace = `plans_${n}`;
      const adapter = postgresAdapter(database.url, { max: 1 });
      try {
        await migrate(adapter, schema, { namespace });
      } finally {
        await adapter.close();
      }
      const table = `"${namespace}".hook_occurrences`;
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const leading = await leadingColumns(sql, namespace);
        const violations: string[] = [];
        for (const size of sizes) {
          // Done occurrences up to `size`, then fresh statistics: they see no running row.
          await sql.unsafe(
            `INSERT INTO ${table} (name, status, attempts, finished_at)
             SELECT 'work', 'done', 1, now()
             FROM generate_series((SELECT count(*) FROM ${table}) + 1, $1::int8)`,
            [size],
          );
          await sql.unsafe(`ANALYZE ${table}`);
          for (const mode of ["force_custom_plan", "force_generic_plan"]) {
            const batches: [number, boolean][] = [
              [1, false],
              [2_000, false],
              ...(withKeys ? [[1, true], [2_000, true]] as [number, boolean][] : []),
            ];
            for (const [batch, ordered] of batches) {
              const where = `${size} done, ${mode}, batch of ${batch}${ordered ? " ordered" : ""}`;
              const statements = await completeExplained(
                database.url,
                namespace,
                mode,
                batch,
                ordered,
              );
              assert.ok(
                statements.some((s) => /UPDATE/i.test(s.text)),
                `${where}: auto_explain saw the function's updates`,
              );
              for (const statement of statements) {
                for (const scan of tableScans(statement.plan, namespace)) {
                  const problem = scanProblem(scan, leading, batch);
                  if (problem !== null) {
                    violations.push(
                      `${where}: ${scan["Node Type"]} on ${scan["Index Name"] ?? "the table"} in ${
                        firstLine(statement.text)
                      }: ${problem}`,
                    );
                  }
                }
              }
            }
          }
        }
        assert.deepEqual(violations, []);
      } finally {
        await sql.end();
      }
    });
  });
});

/**
 * What is wrong with a scan of the hook table, or `null`: it must be an index scan bounded by a
 * condition on the index's leading column, and read at most a few rows per attempt.
 */
function scanProblem(scan: PlanNode, leading: Map<string, string>, batch: number): string | null {
  const condition = scan["Index Cond"];
  if (scan["Node Type"] === "Seq Scan" || condition === undefined) {
    return "no index condition (a scan of the whole table or index)";
  }
  const column = leading.get(scan["Index Name"] ?? "");
  if (column === undefined || !new RegExp(`^\\(+"?${column}"? `).test(condition)) {
    return `its condition ${condition.slice(0, 60)} does not bound the leading column ${column}`;
  }
  const read = ((scan["Actual Rows"] ?? 0) + (scan["Rows Removed by Filter"] ?? 0) +
    (scan["Rows Removed by Index Recheck"] ?? 0)) * (scan["Actual Loops"] ?? 1);
  return read <= 3 * batch + 10 ? null : `it read ${read} rows`;
}

/** The leading column of each index of the namespace's hook table. */
async function leadingColumns(
  sql: postgres.Sql,
  namespace: string,
): Promise<Map<string, string>> {
  const rows = await sql.unsafe<{ index: string; column: string }[]>(
    `SELECT c.relname AS index, a.attname AS column
     FROM pg_index AS i
     JOIN pg_class AS c ON c.oid = i.indexrelid
     JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
     WHERE i.indrelid = $1::regclass`,
    [`"${namespace}".hook_occurrences`],
  );
  return new Map(rows.map((r) => [r.index, r.column]));
}

/**
 * Stores `batch` running occurrences (with `ordered`, one ordering key each and a blocked next
 * occurrence behind it), then completes them in one `hook_complete()` call, as a worker that runs
 * the hook, in a session of its own with auto_explain on; answers the plans of the statements the
 * function ran.
 */
async function completeExplained(
  url: string,
  namespace: string,
  planCacheMode: string,
  batch: number,
  ordered: boolean,
): Promise<Explained[]> {
  const notices: string[] = [];
  const sql = postgres(url, { max: 1, onnotice: (notice) => notices.push(notice.message) });
  const table = `"${namespace}".hook_occurrences`;
  try {
    const keys = ordered ? `, 'plan-' || txid_current() || '-' || n` : "";
    const running = await sql.unsafe<{ id: string; order_key: string | null }[]>(
      `INSERT INTO ${table} (name, status, attempts${ordered ? ", order_key" : ""})
       SELECT 'work', 'running', 1${keys} FROM generate_series(1, $1::int4) AS n
       RETURNING id::text AS id, ${ordered ? "order_key" : "NULL::text AS order_key"}`,
      [batch],
    );
    if (ordered) {
      await sql.unsafe(
        `INSERT INTO ${table} (name, status, order_key)
         SELECT 'work', 'blocked', k FROM unnest($1::text[]) AS k`,
        [running.map((r) => r.order_key)],
      );
    }
    await sql.unsafe(`LOAD 'auto_explain'`);
    await sql.unsafe(
      `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
       SET auto_explain.log_analyze = on; SET auto_explain.log_timing = off;
       SET auto_explain.log_format = json; SET auto_explain.log_level = notice;
       SET plan_cache_mode = ${planCacheMode}`,
    );
    const answers = await sql.unsafe<{ outcome: string; n: number }[]>(
      `SELECT outcome, count(*)::int AS n
       FROM "${namespace}".hook_complete($1::int8[], $2::int4[], $3::text[], ARRAY['work'],
         60000, 'plans-test')
       GROUP BY outcome ORDER BY outcome`,
      [running.map((r) => r.id), running.map(() => 1), running.map((r) => r.order_key)],
    );
    await sql.unsafe(`SET auto_explain.log_min_duration = -1`);
    assert.deepEqual(
      [...answers],
      ordered
        ? [{ outcome: "claimed", n: batch }, { outcome: "done", n: batch }]
        : [{ outcome: "done", n: batch }],
    );
    if (ordered) {
      // The claimed next occurrences are finished too, so that later batches see only done rows.
      await sql.unsafe(
        `UPDATE ${table} SET status = 'done', finished_at = now()
         WHERE order_key = ANY($1::text[]) AND status = 'running'`,
        [running.map((r) => r.order_key)],
      );
    }
  } finally {
    await sql.end();
  }
  return notices.flatMap((notice) => {
    const json = notice.slice(notice.indexOf("{"));
    if (!notice.startsWith("duration:") || json.length === 0) return [];
    const parsed = JSON.parse(json) as { "Query Text": string; Plan: PlanNode };
    return /hook_complete\(\$1/.test(parsed["Query Text"])
      ? []
      : [{ text: parsed["Query Text"], plan: parsed.Plan }];
  });
}

/**
 * The nodes of `plan` that read the namespace's hook table (not the update node itself): its
 * scans, and for a bitmap scan the index scans under it (which hold the index and condition).
 */
function tableScans(plan: PlanNode, namespace: string): PlanNode[] {
  const onTable = plan["Relation Name"] === "hook_occurrences" &&
    (plan.Schema === undefined || plan.Schema === namespace);
  const own = !onTable || plan["Node Type"] === "ModifyTable"
    ? []
    : plan["Node Type"] === "Bitmap Heap Scan"
    ? bitmapIndexScans(plan)
    : [plan];
  return [...own, ...(plan.Plans ?? []).flatMap((child) => tableScans(child, namespace))];
}

function bitmapIndexScans(plan: PlanNode): PlanNode[] {
  return (plan.Plans ?? []).flatMap((child) =>
    child["Node Type"] === "Bitmap Index Scan" ? [child] : bitmapIndexScans(child)
  );
}

/** The start of a statement's text, on one line. */
function firstLine(text: string): string {
  return text.trim().replace(/\s+/g, " ").slice(0, 90);
}
