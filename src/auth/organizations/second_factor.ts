/**
 * Organizations that require a second factor, from the account's side: whether a user has one
 * (the `two_factor_enabled` flag the factor routes keep, see `two_factor/factor_flag.ts`), and the
 * record of a member who removed their last one while an organization of theirs requires it.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { OrganizationEventSink } from "../account/lifecycle_context.ts";
import type { AuthTableNames } from "../tables.ts";
import { memberColumns, type MemberRow, toMember } from "./resources.ts";

/** Whether the user has a second factor (an enabled TOTP or a passkey). */
export async function hasSecondFactor(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<boolean> {
  const [row] = await db.query<{ enabled: boolean }>(
    `SELECT two_factor_enabled AS enabled FROM ${tables.users}
     WHERE id = $1 AND deleted_at IS NULL`,
    [userId],
  );
  return row?.enabled ?? false;
}

/**
 * Records, in `tx`, that the user removed their last second factor: a `memberSecondFactorLost`
 * event (and its audit entry) in each live organization that requires one and has them as a
 * member. Removing the last factor stays allowed; those organizations answer the user 403
 * `TWO_FACTOR_REQUIRED` from then on (their `/me` entries say `access: "twoFactorRequired"`).
 *
 * Call it in the transaction that removed the factor, after `refreshSecondFactorFlag` returned
 * `false`, and `events.wake()` once that transaction committed. Returns the ids of the
 * organizations it recorded the loss in (none without the organizations feature: `events` is
 * `null`).
 *
 * Every live organization of the user is read with `FOR KEY SHARE`: one whose requirement is
 * being turned on by a transaction that read the user's flag before this one changed it is
 * waited for, then read as that transaction left it, so the loss is recorded there too.
 */
export async function recordSecondFactorLoss(
  tx: SqlQuerier,
  tables: AuthTableNames,
  events: OrganizationEventSink | null,
  userId: string,
): Promise<string[]> {
  if (!events) return [];
  const rows = await tx.query<MemberRow & { required: boolean }>(
    `SELECT ${memberColumns("m")}, o.require_two_factor AS required
     FROM ${tables.members} m
     JOIN ${tables.organizations} o ON o.id = m.organization_id AND o.deleted_at IS NULL
     WHERE m.user_id = $1
     ORDER BY o.created_at, o.id
     FOR KEY SHARE OF o`,
    [userId],
  );
  const recorded: string[] = [];
  for (const row of rows) {
    if (!row.required) continue;
    await events.emit(tx, "memberSecondFactorLost", {
      member: toMember(row),
      actorUserId: userId,
    });
    recorded.push(row.m_organization_id);
  }
  return recorded;
}
