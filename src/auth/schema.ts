/**
 * The versioned database schema of the auth module. Versions are append-only: a new need is a new
 * step at the end, never an edit of an applied one.
 *
 * - 1–3: users and sessions (credentials).
 *
 * @module
 */

import { column, defineSchema, type Schema } from "../db/mod.ts";

/**
 * The tables of the auth schema at its latest version, as row inference sees them.
 *
 * @example
 * ```ts
 * import type { RowOf } from "../db/mod.ts";
 * import type { authSchema } from "./schema.ts";
 *
 * type UserRow = RowOf<typeof authSchema, "users">;
 * ```
 */
export type AuthTables = {
  users: {
    id: { type: string; nullable: false; hasDefault: true };
    email: { type: string; nullable: false; hasDefault: false };
    password_hash: { type: string; nullable: false; hasDefault: false };
    role: { type: string; nullable: false; hasDefault: true };
    created_at: { type: Date; nullable: false; hasDefault: true };
    updated_at: { type: Date; nullable: false; hasDefault: true };
  };
  sessions: {
    id: { type: string; nullable: false; hasDefault: true };
    user_id: { type: string; nullable: false; hasDefault: false };
    token_hash: { type: string; nullable: false; hasDefault: false };
    expires_at: { type: Date; nullable: false; hasDefault: false };
    created_at: { type: Date; nullable: false; hasDefault: true };
  };
};

const authSchemaValue: Schema<AuthTables> = defineSchema("auth", (s) =>
  s
    // v1
    .createTable("users", {
      id: column.uuid().primaryKey().defaultRandom(),
      email: column.text().unique(),
      password_hash: column.text(),
      role: column.text().default("user"),
      created_at: column.timestamptz().defaultNow(),
      updated_at: column.timestamptz().defaultNow(),
    })
    // v2: a session row per issued credential; only the SHA-256 of its token is kept.
    .createTable("sessions", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      token_hash: column.text().unique(),
      expires_at: column.timestamptz(),
      created_at: column.timestamptz().defaultNow(),
    })
    // v3
    .addIndex("sessions", "sessions_user_id_idx", ["user_id"]));

/**
 * The auth module's schema (namespace `auth` unless the module is given another). Apply it with
 * `fragment-cli db migrate` (or `serve`, which migrates) before the module serves requests.
 *
 * @example Apply it in a test
 * ```ts ignore
 * import { migrate } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli";
 *
 * await migrate(adapter, authSchema, { namespace: "auth" });
 * ```
 */
export const authSchema: Schema<AuthTables> = authSchemaValue;
