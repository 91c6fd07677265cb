/**
 * The versioned database schema of the auth module. Versions are append-only: a new need is a new
 * step at the end, never an edit of an applied one.
 *
 * - 1–3: users and sessions (credentials).
 * - 4–12: organizations, members, invitations, and the active organization of a session.
 * - 13–16: the durable hook table (`withHookTable`) carrying the organization events.
 * - 17: the members page index.
 * - 18–24: security: verified emails, email verification tokens, invitation tokens hashed at rest,
 *   rate-limit counters shared by every process.
 * - 25: the error log of the hook table (`withHookErrorLog`).
 * - 26–28: ordering keys of the hook table (`withHookOrdering`).
 * - 29: the hook worker's SQL functions (`withHookFunctions`).
 * - 30–34: the account lifecycle: session `last_used_at` and `user_agent`, deleted
 *   users, and the single-use tokens of password resets and email changes.
 * - 35–37: Telegram accounts: the Telegram user linked to an account, and the
 *   single-use link tokens (`withTelegramAccounts`).
 * - 38: the direct hand-off of ordering keys (`withHookHandOff`).
 * - 39–41: the organizations' audit log (`withAuditLog`).
 * - 42: the hand-off finds a key's next occurrence by the ordering index (`withHookHandOffLookup`).
 * - 43: every statement of the hook completion finds its rows by id (`withHookCompletionById`).
 * - 44–46: email links, passwordless sign-in: the single-use sign-in link tokens.
 * - 47–51: sign-in with providers: connected identities and the flows in progress
 *   (`withOAuthIdentities`).
 * - 52–62: second factors and passkeys: TOTP, recovery codes, the second step of a sign-in,
 *   passkeys, WebAuthn challenges, and organizations that require a second factor
 *   (`withSecondFactors`).
 * - 63–65: the hook table's `(name, key)` index holds keyed occurrences only
 *   (`withHookPartialKeyIndex`).
 *
 * @module
 */

import {
  column,
  defineSchema,
  type JsonValue,
  type Schema,
  type SchemaBuilder,
  type TablesShape,
} from "../schema/mod.ts";
import { withSecondFactors } from "./two_factor/second_factor_schema.ts";
import {
  type HookErrorLogShape,
  type HookOrderingShape,
  type HookTablesShape,
  withHookCompletionById,
  withHookErrorLog,
  withHookFunctions,
  withHookHandOff,
  withHookHandOffLookup,
  withHookOrdering,
  withHookPartialKeyIndex,
  withHookTable,
} from "../hooks/mod.ts";

/**
 * The tables of the auth schema at its latest version, as row inference sees them.
 *
 * @example
 * ```ts
 * import type { RowOf } from "@app/fragment-cli/schema";
 * import type { authSchema } from "@app/fragment-cli/auth";
 *
 * type UserRow = RowOf<typeof authSchema, "users">;
 * ```
 */
export type AuthTables =
  & HookTablesShape
  & HookErrorLogShape
  & HookOrderingShape
  & {
    users: {
      id: { type: string; nullable: false; hasDefault: true };
      email: { type: string; nullable: false; hasDefault: false };
      password_hash: { type: string; nullable: false; hasDefault: false };
      role: { type: string; nullable: false; hasDefault: true };
      created_at: { type: Date; nullable: false; hasDefault: true };
      updated_at: { type: Date; nullable: false; hasDefault: true };
      email_verified_at: { type: Date; nullable: true; hasDefault: false };
      deleted_at: { type: Date; nullable: true; hasDefault: false };
      two_factor_enabled: { type: boolean; nullable: false; hasDefault: true };
    };
    totp_factors: {
      user_id: { type: string; nullable: false; hasDefault: false };
      secret_ciphertext: { type: string; nullable: false; hasDefault: false };
      enabled_at: { type: Date; nullable: true; hasDefault: false };
      last_used_step: { type: string; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    recovery_codes: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      code_hash: { type: string; nullable: false; hasDefault: false };
      used_at: { type: Date; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    two_factor_challenges: {
      id: { type: string; nullable: false; hasDefault: true };
      token_hash: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: false; hasDefault: false };
      sign_in_method: { type: string; nullable: false; hasDefault: false };
      active_organization_id: { type: string; nullable: true; hasDefault: false };
      user_agent: { type: string; nullable: true; hasDefault: false };
      redirect_to: { type: string; nullable: true; hasDefault: false };
      attempts: { type: number; nullable: false; hasDefault: true };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    passkeys: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      credential_id: { type: string; nullable: false; hasDefault: false };
      public_key: { type: Uint8Array; nullable: false; hasDefault: false };
      counter: { type: string; nullable: false; hasDefault: true };
      transports: { type: string; nullable: true; hasDefault: false };
      device_type: { type: string; nullable: false; hasDefault: false };
      backed_up: { type: boolean; nullable: false; hasDefault: true };
      name: { type: string; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
      last_used_at: { type: Date; nullable: true; hasDefault: false };
    };
    webauthn_challenges: {
      id: { type: string; nullable: false; hasDefault: true };
      challenge_hash: { type: string; nullable: false; hasDefault: false };
      purpose: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: true; hasDefault: false };
      two_factor_challenge_id: { type: string; nullable: true; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    telegram_accounts: {
      telegram_user_id: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: false; hasDefault: false };
      username: { type: string; nullable: true; hasDefault: false };
      linked_at: { type: Date; nullable: false; hasDefault: true };
    };
    identities: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      provider: { type: string; nullable: false; hasDefault: false };
      subject: { type: string; nullable: false; hasDefault: false };
      email: { type: string; nullable: true; hasDefault: false };
      email_verified: { type: boolean; nullable: false; hasDefault: true };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    oauth_states: {
      id: { type: string; nullable: false; hasDefault: true };
      state_hash: { type: string; nullable: false; hasDefault: false };
      verifier_hash: { type: string; nullable: false; hasDefault: false };
      provider: { type: string; nullable: false; hasDefault: false };
      nonce: { type: string; nullable: true; hasDefault: false };
      redirect_uri: { type: string; nullable: false; hasDefault: false };
      redirect_to: { type: string; nullable: false; hasDefault: false };
      purpose: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: true; hasDefault: false };
      session_id: { type: string; nullable: true; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    telegram_link_tokens: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      token_hash: { type: string; nullable: false; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      used_at: { type: Date; nullable: true; hasDefault: false };
      used_by: { type: string; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    email_link_tokens: {
      id: { type: string; nullable: false; hasDefault: true };
      email: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: true; hasDefault: false };
      token_hash: { type: string; nullable: false; hasDefault: false };
      redirect_to: { type: string; nullable: true; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      used_at: { type: Date; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    account_tokens: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      purpose: { type: string; nullable: false; hasDefault: false };
      email: { type: string; nullable: false; hasDefault: false };
      token_hash: { type: string; nullable: false; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      used_at: { type: Date; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    email_verifications: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      email: { type: string; nullable: false; hasDefault: false };
      token_hash: { type: string; nullable: false; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      used_at: { type: Date; nullable: true; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
    };
    rate_limits: {
      bucket: { type: string; nullable: false; hasDefault: false };
      window_started_at: { type: Date; nullable: false; hasDefault: false };
      hits: { type: number; nullable: false; hasDefault: false };
    };
    sessions: {
      id: { type: string; nullable: false; hasDefault: true };
      user_id: { type: string; nullable: false; hasDefault: false };
      token_hash: { type: string; nullable: false; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
      active_organization_id: { type: string; nullable: true; hasDefault: false };
      last_used_at: { type: Date; nullable: true; hasDefault: false };
      user_agent: { type: string; nullable: true; hasDefault: false };
    };
    organizations: {
      id: { type: string; nullable: false; hasDefault: true };
      name: { type: string; nullable: false; hasDefault: false };
      slug: { type: string; nullable: false; hasDefault: false };
      logo_url: { type: string; nullable: true; hasDefault: false };
      metadata: { type: JsonValue; nullable: true; hasDefault: false };
      created_by: { type: string; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
      updated_at: { type: Date; nullable: false; hasDefault: true };
      deleted_at: { type: Date; nullable: true; hasDefault: false };
      require_two_factor: { type: boolean; nullable: false; hasDefault: true };
    };
    members: {
      id: { type: string; nullable: false; hasDefault: true };
      organization_id: { type: string; nullable: false; hasDefault: false };
      user_id: { type: string; nullable: false; hasDefault: false };
      roles: { type: string[]; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
      updated_at: { type: Date; nullable: false; hasDefault: true };
    };
    organization_audit_log: {
      id: { type: string; nullable: false; hasDefault: true };
      organization_id: { type: string; nullable: false; hasDefault: false };
      action: { type: string; nullable: false; hasDefault: false };
      actor_user_id: { type: string; nullable: true; hasDefault: false };
      target_type: { type: string; nullable: false; hasDefault: false };
      target_id: { type: string; nullable: false; hasDefault: false };
      data: { type: JsonValue; nullable: false; hasDefault: true };
      created_at: { type: Date; nullable: false; hasDefault: true };
      seq: { type: string; nullable: false; hasDefault: true };
    };
    invitations: {
      id: { type: string; nullable: false; hasDefault: true };
      organization_id: { type: string; nullable: false; hasDefault: false };
      email: { type: string; nullable: false; hasDefault: false };
      roles: { type: string[]; nullable: false; hasDefault: false };
      status: { type: string; nullable: false; hasDefault: true };
      token_hash: { type: string; nullable: false; hasDefault: false };
      inviter_id: { type: string; nullable: false; hasDefault: false };
      expires_at: { type: Date; nullable: false; hasDefault: false };
      created_at: { type: Date; nullable: false; hasDefault: true };
      updated_at: { type: Date; nullable: false; hasDefault: true };
      responded_at: { type: Date; nullable: true; hasDefault: false };
    };
  };

/** Versions 1–24: every step before the hooks' error log. */
const stepsToV24 = (s: SchemaBuilder) =>
  // v13–16, appended after v12 (the innermost chain): the durable hook table that carries the
  // organization events, in the auth namespace.
  withHookTable(
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
      .addIndex("sessions", "sessions_user_id_idx", ["user_id"])
      // v4: organizations are soft-deleted (deleted_at); a slug stays taken after deletion.
      .createTable("organizations", {
        id: column.uuid().primaryKey().defaultRandom(),
        name: column.text(),
        slug: column.text().unique(),
        logo_url: column.text().nullable(),
        metadata: column.jsonb().nullable(),
        created_by: column.uuid().references("users", "id"),
        created_at: column.timestamptz().defaultNow(),
        updated_at: column.timestamptz().defaultNow(),
        deleted_at: column.timestamptz().nullable(),
      })
      // v5: one row per membership; roles is a JSON array of role names, replaced as a whole.
      .createTable("members", {
        id: column.uuid().primaryKey().defaultRandom(),
        organization_id: column.uuid().references("organizations", "id", { onDelete: "cascade" }),
        user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
        roles: column.jsonb<string[]>(),
        created_at: column.timestamptz().defaultNow(),
        updated_at: column.timestamptz().defaultNow(),
      })
      // v6: one membership per user and organization (also what makes a double accept harmless).
      .addIndex("members", "members_organization_user_key", ["organization_id", "user_id"], {
        unique: true,
      })
      // v7: a user's organizations (GET /organizations, GET /me).
      .addIndex("members", "members_user_id_idx", ["user_id"])
      // v8: invitation tokens are kept (owners and the invitee list them) and compared in constant
      // time; status is pending | accepted | rejected | canceled | expired.
      .createTable("invitations", {
        id: column.uuid().primaryKey().defaultRandom(),
        organization_id: column.uuid().references("organizations", "id", { onDelete: "cascade" }),
        email: column.text(),
        roles: column.jsonb<string[]>(),
        status: column.text().default("pending"),
        token: column.text().unique(),
        inviter_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
        expires_at: column.timestamptz(),
        created_at: column.timestamptz().defaultNow(),
        updated_at: column.timestamptz().defaultNow(),
        responded_at: column.timestamptz().nullable(),
      })
      // v9: at most one pending invitation per email and organization; re-inviting rotates it.
      .addIndex("invitations", "invitations_pending_email_key", ["organization_id", "email"], {
        unique: true,
        where: "status = 'pending'",
      })
      // v10: the invitee's pending invitations (GET /organizations/invitations, GET /me).
      .addIndex("invitations", "invitations_email_idx", ["email", "status"])
      // v11: an organization's invitations, newest last (GET /organizations/:id/invitations).
      .addIndex("invitations", "invitations_organization_idx", [
        "organization_id",
        "created_at",
        "id",
      ])
      // v12: the organization a credential works in; cleared when the organization goes.
      .addColumn(
        "sessions",
        "active_organization_id",
        column.uuid().nullable().references("organizations", "id", { onDelete: "set null" }),
      ),
  )
    // v17: an organization's members page in keyset order (GET /organizations/:id/members), so a
    // page costs the same at the first, middle and last page of a million members.
    .addIndex("members", "members_organization_page_idx", ["organization_id", "created_at", "id"])
    // v18: set when the user proved they read mail at `email` (POST /verify-email); invitations
    // are matched only to verified addresses.
    .addColumn("users", "email_verified_at", column.timestamptz().nullable())
    // v19: single-use, expiring email verification tokens; only their SHA-256 is kept. `email` is
    // the address the token proves, so a token sent before an address change proves nothing.
    .createTable("email_verifications", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      email: column.text(),
      token_hash: column.text().unique(),
      expires_at: column.timestamptz(),
      used_at: column.timestamptz().nullable(),
      created_at: column.timestamptz().defaultNow(),
    })
    // v20: a user's verification tokens (resend replaces the pending ones).
    .addIndex("email_verifications", "email_verifications_user_id_idx", ["user_id"])
    // v21: invitation tokens are kept as their SHA-256 only (hex), like session tokens.
    .renameColumn("invitations", "token", "token_hash")
    // v22: the tokens stored in plain text before v21 are hashed in place; they keep working.
    .sql(({ qualify }) =>
      `UPDATE ${
        qualify("invitations")
      } SET token_hash = encode(sha256(convert_to(token_hash, 'UTF8')), 'hex')`
    )
    // v23: fixed-window rate-limit counters, one row per bucket (e.g. "sign-in:ip:<address>"),
    // in the database so that every process of a deployment counts the same hits.
    .createTable("rate_limits", {
      bucket: column.text().primaryKey(),
      window_started_at: column.timestamptz(),
      hits: column.integer(),
    })
    // v24: expired windows are deleted oldest first.
    .addIndex("rate_limits", "rate_limits_window_idx", ["window_started_at"]);

/**
 * ---- Telegram accounts: v35–37, one block appended after the account lifecycle. ----
 * v35: the Telegram user linked to an account: one Telegram user ↔ one account (both unique).
 * v36: single-use, expiring link tokens (the `/start` parameter); only their SHA-256 is kept;
 * `used_by` is the Telegram user that used it (a redelivered `/start` by the same user is the same
 * link, by anyone else a refusal).
 * v37: a user's link tokens (a newer link voids the older ones).
 */
function withTelegramAccounts<Tables extends TablesShape>(builder: SchemaBuilder<Tables>) {
  return builder
    .createTable("telegram_accounts", {
      telegram_user_id: column.bigint().primaryKey(),
      user_id: column.uuid().unique().references("users", "id", { onDelete: "cascade" }),
      username: column.text().nullable(),
      linked_at: column.timestamptz().defaultNow(),
    })
    .createTable("telegram_link_tokens", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      token_hash: column.text().unique(),
      expires_at: column.timestamptz(),
      used_at: column.timestamptz().nullable(),
      used_by: column.bigint().nullable(),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("telegram_link_tokens", "telegram_link_tokens_user_idx", ["user_id"]);
}

/**
 * ---- Organizations for real teams: v39–41, one block. ----
 * v39: the audit log of the organizations, one row per committed change (written in the change's
 * transaction); `target_id` is the organization's, member's or invitation's id; `seq` is the order
 * the entries were written in. v40: an organization's entries, newest first (GET /organizations/:organizationId/audit-log). v41: the
 * purge of entries older than `organizations.auditLogRetentionDays`.
 */
function withAuditLog<T extends TablesShape>(builder: SchemaBuilder<T>) {
  return builder
    .createTable("organization_audit_log", {
      id: column.uuid().primaryKey().defaultRandom(),
      organization_id: column.uuid().references("organizations", "id", { onDelete: "cascade" }),
      action: column.text(),
      actor_user_id: column.uuid().nullable(),
      target_type: column.text(),
      target_id: column.uuid(),
      data: column.jsonb().default({}),
      created_at: column.timestamptz().defaultNow(),
      // The order of the log: a clock can tie (PGlite's has millisecond steps, so two entries of
      // one transaction often share a time); the sequence never does.
      seq: column.bigint().identity(),
    })
    .addIndex("organization_audit_log", "organization_audit_log_page_idx", [
      "organization_id",
      "seq",
    ])
    .addIndex("organization_audit_log", "organization_audit_log_created_idx", ["created_at"]);
}

/**
 * ---- Sign-in with providers: v47–51, one block. ----
 * v47: an account at a provider (its id in `oauth.providers` and its stable `subject`) linked to a
 * user; `email` and `email_verified` are what the provider said at the last sign-in.
 * v48: one provider account belongs to one user. v49: a user's identities (GET /identities).
 * v50: the flows in progress: the SHA-256 of the `state` and of the PKCE verifier the browser's
 * cookie holds (never the verifier), the `nonce`, the exact `redirect_uri` sent, where the
 * browser goes afterwards, and for a connection the user and the session that asked; deleted by
 * the callback that uses it (single use). v51: expired flows are deleted oldest first.
 */
function withOAuthIdentities<T extends TablesShape>(builder: SchemaBuilder<T>) {
  return builder
    .createTable("identities", {
      id: column.uuid().primaryKey().defaultRandom(),
      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
      provider: column.text(),
      subject: column.text(),
      email: column.text().nullable(),
      email_verified: column.boolean().default(false),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("identities", "identities_provider_subject_key", ["provider", "subject"], {
      unique: true,
    })
    .addIndex("identities", "identities_user_idx", ["user_id"])
    .createTable("oauth_states", {
      id: column.uuid().primaryKey().defaultRandom(),
      state_hash: column.text().unique(),
      verifier_hash: column.text(),
      provider: column.text(),
      nonce: column.text().nullable(),
      redirect_uri: column.text(),
      redirect_to: column.text(),
      purpose: column.text(),
      user_id: column.uuid().nullable().references("users", "id", { onDelete: "cascade" }),
      session_id: column.uuid().nullable().references("sessions", "id", { onDelete: "cascade" }),
      expires_at: column.timestamptz(),
      created_at: column.timestamptz().defaultNow(),
    })
    .addIndex("oauth_states", "oauth_states_expires_idx", ["expires_at"]);
}

const authSchemaValue: Schema<AuthTables> = defineSchema("auth", (s) =>
  // v63–65: the hook table's (name, key) index holds keyed occurrences only
  // (withHookPartialKeyIndex).
  withHookPartialKeyIndex(
    // ---- Second factors and passkeys: v52–62 (withSecondFactors). ----
    withSecondFactors(
      // ---- Sign-in with providers: v47–51 (withOAuthIdentities). ----
      withOAuthIdentities(
        // v43: the completion finds the hook table's rows by id only, whatever the statistics say
        // (withHookCompletionById).
        withHookCompletionById(
          // v42: the completion finds a key's next occurrence by the ordering index and marks attempts
          // done by primary-key probes (withHookHandOffLookup).
          withHookHandOffLookup(
            // ---- Organizations for real teams: v39–41 (withAuditLog). ----
            withAuditLog(
              // ---- Hook hand-off: v38, one block. ----
              // v38: an ordering key's next occurrence goes from blocked to running for the worker that
              // finished the one before it, in the completion's statement (withHookHandOff).
              withHookHandOff(
                // ---- Telegram accounts: v35–37 (withTelegramAccounts). ----
                withTelegramAccounts(
                  // v29: the hook worker's SQL functions (a claim and a completion in one round trip each).
                  withHookFunctions(
                    // v26–28: ordering keys of the hook table (occurrences of one key run one at a time, in order).
                    withHookOrdering(
                      // v25: the error log of the hook table (every failed delivery's error, with its time).
                      withHookErrorLog(stepsToV24(s)),
                    ),
                  )
                    // ---- Account lifecycle: v30–34, one block. ----
                    // v30: when the credential was last used (written at most once a minute per session).
                    .addColumn("sessions", "last_used_at", column.timestamptz().nullable())
                    // v31: the User-Agent of the sign-in that issued it (at most 512 characters), for GET /sessions.
                    .addColumn("sessions", "user_agent", column.text().nullable())
                    // v32: a deleted account keeps its row (organizations it created point at it) under a
                    // tombstone address, with no password, session, membership or pending invitation left.
                    .addColumn("users", "deleted_at", column.timestamptz().nullable())
                    // v33: single-use, expiring account tokens (purpose `password_reset` or `email_change`); only
                    // their SHA-256 is kept. `email` is the address the token was mailed to (the new address of
                    // an email change), so a reset mailed before an address change proves nothing afterwards.
                    .createTable("account_tokens", {
                      id: column.uuid().primaryKey().defaultRandom(),
                      user_id: column.uuid().references("users", "id", { onDelete: "cascade" }),
                      purpose: column.text(),
                      email: column.text(),
                      token_hash: column.text().unique(),
                      expires_at: column.timestamptz(),
                      used_at: column.timestamptz().nullable(),
                      created_at: column.timestamptz().defaultNow(),
                    })
                    // v34: a user's tokens of one purpose (a newer request voids the older ones).
                    .addIndex("account_tokens", "account_tokens_user_purpose_idx", [
                      "user_id",
                      "purpose",
                    ]),
                ),
              ),
            ),
          ),
        )
          // ---- Email links, passwordless sign-in: v44–46, one block. ----
          // v44: single-use, expiring sign-in link tokens; only their SHA-256 is kept. `email` is the
          // address the link was mailed to; `user_id` the account it signs in to, or NULL for an address
          // without an account (`emailLinkSignUp`: the account is created when the link is used);
          // `redirect_to` the checked page the app goes to afterwards.
          .createTable("email_link_tokens", {
            id: column.uuid().primaryKey().defaultRandom(),
            email: column.text(),
            user_id: column.uuid().nullable().references("users", "id", { onDelete: "cascade" }),
            token_hash: column.text().unique(),
            redirect_to: column.text().nullable(),
            expires_at: column.timestamptz(),
            used_at: column.timestamptz().nullable(),
            created_at: column.timestamptz().defaultNow(),
          })
          // v45: an address's links (a newer link voids the older ones).
          .addIndex("email_link_tokens", "email_link_tokens_email_idx", ["email"])
          // v46: the purge of expired links.
          .addIndex("email_link_tokens", "email_link_tokens_expires_idx", ["expires_at"]),
      ),
    ),
  ));

/**
 * The auth module's schema (namespace `auth` unless the module is given another). Apply it with
 * `fragment-cli db migrate` (or `serve`, which migrates) before the module serves requests.
 *
 * @example Apply it in a test
 * ```ts
 * import { migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const adapter = pgliteAdapter();
 * await migrate(adapter, authSchema, { namespace: "auth" });
 * ```
 */
export const authSchema: Schema<AuthTables> = authSchemaValue;
