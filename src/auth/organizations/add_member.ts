/**
 * Adding a member in one statement: the caller's roles are checked, the user looked up, the
 * member inserted and its `memberAdded` event enqueued together, so there is no transaction to
 * open and no lock to hold. One snapshot serves the check and the insert: a role change or a
 * deletion that commits while the statement runs is ordered after the addition, one committed
 * before it is seen.
 *
 * @module
 */

import type { EnqueueSql, SqlQuerier } from "../../db/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { isUuid } from "../users.ts";
import { ADMIN_ROLE, OWNER_ROLE } from "./options.ts";
import { memberColumns, memberJsonSql, type MemberRow } from "./resources.ts";

/** What the statement found: the new member, or what stood in its way. */
export interface AddMemberOutcome {
  /** The inserted member, `null` when nothing was inserted. */
  member: MemberRow | null;
  /** The caller's roles in the live organization, `null` when not a member of it. */
  callerRoles: string[] | null;
  /** Whether the user to add exists. */
  userFound: boolean;
  /** Whether a `memberAdded` event was enqueued with the member (wake the workers then). */
  eventEnqueued: boolean;
}

/** The input of {@link addMemberStatement}. */
export interface AddMemberInput {
  organizationId: string;
  callerId: string;
  userId: string;
  roles: readonly string[];
  /** The `memberAdded` event's insert, given the payload SQL; `null` when nobody listens. */
  event: (payloadSql: string, firstParam: number) => EnqueueSql | null;
}

/**
 * Inserts the member when the caller is an owner or admin of the live organization (an owner to
 * grant `owner`) and the user exists and is not a member yet; reports what it found either way.
 */
export async function addMemberStatement(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: AddMemberInput,
): Promise<AddMemberOutcome> {
  if (!isUuid(input.organizationId)) {
    return { member: null, callerRoles: null, userFound: false, eventEnqueued: false };
  }
  const event = input.event(
    `json_build_object('member', ${
      memberJsonSql("inserted", "m_")
    }, 'via', 'added', 'actorUserId', $2::text)`,
    8,
  );
  const [row] = await db.query<
    MemberRow & { caller_roles: string[] | null; user_found: boolean }
  >(
    `WITH caller AS (
       SELECT o.id, m.roles FROM ${tables.organizations} o
       JOIN ${tables.members} m ON m.organization_id = o.id AND m.user_id = $2
       WHERE o.id = $1 AND o.deleted_at IS NULL
     ), target AS (
       SELECT id FROM ${tables.users} WHERE id = $3
     ), inserted AS (
       INSERT INTO ${tables.members} AS m (organization_id, user_id, roles)
       SELECT caller.id, target.id, $4::text::jsonb FROM caller, target
       WHERE (caller.roles ? $5 OR caller.roles ? $6) AND (NOT $7::bool OR caller.roles ? $5)
       ON CONFLICT (organization_id, user_id) DO NOTHING
       RETURNING ${memberColumns("m")}
     )${event ? `, event AS (${event.sql})` : ""}
     SELECT (SELECT roles FROM caller) AS caller_roles,
            EXISTS (SELECT 1 FROM target) AS user_found, inserted.*
     FROM (SELECT 1) AS one LEFT JOIN inserted ON true`,
    [
      input.organizationId,
      input.callerId,
      isUuid(input.userId) ? input.userId : null,
      JSON.stringify(input.roles),
      OWNER_ROLE,
      ADMIN_ROLE,
      input.roles.includes(OWNER_ROLE),
      ...(event?.params ?? []),
    ],
  );
  const member = row.m_id === null ? null : row;
  return {
    member,
    callerRoles: row.caller_roles,
    userFound: row.user_found,
    eventEnqueued: member !== null && event !== null,
  };
}
