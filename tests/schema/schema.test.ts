import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema, type SchemaBuilder } from "../../src/schema/mod.ts";
import { schemaState } from "../../src/schema/schema_state.ts";
import { everyStepSchema } from "../fixtures/every_step_schema.ts";

const users = {
  id: column.uuid().primaryKey().defaultRandom(),
  email: column.text().unique(),
  nickname: column.text().nullable(),
};

// deno-lint-ignore no-explicit-any
type Loose = SchemaBuilder<any>;

/** Builds a schema whose first step creates `users`, then applies `more`. */
function withUsers(more: (s: Loose) => Loose): void {
  defineSchema("auth", (s) => more(s.createTable("users", users)));
}

describe("defineSchema()", () => {
  it("numbers steps 1, 2, … and exposes name, version and steps", () => {
    assert.equal(everyStepSchema.name, "shop");
    assert.equal(everyStepSchema.version, 17);
    assert.deepEqual(everyStepSchema.steps.map((s) => s.version), [
      ...Array.from({ length: 17 }, (_, i) => i + 1),
    ]);
    assert.equal(everyStepSchema.steps[0].kind, "createTable");
    assert.ok(Object.isFrozen(everyStepSchema));
  });

  it("replays steps into the final state (renames followed, dropped things gone)", () => {
    const state = schemaState(everyStepSchema);
    assert.deepEqual(state.tables.map((t) => t.name), ["users", "orders", "order_tags"]);
    const orders = state.tables[1];
    assert.ok(orders.columns.some((c) => c.name === "comment"));
    assert.ok(!orders.columns.some((c) => c.name === "note"));
    assert.equal(orders.columns.find((c) => c.name === "placed_at")?.nullable, false);
    assert.deepEqual(state.indexes.map((i) => i.name), [
      "orders_user_status_idx",
      "orders_open_idx",
    ]);
    assert.deepEqual(state.tables[2].primaryKey, {
      name: "order_tags_pkey",
      columns: ["order_id", "tag"],
    });
    assert.equal(schemaState(everyStepSchema, 1).tables.length, 1);
  });

  it("rejects a schema with no steps or an invalid name", () => {
    assert.throws(() => defineSchema("empty", (s) => s), /Schema "empty" has no steps/);
    assert.throws(() => defineSchema("My-Schema", (s) => s), /Schema name "My-Schema" is invalid/);
  });
});

describe("defineSchema() rejects at definition time", () => {
  const cases: [string, () => void, RegExp][] = [
    [
      "a duplicate table",
      () => withUsers((s) => s.createTable("users", { id: column.text().primaryKey() })),
      /Schema "auth" step 2 \(createTable on table "users"\): table already exists/,
    ],
    [
      "a table without primary key",
      () => defineSchema("a", (s) => s.createTable("t", { x: column.text() })),
      /step 1 .*needs a primary key/,
    ],
    [
      "a nullable primary key",
      () =>
        defineSchema("a", (s) => s.createTable("t", { x: column.text().nullable().primaryKey() })),
      /primary key column "x" cannot be nullable/,
    ],
    [
      "a composite key naming a missing column",
      () =>
        defineSchema(
          "a",
          (s) => s.createTable("t", { x: column.text() }, { primaryKey: ["x", "y" as "x"] }),
        ),
      /primary key column "y" does not exist/,
    ],
    [
      "a duplicate column",
      () => withUsers((s) => s.addColumn("users", "email", column.text().nullable())),
      /step 2 \(addColumn on table "users"\): column "email" already exists/,
    ],
    [
      "a foreign key to a missing table",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            org_id: column.uuid().references("orgs", "id"),
          })
        ),
      /column "org_id" references "orgs"\("id"\), but table "orgs" does not exist/,
    ],
    [
      "a foreign key to a missing column",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            user_id: column.uuid().references("users", "uid"),
          })
        ),
      /references "users"\("uid"\), but that column does not exist/,
    ],
    [
      "a foreign key to a column that is not a key",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            nick: column.text().references("users", "nickname"),
          })
        ),
      /neither a single-column primary key nor unique/,
    ],
    [
      "a foreign key of another type",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            user_id: column.text().references("users", "id"),
          })
        ),
      /whose type uuid differs from text/,
    ],
    [
      "ON DELETE SET NULL on a NOT NULL column",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            user_id: column.uuid().references("users", "id", { onDelete: "set null" }),
          })
        ),
      /ON DELETE SET NULL but is NOT NULL/,
    ],
    [
      "an index on a missing column",
      () => withUsers((s) => s.addIndex("users", "users_x_idx", ["x" as "email"])),
      /step 2 \(addIndex on table "users"\): index "users_x_idx" uses column "x", which does not exist/,
    ],
    [
      "an index on a missing table",
      () => withUsers((s) => s.addIndex("orgs" as "users", "orgs_idx", ["email"])),
      /table "orgs" does not exist/,
    ],
    [
      "a duplicate index name",
      () =>
        withUsers((s) =>
          s.addIndex("users", "users_nick_idx", ["nickname"]).addIndex("users", "users_nick_idx", [
            "email",
          ])
        ),
      /step 3 .*index name "users_nick_idx" is already used/,
    ],
    [
      "an index named like a constraint",
      () => withUsers((s) => s.addIndex("users", "users_email_key", ["email"])),
      /"users_email_key" is already used by a table, index or constraint/,
    ],
    [
      "a NOT NULL column without default added to an existing table",
      () => withUsers((s) => s.addColumn("users", "age", column.integer())),
      /column "age" is NOT NULL without a default, which fails on a table with rows/,
    ],
    [
      "a primary key added later",
      () => withUsers((s) => s.addColumn("users", "k", column.text().default("x").primaryKey())),
      /a primary key cannot be added later/,
    ],
    [
      "setNotNull on a missing column",
      () => withUsers((s) => s.setNotNull("users", "age" as "email")),
      /step 2 \(setNotNull on table "users"\): column "age" does not exist in table "users"/,
    ],
    [
      "setNotNull on a column already NOT NULL",
      () => withUsers((s) => s.setNotNull("users", "email")),
      /column "email" is already NOT NULL/,
    ],
    [
      "dropNotNull on a primary key column",
      () => withUsers((s) => s.dropNotNull("users", "id")),
      /part of the primary key and must stay NOT NULL/,
    ],
    [
      "dropping a column an index uses",
      () =>
        withUsers((s) =>
          s.addIndex("users", "users_nick_idx", ["nickname"]).dropColumn("users", "nickname")
        ),
      /column "nickname" is used by index "users_nick_idx": drop those first/,
    ],
    [
      "dropping a primary key column",
      () => withUsers((s) => s.dropColumn("users", "id")),
      /part of the primary key and cannot be dropped/,
    ],
    [
      "dropping a referenced table",
      () =>
        withUsers((s) =>
          s.createTable("s", {
            id: column.text().primaryKey(),
            user_id: column.uuid().references("users", "id"),
          }).dropTable("users")
        ),
      /step 3 \(dropTable on table "users"\): table "s" references it/,
    ],
    [
      "renaming to an existing column",
      () => withUsers((s) => s.renameColumn("users", "nickname", "email")),
      /column "email" already exists/,
    ],
    [
      "dropping an unknown index",
      () => withUsers((s) => s.dropIndex("nope")),
      /index "nope" does not exist/,
    ],
    [
      "an empty raw SQL step",
      () => withUsers((s) => s.sql("  ")),
      /step 2 \(sql\): raw SQL needs a non-empty statement/,
    ],
    [
      "an uppercase table name",
      () => defineSchema("a", (s) => s.createTable("Users", { id: column.text().primaryKey() })),
      /table name "Users" is invalid/,
    ],
    [
      "a derived constraint name longer than 63 bytes",
      () =>
        defineSchema("a", (s) =>
          s.createTable("t".repeat(40), {
            id: column.text().primaryKey(),
            ["c".repeat(20)]: column.text().unique(),
          })),
      /unique constraint name "t{40}_c{20}_key" is longer than 63 bytes/,
    ],
  ];
  for (const [what, run, message] of cases) {
    it(`rejects ${what}`, () => assert.throws(run, message));
  }
});

describe("column", () => {
  it("checks constant defaults against the column type", () => {
    assert.throws(() => column.integer().default(1.5), /expected a 32-bit integer/);
    assert.throws(() => column.varchar(2).default("abc"), /at most 2 characters/);
    assert.throws(() => column.bigint().default("12x"), /a string of digits/);
    assert.throws(() => column.timestamptz().default(new Date()), /defaultNow\(\) or defaultSql/);
    assert.throws(() => column.varchar(0), /varchar length 0/);
  });

  it("rejects defaultNow, defaultRandom and identity on the wrong types at runtime", () => {
    // deno-lint-ignore no-explicit-any
    const text = column.text() as any;
    assert.throws(() => text.defaultNow(), /defaultNow\(\) is for timestamptz columns, not text/);
    assert.throws(() => text.defaultRandom(), /defaultRandom\(\) is for uuid columns/);
    assert.throws(() => text.identity(), /identity\(\) is for integer or bigint columns/);
  });

  it("is immutable: modifiers return new builders", () => {
    const base = column.text();
    const nullable = base.nullable();
    assert.equal(base.def.nullable, false);
    assert.equal(nullable.def.nullable, true);
  });
});
