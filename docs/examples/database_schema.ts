// Defining a versioned schema: every step kind, row types (docs/database.md). A program that
// checks what it shows: `deno run -A docs/examples/database_schema.ts` (or `node …`, `bun …`);
// database_planning.ts and database_orm_outputs.ts import its schema.
import assert from "node:assert/strict";
import { column, defineSchema, type InsertRowOf, type RowOf } from "@app/fragment-cli";

export const authSchema = defineSchema("auth", (s) =>
  s
    .createTable("users", { // version 1
      id: column.uuid().primaryKey().defaultRandom(),
      email: column.varchar(320).unique(),
      role: column.text().default("user"),
      created_at: column.timestamptz().defaultNow(),
    })
    .createTable("sessions", { // version 2
      id: column.text().primaryKey(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      expires_at: column.timestamptz(),
    })
    .addIndex("sessions", "sessions_user_idx", ["user_id"]) // version 3
    .createTable("memberships", { // version 4: composite primary key
      org_id: column.uuid(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      joined_at: column.timestamptz().defaultNow(),
    }, { primaryKey: ["org_id", "user_id"] })
    .addColumn("users", "display_name", column.text().nullable()) // version 5
    .renameColumn("users", "display_name", "name") // version 6
    .addColumn("users", "login_count", column.integer().default(0)) // version 7
    .addIndex("users", "users_admin_idx", ["email"], { unique: true, where: "role = 'admin'" }) // 8
    .dropIndex("users_admin_idx") // version 9
    .setNotNull("users", "name") // version 10 (fails at migration time if a row holds NULL)
    .dropNotNull("users", "name") // version 11
    .dropColumn("users", "login_count") // version 12
    .createTable("audit", { id: column.bigint().identity().primaryKey(), data: column.jsonb() }) // 13
    .dropTable("audit") // version 14
    .sql(({ qualify }) => `COMMENT ON TABLE ${qualify("users")} IS 'People who can sign in'`)); // 15

/** What module code reads: `{ id: string; email: string; role: string; created_at: Date; name: string | null }`. */
export type User = RowOf<typeof authSchema, "users">;

/** What module code inserts: columns with a default or NULL may be left out. */
export type NewUser = InsertRowOf<typeof authSchema, "users">;

export const newUser: NewUser = { email: "ada@example.com" };

export function greeting(user: User): string {
  return `Hello ${
    user.name ?? user.email
  } (${user.role}), member since ${user.created_at.getUTCFullYear()}`;
}

// One version per step, numbered from 1.
assert.equal(authSchema.version, 15);
assert.deepEqual(
  authSchema.steps.map((step) => step.version),
  [...Array(15).keys()].map((i) => i + 1),
);
const ada: User = {
  id: "0b5f4a4e-3d52-4c1e-9a41-7f0c2f1d9e11",
  email: "ada@example.com",
  role: "admin",
  created_at: new Date("2024-05-01T00:00:00Z"),
  name: null, // renamed from display_name (version 6), nullable again since version 11
};
assert.equal(greeting(ada), "Hello ada@example.com (admin), member since 2024");
