/**
 * The SQL of a user's second factors: the TOTP factor (one row per user: its sealed secret, when
 * it was confirmed, the last time step a code was accepted for), the recovery codes (hashes), the
 * counts `GET /two-factor` answers, and the removal of them all when an address is proven by
 * someone else than whoever set the account up.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthTwoFactorMethod, AuthTwoFactorStatus } from "./two_factor_inputs.ts";
import { refreshSecondFactorFlag } from "./factor_flag.ts";

/** The user's TOTP factor: its sealed secret and whether it is confirmed. */
export interface TotpRow {
  ciphertext: string;
  enabled: boolean;
}

/** The user's factors as `GET /two-factor` counts them. */
export async function factorStatus(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthTwoFactorStatus> {
  const [row] = await db.query<AuthTwoFactorStatus>(
    `SELECT u.two_factor_enabled AS enabled,
       EXISTS (SELECT 1 FROM ${tables.totpFactors} t
               WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS totp,
       (SELECT count(*)::int FROM ${tables.recoveryCodes} r
        WHERE r.user_id = u.id AND r.used_at IS NULL) AS "recoveryCodesLeft",
       (SELECT count(*)::int FROM ${tables.passkeys} p WHERE p.user_id = u.id) AS passkeys
     FROM ${tables.users} u WHERE u.id = $1`,
    [userId],
  );
  return row ?? { enabled: false, totp: false, recoveryCodesLeft: 0, passkeys: 0 };
}

/**
 * The ways the user can answer a second step, when they have a second factor (`null` without
 * one): read with the sign-in, in its transaction.
 */
export async function secondStepMethods(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthTwoFactorMethod[] | null> {
  const status = await factorStatus(db, tables, userId);
  if (!status.enabled) return null;
  const methods: AuthTwoFactorMethod[] = [];
  if (status.totp) methods.push("totp");
  if (status.recoveryCodesLeft > 0) methods.push("recoveryCode");
  if (status.passkeys > 0) methods.push("passkey");
  return methods;
}

/** The user's TOTP factor, confirmed or not; `null` without one. */
export async function findTotp(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<TotpRow | null> {
  const [row] = await db.query<TotpRow>(
    `SELECT secret_ciphertext AS ciphertext, enabled_at IS NOT NULL AS enabled
     FROM ${tables.totpFactors} WHERE user_id = $1`,
    [userId],
  );
  return row ?? null;
}

/**
 * Stores a new, unconfirmed secret, replacing an unconfirmed one; `false` (nothing written) when
 * the user's TOTP is confirmed already.
 */
export async function storePendingTotp(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  ciphertext: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO ${tables.totpFactors} (user_id, secret_ciphertext) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE
       SET secret_ciphertext = EXCLUDED.secret_ciphertext, last_used_step = NULL,
         created_at = now()
       WHERE ${tables.totpFactors}.enabled_at IS NULL
     RETURNING user_id`,
    [userId, ciphertext],
  );
  return rows.length === 1;
}

/**
 * Confirms the unconfirmed secret `ciphertext` (not one that replaced it meanwhile), with the
 * step of the code that confirmed it as used; `false` when there is no such secret.
 */
export async function confirmTotp(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  ciphertext: string,
  step: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tables.totpFactors} SET enabled_at = now(), last_used_step = $3
     WHERE user_id = $1 AND enabled_at IS NULL AND secret_ciphertext = $2
     RETURNING user_id`,
    [userId, ciphertext, step],
  );
  return rows.length === 1;
}

/**
 * Spends the time step of an accepted code: `false` when it, or a later one, was spent already
 * (the code is replayed). One statement: of two requests with the same code, one wins.
 */
export async function useTotpStep(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  step: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tables.totpFactors} SET last_used_step = $2
     WHERE user_id = $1 AND enabled_at IS NOT NULL
       AND (last_used_step IS NULL OR last_used_step < $2)
     RETURNING user_id`,
    [userId, step],
  );
  return rows.length === 1;
}

/** Replaces the user's recovery codes by these hashes (the older codes are void). */
export async function replaceRecoveryCodes(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  hashes: readonly string[],
): Promise<void> {
  await db.query(`DELETE FROM ${tables.recoveryCodes} WHERE user_id = $1`, [userId]);
  await db.query(
    `INSERT INTO ${tables.recoveryCodes} (user_id, code_hash)
     SELECT $1, hash FROM unnest($2::text[]) AS hash`,
    [userId, hashes],
  );
}

/**
 * Spends an unused recovery code: how many unused ones are left after it, or `null` when the
 * code is not one of the user's unused codes. One statement: of two uses, one wins.
 */
export async function useRecoveryCode(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  hash: string,
): Promise<number | null> {
  const used = await db.query(
    `UPDATE ${tables.recoveryCodes} SET used_at = now()
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL
     RETURNING id`,
    [userId, hash],
  );
  if (used.length === 0) return null;
  const [row] = await db.query<{ remaining: number }>(
    `SELECT count(*)::int AS remaining FROM ${tables.recoveryCodes}
     WHERE user_id = $1 AND used_at IS NULL`,
    [userId],
  );
  return row.remaining;
}

/** Deletes the user's TOTP factor and recovery codes; whether there was a TOTP factor or a code. */
export async function deleteTotpAndRecoveryCodes(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<boolean> {
  const totp = await db.query(
    `DELETE FROM ${tables.totpFactors} WHERE user_id = $1 RETURNING user_id`,
    [userId],
  );
  const codes = await db.query(
    `DELETE FROM ${tables.recoveryCodes} WHERE user_id = $1 RETURNING id`,
    [userId],
  );
  return totp.length > 0 || codes.length > 0;
}

/**
 * Removes every second factor of the user (TOTP, recovery codes, passkeys) and their pending
 * second steps, then refreshes the user's flag: for an account taken back by the owner of its
 * address. Whether the user had a second factor.
 */
export async function removeSecondFactors(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<boolean> {
  const [before] = await db.query<{ enabled: boolean }>(
    `SELECT two_factor_enabled AS enabled FROM ${tables.users} WHERE id = $1`,
    [userId],
  );
  await deleteTotpAndRecoveryCodes(db, tables, userId);
  await db.query(`DELETE FROM ${tables.passkeys} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.webauthnChallenges} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.twoFactorChallenges} WHERE user_id = $1`, [userId]);
  await refreshSecondFactorFlag(db, tables, userId);
  return before?.enabled === true;
}
