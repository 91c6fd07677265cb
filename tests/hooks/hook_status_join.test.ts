// The hooks' API for modules that show the processing state of their own rows: statusJoinSql()
// (a LEFT JOIN of each row to its occurrence, with the state's columns) and hasHookTable(), so
// no module outside the hooks knows the hook table's name or columns.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema } from "../../src/schema/mod.ts";
import {
  type DurableHooks,
  durableHooks,
  hasHookTable,
  type HookStatusColumns,
  withHookErrorLog,
  withHookTable,
} from "../../src/hooks/mod.ts";
import { quoteQualified, type SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { freshNamespaces, hookTestSchema } from "../helpers/hook_schema.ts";

const schema = hookTestSchema("status_join_test");

describe("hasHookTable()", () => {
  it("is true exactly for schemas whose history creates the hook table", () => {
    assert.equal(hasHookTable(schema), true);
    assert.equal(
      hasHookTable(
        defineSchema("later", (s) =>
          withHookErrorLog(
            withHookTable(s.createTable("a", { id: column.integer().primaryKey() })),
          )),
      ),
      true,
    );
    assert.equal(
      hasHookTable(
        defineSchema("plain", (s) =>
          s.createTable("items", { id: column.integer().primaryKey() })
            .createTable("occurrences", { id: column.integer().primaryKey() })),
      ),
      false,
    );
  });
});

forEachAdapter((name, getAdapter) => {
  const freshNamespace = freshNamespaces(getAdapter, schema, `status_join_${name}`);

  /** Items 1–4; 1 and 2 enqueued for `process` (2 fails), 3 only for `other`, 4 for none. */
  async function setUp(
    namespace: string,
    extra: { retention?: { done: string } } = {},
  ): Promise<DurableHooks> {
    const db = getAdapter();
    const hooks = durableHooks({
      adapter: db,
      namespace,
      hooks: {
        process: {
          handler: (_payload, { key }) => {
            if (key === "2") throw new Error("item 2 is broken");
          },
          maxAttempts: 1,
        },
        other: () => {},
      },
      onError: () => {},
      ...extra,
    });
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ${quoteQualified(namespace, "items")} (id) VALUES (1), (2), (3), (4)`,
      );
      await hooks.enqueue(tx, { name: "process", key: "1" });
      await hooks.enqueue(tx, { name: "process", key: "2" });
      await hooks.enqueue(tx, { name: "other", key: "3" });
    });
    return hooks;
  }

  type Row = { id: number } & HookStatusColumns;

  async function itemsWithStatus(
    namespace: string,
    hooks: DurableHooks,
    where = "TRUE",
    params: unknown[] = [],
  ): Promise<Row[]> {
    const hook = hooks.statusJoinSql({ name: "process", keySql: "i.id::text", alias: "h" });
    return await getAdapter().query<Row>(
      `SELECT i.id, ${hook.columns} FROM ${quoteQualified(namespace, "items")} AS i ${hook.join}
       WHERE ${where} ORDER BY i.id`,
      [...hook.params, ...params],
    );
  }

  before(async () => {
    await getAdapter().query("SELECT 1");
  });

  it(`${name}: statusJoinSql() gives each row its occurrence's state, NULL without one`, async () => {
    const namespace = await freshNamespace();
    const hooks = await setUp(namespace);
    const pending = await itemsWithStatus(namespace, hooks);
    assert.deepEqual(pending.map((row) => [row.id, row.hook_status, row.hook_attempts]), [
      [1, "pending", 0],
      [2, "pending", 0],
      [3, null, null], // its occurrence belongs to another hook
      [4, null, null],
    ]);
    await hooks.drain();
    const [one, two, three] = await itemsWithStatus(namespace, hooks);
    assert.equal(one.hook_status, "done");
    assert.equal(one.hook_attempts, 1);
    assert.equal(one.hook_last_error, null);
    assert.ok(one.hook_finished_at instanceof Date);
    assert.equal(two.hook_status, "failed");
    assert.match(two.hook_last_error ?? "", /item 2 is broken/);
    assert.ok(two.hook_finished_at instanceof Date);
    assert.equal(three.hook_status, null);
    assert.equal(three.hook_finished_at, null);
  });

  it(`${name}: its status expression filters, and its placeholders start at firstParam`, async () => {
    const namespace = await freshNamespace();
    const hooks = await setUp(namespace);
    await hooks.drain();
    const hook = hooks.statusJoinSql({ name: "process", keySql: "i.id::text", alias: "h" });
    const failed = await itemsWithStatus(namespace, hooks, `${hook.status} = $2`, ["failed"]);
    assert.deepEqual(failed.map((row) => row.id), [2]);
    const shifted = hooks.statusJoinSql({
      name: "process",
      keySql: "i.id::text",
      alias: "h",
      firstParam: 2,
    });
    assert.match(shifted.join, /\$2/);
    assert.doesNotMatch(shifted.join, /\$1\b/);
    const rows = await getAdapter().query<Row>(
      `SELECT i.id, ${shifted.columns} FROM ${quoteQualified(namespace, "items")} AS i
       ${shifted.join} WHERE i.id = $1`,
      [1, ...shifted.params],
    );
    assert.deepEqual(rows.map((row) => [row.id, row.hook_status]), [[1, "done"]]);
  });

  it(`${name}: an occurrence purged by the retention reads as no occurrence`, async () => {
    const namespace = await freshNamespace();
    const hooks = await setUp(namespace, { retention: { done: "0s" } });
    await hooks.drain();
    const rows = await itemsWithStatus(namespace, hooks);
    assert.deepEqual(rows.map((row) => [row.id, row.hook_status]), [
      [1, null], // done, then purged
      [2, "failed"], // failed ones are never purged
      [3, null],
      [4, null],
    ]);
  });

  it(`${name}: the hook name is a parameter, never spliced into the SQL`, async () => {
    const namespace = await freshNamespace();
    const odd = "it's'; DROP TABLE items; --";
    const hooks = durableHooks({
      adapter: getAdapter(),
      namespace,
      hooks: { [odd]: () => {} },
      onError: () => {},
    });
    await getAdapter().transaction(async (tx) => {
      await tx.query(`INSERT INTO ${quoteQualified(namespace, "items")} (id) VALUES (7)`);
      await hooks.enqueue(tx, { name: odd, key: "7" });
    });
    const hook = hooks.statusJoinSql({ name: odd, keySql: "i.id::text", alias: "h" });
    assert.ok(!hook.join.includes(odd));
    assert.deepEqual(hook.params, [odd]);
    const rows = await getAdapter().query<Row>(
      `SELECT i.id, ${hook.columns} FROM ${quoteQualified(namespace, "items")} AS i ${hook.join}`,
      hook.params,
    );
    assert.deepEqual(rows.map((row) => [row.id, row.hook_status]), [[7, "pending"]]);
  });
});

describe("statusJoinSql() arguments", () => {
  const hooks = durableHooks({
    adapter: {} as SqlAdapter,
    namespace: "checks",
    hooks: { process: () => {} },
  });

  it("refuses an unknown hook, an empty key expression, a bad alias or firstParam", () => {
    assert.throws(
      () => hooks.statusJoinSql({ name: "nope", keySql: "x.id::text", alias: "h" }),
      /Unknown hook "nope"; registered hooks: process/,
    );
    assert.throws(
      () => hooks.statusJoinSql({ name: "process", keySql: " ", alias: "h" }),
      /keySql/,
    );
    assert.throws(
      () => hooks.statusJoinSql({ name: "process", keySql: "x.id::text", alias: "" }),
      RangeError,
    );
    assert.throws(
      () => hooks.statusJoinSql({ name: "process", keySql: "x.id", alias: "h", firstParam: 0 }),
      /firstParam must be a positive integer/,
    );
  });

  it("quotes the alias as an identifier and qualifies the table with the namespace", () => {
    const hook = hooks.statusJoinSql({ name: "process", keySql: "x.id::text", alias: 'we"ird' });
    assert.match(hook.join, /^LEFT JOIN "checks"\."[a-z_]+" AS "we""ird"/);
    assert.equal(hook.status, '"we""ird".status');
    assert.match(hook.columns, /"we""ird"\.attempts AS hook_attempts/);
  });
});
