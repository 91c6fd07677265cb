/**
 * The user's `two_factor_enabled` flag: whether they have a second factor (an enabled TOTP or at
 * least one passkey). It is derived data, kept beside the user so that the statements that need it
 * (a sign-in deciding whether to ask for a second step, an organization that requires a second
 * factor) read it with the user instead of probing two tables. Every statement that enables or
 * removes a factor calls {@link refreshSecondFactorFlag} in the same transaction.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/**
 * Recomputes the user's flag from their factors and returns it. Call it in the transaction that
 * changed a factor, after the change.
 */
export async function refreshSecondFactorFlag(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<boolean> {
  const [row] = await db.query<{ enabled: boolean }>(
    `UPDATE ${tables.users}
     SET two_factor_enabled =
       EXISTS (SELECT 1 FROM ${tables.totpFactors} WHERE user_id = $1 AND enabled_at IS NOT NULL)
       OR EXISTS (SELECT 1 FROM ${tables.passkeys} WHERE user_id = $1)
     WHERE id = $1
     RETURNING two_factor_enabled AS enabled`,
    [userId],
  );
  return row?.enabled ?? false;
}
