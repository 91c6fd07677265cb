// Applies the SQL planned for the every-step schema to real databases (PGlite and the
// PostgreSQL server) and checks what the catalog then holds.
import { it } from "node:test";
import assert from "node:assert/strict";
import { planMigration } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { everyStepSchema } from "../fixtures/every_step_schema.ts";
import { introspect } from "../fixtures/introspect.ts";

forEachAdapter((name, getAdapter) => {
  it(`${name}: planMigration() SQL for every step kind applies in one transaction`, async () => {
    const db = getAdapter();
    const plan = planMigration(everyStepSchema, { from: 0 });
    await db.transaction(async (tx) => {
      for (const step of plan.steps) {
        for (const statement of step.statements) await tx.query(statement);
      }
    });
    const shop = await introspect(db, "shop");
    const orders = shop.columns.filter((c) => c.table === "orders");
    assert.deepEqual(
      orders.map((c) => [c.column, c.type, c.notNull, c.default, c.identity]),
      [
        ["comment", "text", false, null, ""],
        ["id", "bigint", true, null, "d"],
        ["parent_id", "bigint", false, null, ""],
        ["placed_at", "timestamp with time zone", true, null, ""],
        ["status", "character varying(20)", true, "'new'::character varying", ""],
        ["total_cents", "bigint", true, "0", ""],
        ["user_id", "uuid", true, null, ""],
      ],
    );
    const users = Object.fromEntries(
      shop.columns.filter((c) => c.table === "users").map((c) => [c.column, c]),
    );
    assert.equal(users.email.type, "character varying(320)");
    assert.equal(users.created_at.default, "now()");
    assert.equal(users.id.default, "gen_random_uuid()");
    assert.equal(users.role.notNull, false);
    assert.equal(users.settings.default, `'{"theme": "dark"}'::jsonb`);
    assert.equal(users.avatar.type, "bytea");
    assert.ok(!("nickname" in users));
    assert.deepEqual([...new Set(shop.columns.map((c) => c.table))], [
      "order_tags",
      "orders",
      "users",
    ]);
    assert.deepEqual(shop.indexes.map((i) => i.name), [
      "order_tags_pkey",
      "orders_open_idx",
      "orders_pkey",
      "orders_user_status_idx",
      "users_email_key",
      "users_pkey",
    ]);
    assert.equal(
      shop.indexes.find((i) => i.name === "orders_open_idx")?.definition,
      "CREATE UNIQUE INDEX orders_open_idx ON <ns>.orders USING btree (user_id) " +
        "WHERE ((status)::text = 'open'::text)",
    );
    assert.deepEqual(
      shop.constraints.filter((c) => c.type === "f").map((c) => [c.name, c.definition]),
      [
        [
          "order_tags_order_id_fkey",
          "FOREIGN KEY (order_id) REFERENCES <ns>.orders(id) ON DELETE CASCADE",
        ],
        [
          "orders_parent_id_fkey",
          "FOREIGN KEY (parent_id) REFERENCES <ns>.orders(id) ON DELETE SET NULL",
        ],
        [
          "orders_user_id_fkey",
          "FOREIGN KEY (user_id) REFERENCES <ns>.users(id) ON DELETE CASCADE",
        ],
        ["users_referrer_id_fkey", "FOREIGN KEY (referrer_id) REFERENCES <ns>.users(id)"],
      ],
    );
    const [comment] = await db.query<{ c: string }>(
      `SELECT obj_description('"shop"."orders"'::regclass, 'pg_class') AS c`,
    );
    assert.equal(comment.c, "Customer orders");
  });

  it(`${name}: applying step by step in another namespace gives the same catalog`, async () => {
    const db = getAdapter();
    for (const [from, to] of [[0, 3], [3, 9], [9, 17]]) {
      const plan = planMigration(everyStepSchema, { from, to, namespace: "shop_b" });
      await db.transaction(async (tx) => {
        for (const step of plan.steps) {
          for (const statement of step.statements) await tx.query(statement);
        }
      });
    }
    assert.deepEqual(await introspect(db, "shop_b"), await introspect(db, "shop"));
  });

  it(`${name}: the created tables enforce defaults, keys and ON DELETE actions`, async () => {
    const db = getAdapter();
    const [user] = await db.query<Record<string, unknown>>(
      `INSERT INTO "shop"."users" ("email") VALUES ('a@example.com') RETURNING *`,
    );
    assert.match(user.id as string, /^[0-9a-f-]{36}$/);
    assert.ok(user.created_at instanceof Date);
    assert.deepEqual(user.settings, { theme: "dark" });
    assert.equal(user.role, "user");
    assert.equal(user.is_admin, false);
    const insertOrder = `INSERT INTO "shop"."orders" ("user_id", "placed_at", "status")
      VALUES ($1, now(), $2) RETURNING "id", "total_cents"`;
    const [order] = await db.query<{ id: string; total_cents: string }>(insertOrder, [
      user.id,
      "open",
    ]);
    assert.deepEqual(order, { id: "1", total_cents: "0" });
    await assert.rejects(db.query(insertOrder, [user.id, "open"]), /orders_open_idx/);
    await db.query(insertOrder, [user.id, "paid"]);
    await db.query(`INSERT INTO "shop"."order_tags" ("order_id", "tag") VALUES ($1, 'gift')`, [
      order.id,
    ]);
    await assert.rejects(
      db.query(`INSERT INTO "shop"."order_tags" ("order_id", "tag") VALUES ($1, 'gift')`, [
        order.id,
      ]),
      /order_tags_pkey/,
    );
    await db.query(`DELETE FROM "shop"."users" WHERE "id" = $1`, [user.id]);
    const [left] = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM "shop"."orders")::int4 +
              (SELECT count(*) FROM "shop"."order_tags")::int4 AS n`,
    );
    assert.equal(left.n, 0);
  });
});
