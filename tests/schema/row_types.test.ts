// Type-level tests of row inference: `deno check` (and `deno test`) fail if an assignment below
// stops type-checking or a `@ts-expect-error` line stops being an error.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { column, defineSchema, type InsertRowOf, type RowOf } from "../../src/schema/mod.ts";
import type { everyStepSchema } from "../fixtures/every_step_schema.ts";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
function assertType<T extends true>(_: T): void {}

const authSchema = defineSchema("auth", (s) =>
  s.createTable("users", {
    id: column.uuid().primaryKey().defaultRandom(),
    email: column.text().unique(),
    role: column.text().default("user"),
    created_at: column.timestamptz().defaultNow(),
  })
    .createTable("sessions", {
      id: column.text().primaryKey(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      expires_at: column.timestamptz(),
    })
    .addIndex("sessions", "sessions_user_idx", ["user_id"]));

describe("RowOf", () => {
  it("infers column types and nullability through every typed step", () => {
    type User = RowOf<typeof authSchema, "users">;
    assertType<Equals<User, { id: string; email: string; role: string; created_at: Date }>>(true);

    type Order = RowOf<typeof everyStepSchema, "orders">;
    assertType<
      Equals<Order, {
        id: string;
        user_id: string;
        parent_id: string | null;
        total_cents: string;
        comment: string | null; // renamed from note
        placed_at: Date; // setNotNull
        status: string; // addColumn
      }>
    >(true);

    type ShopUser = RowOf<typeof everyStepSchema, "users">;
    assertType<Equals<ShopUser["role"], string | null>>(true); // dropNotNull
    assertType<Equals<ShopUser["settings"], { theme: string }>>(true);
    assertType<Equals<ShopUser["avatar"], Uint8Array | null>>(true);
    assertType<Equals<ShopUser["referrer_id"], string | null>>(true);
    assertType<Equals<"nickname" extends keyof ShopUser ? true : false, false>>(true); // dropped

    const user: User = { id: "x", email: "a@b.c", role: "user", created_at: new Date() };
    // @ts-expect-error email is NOT NULL
    const bad: User = { id: "x", email: null, role: "user", created_at: new Date() };
    // @ts-expect-error audit_log was dropped
    type Gone = RowOf<typeof everyStepSchema, "audit_log">;
    // @ts-expect-error no such table
    type Missing = RowOf<typeof authSchema, "nope">;
    assert.ok(user && bad);
  });
});

describe("InsertRowOf", () => {
  it("makes columns with a default or NULL optional", () => {
    type NewUser = InsertRowOf<typeof authSchema, "users">;
    assertType<
      Equals<NewUser, { email: string; id?: string; role?: string; created_at?: Date }>
    >(true);
    const ok: NewUser = { email: "a@b.c" };
    // @ts-expect-error email is required
    const missing: NewUser = { role: "admin" };
    type NewOrder = InsertRowOf<typeof everyStepSchema, "orders">;
    const order: NewOrder = { user_id: "u", placed_at: new Date() };
    assert.ok(ok && missing && order);
  });
});

describe("SchemaBuilder types", () => {
  it("only accepts known tables and columns in later steps", () => {
    const schema = () =>
      defineSchema("t", (s) => {
        const base = s.createTable("a", { id: column.text().primaryKey(), x: column.text() });
        // @ts-expect-error unknown column in an index
        base.addIndex("a", "a_y_idx", ["y"]);
        // @ts-expect-error unknown table
        base.dropTable("b");
        // @ts-expect-error defaultNow() only on timestamptz
        column.text().defaultNow();
        // @ts-expect-error identity() only on integer and bigint
        column.uuid().identity();
        // @ts-expect-error a default of the wrong type
        column.integer().default("1");
        return base;
      });
    assert.throws(schema); // the runtime checks reject the same mistakes
  });
});
