/**
 * The auth schema's steps for second factors and passkeys (versions 52–62, applied by
 * `schema.ts` in order after the provider sign-in steps; their tables are typed in `AuthTables`).
 *
 * @module
 */

import { column, type SchemaBuilder, type TablesShape } from "../../schema/mod.ts";

/**
 * Auth schema versions 52–62, one block: second factors and passkeys.
 *
 * v52: whether the user has a second factor (an enabled TOTP or a passkey), kept by the statements
 * that add and remove one (`two_factor/factor_flag.ts`), so that a sign-in and an organization
 * that requires a second factor read it with the user. v53: the TOTP secret (AES-GCM under the
 * module's `secret`), active once `enabled_at` is set; `last_used_step` refuses a code for the rest
 * of its window once used. v54–55: single-use recovery codes, SHA-256 at rest. v56–57: the second
 * step of a sign-in: the SHA-256 of its token, the user, how they signed in and what the credential
 * will carry; 5 attempts, deleted when used or expired. v58–59: passkeys (WebAuthn credentials):
 * the credential id (base64url), its COSE public key, its signature counter. v60–61: WebAuthn
 * challenges (registration, sign-in, or the passkey answer to a second-step challenge), SHA-256 at
 * rest, single use. v62: an organization that requires its members to have a second factor.
 */
export function withSecondFactors<T extends TablesShape>(builder: SchemaBuilder<T>) {
  return builder
    .addColumn("users", "two_factor_enabled", column.boolean().default(false))
    .createTable("totp_factors", {
      user_id: column.uuid().primaryKey().references("users", "id", { onDelete: "cascade" }),
      secret_ciphertext: column.text(),
      enabled_at: column.timestamptz().nullable(),
      last_used_step: column.bigint().nullable(),
      created_at: column.timestamptz().defaultNow(),
    })
    .createTable("recovery_codes", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      code_hash: column.text(),
      used_at: column.timestamptz().nullable(),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("recovery_codes", "recovery_codes_user_code_key", ["user_id", "code_hash"], {
      unique: true,
    })
    .createTable("two_factor_challenges", {
      id: column.uuid().primaryKey().defaultRandom(),
      token_hash: column.text().unique(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      sign_in_method: column.text(),
      active_organization_id: column.uuid().nullable(),
      user_agent: column.text().nullable(),
      redirect_to: column.text().nullable(),
      attempts: column.integer().default(0),
      expires_at: column.timestamptz(),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("two_factor_challenges", "two_factor_challenges_expires_idx", ["expires_at"])
    .createTable("passkeys", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      credential_id: column.text().unique(),
      public_key: column.bytea(),
      counter: column.bigint().default("0"),
      transports: column.text().nullable(),
      device_type: column.text(),
      backed_up: column.boolean().default(false),
      name: column.text(),
      created_at: column.timestamptz().defaultNow(),
      last_used_at: column.timestamptz().nullable(),
    })
    .addIndex("passkeys", "passkeys_user_idx", ["user_id"])
    .createTable("webauthn_challenges", {
      id: column.uuid().primaryKey().defaultRandom(),
      challenge_hash: column.text().unique(),
      purpose: column.text(),
      user_id: column.uuid().nullable().references("users", "id", { onDelete: "cascade" }),
      two_factor_challenge_id: column.uuid().nullable().references(
        "two_factor_challenges",
        "id",
        { onDelete: "cascade" },
      ),
      expires_at: column.timestamptz(),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("webauthn_challenges", "webauthn_challenges_expires_idx", ["expires_at"])
    .addColumn("organizations", "require_two_factor", column.boolean().default(false));
}
