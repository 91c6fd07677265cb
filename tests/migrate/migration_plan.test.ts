import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { planMigration, renderMigrationSql } from "../../src/migrate/mod.ts";
import { stepStatements } from "../../src/migrate/migration_plan.ts";
import { everyStepSchema } from "../fixtures/every_step_schema.ts";

const snapshotUrl = new URL("./__snapshots__/every_step_schema.sql", import.meta.url);

describe("renderMigrationSql()", () => {
  it("renders the every-step schema byte for byte as the checked-in snapshot", async () => {
    const expected = await readFile(snapshotUrl, "utf8");
    const actual = renderMigrationSql(planMigration(everyStepSchema, { from: 0 }));
    assert.equal(actual, expected);
  });

  it("covers every step kind in the snapshot schema", () => {
    const kinds = new Set(everyStepSchema.steps.map((s) => s.kind));
    assert.deepEqual([...kinds].sort(), [
      "addColumn",
      "addIndex",
      "createTable",
      "dropColumn",
      "dropIndex",
      "dropNotNull",
      "dropTable",
      "renameColumn",
      "setNotNull",
      "sql",
    ]);
  });

  it("appends bookkeeping statements after the steps with semicolons", () => {
    const plan = planMigration(everyStepSchema, { from: 16 });
    const sql = renderMigrationSql(plan, { bookkeeping: ["SELECT 1", "SELECT 2;"] });
    assert.ok(sql.endsWith("-- Version bookkeeping\nSELECT 1;\n\nSELECT 2;\n"), sql);
    assert.match(
      sql,
      /^-- fragment-cli migration of schema "shop" in namespace "shop": version 16 to 17\n/,
    );
  });
});

describe("planMigration()", () => {
  it("is deterministic: two plans are deeply equal", () => {
    assert.deepEqual(
      planMigration(everyStepSchema, { from: 0 }),
      planMigration(everyStepSchema, { from: 0, to: everyStepSchema.version }),
    );
  });

  it("plans a partial range with one entry per step", () => {
    const plan = planMigration(everyStepSchema, { from: 3, to: 5 });
    assert.deepEqual(plan.steps.map((s) => s.version), [4, 5]);
    assert.equal(plan.namespace, "shop");
    assert.deepEqual(plan.steps[0].statements, [
      'ALTER TABLE "shop"."users" ADD COLUMN "nickname" text',
    ]);
  });

  it("puts every table in the given namespace, CREATE SCHEMA in step 1 only", () => {
    const plan = planMigration(everyStepSchema, { from: 0, namespace: "shop_eu" });
    const all = plan.steps.flatMap((s) => s.statements);
    assert.equal(all[0], 'CREATE SCHEMA IF NOT EXISTS "shop_eu"');
    assert.equal(all.filter((s) => s.startsWith("CREATE SCHEMA")).length, 1);
    assert.ok(!all.some((s) => s.includes('"shop".')), "no statement names the default namespace");
    assert.ok(all.some((s) => s.includes('REFERENCES "shop_eu"."users" ("id")')));
    assert.ok(all.includes(`COMMENT ON TABLE "shop_eu"."orders" IS 'Customer orders'`));
  });

  it("rejects impossible ranges and bad namespaces", () => {
    assert.throws(() => planMigration(everyStepSchema, { from: 3, to: 3 }), RangeError);
    assert.throws(() => planMigration(everyStepSchema, { from: -1 }), RangeError);
    assert.throws(() => planMigration(everyStepSchema, { from: 0, to: 18 }), /0 ≤ from < to ≤ 17/);
    assert.throws(
      () => planMigration(everyStepSchema, { from: 0, namespace: "Shop" }),
      /namespace/,
    );
    assert.throws(
      () => planMigration(everyStepSchema, { from: 0, namespace: "a".repeat(64) }),
      /63/,
    );
  });

  it("never writes timestamp without time zone nor CURRENT_TIMESTAMP", () => {
    const sql = renderMigrationSql(planMigration(everyStepSchema, { from: 0 }));
    assert.doesNotMatch(sql, /\btimestamp\b(?!tz)/i);
    assert.doesNotMatch(sql, /current_timestamp/i);
  });
});

describe("stepStatements()", () => {
  it("matches the statements of the plan and throws for a missing step", () => {
    const plan = planMigration(everyStepSchema, { from: 0 });
    for (const step of plan.steps) {
      assert.deepEqual(stepStatements(everyStepSchema, step.version), step.statements);
    }
    assert.throws(() => stepStatements(everyStepSchema, 0), /steps 1 … 17, not 0/);
    assert.throws(() => stepStatements(everyStepSchema, 18), RangeError);
  });

  it("quotes identifiers that are reserved words and escapes literals", () => {
    const schema = defineSchema("select", (s) =>
      s.createTable("user", {
        order: column.text().primaryKey().default("it's"),
      }));
    assert.deepEqual(stepStatements(schema, 1), [
      'CREATE SCHEMA IF NOT EXISTS "select"',
      'CREATE TABLE "select"."user" (\n  "order" text NOT NULL DEFAULT \'it\'\'s\',\n' +
      '  CONSTRAINT "user_pkey" PRIMARY KEY ("order")\n)',
    ]);
  });

  it("passes the namespace to raw SQL functions and strips a trailing semicolon", () => {
    const schema = defineSchema(
      "raw",
      (s) =>
        s.createTable("t", { id: column.integer().primaryKey() })
          .sql((
            { namespace, quote },
          ) => [`SET LOCAL lock_timeout = '5s';`, `SELECT ${quote(namespace)}`])
          .sql("  SELECT 1 ;  "),
    );
    assert.deepEqual(stepStatements(schema, 2, "raw_b"), [
      "SET LOCAL lock_timeout = '5s'",
      'SELECT "raw_b"',
    ]);
    assert.deepEqual(stepStatements(schema, 3), ["SELECT 1"]);
  });
});
