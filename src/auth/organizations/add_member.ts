/**
 * Adding a member without an invitation: by an owner or admin through
 * `POST /organizations/:organizationId/members` when `canAddMember` allows it, or by the server
 * through `module.api.addMember()`. Nobody can otherwise put a user into an organization they did
 * not accept to join (finding 5 of the security review: a stranger added any user id they had
 * seen, and their organization then filled the victim's `/me`).
 *
 * The policy is asked first, outside any transaction (it may be slow and must not run under a
 * lock), about the caller's entry and the user read by one statement. The insert is then one
 * statement: it reads the caller's roles in the live organization, looks the user up, counts the
 * members against `membershipLimit`, inserts the member and enqueues its `memberAdded` event
 * together. Without a limit it runs alone, with no transaction and no lock (adding a member
 * removes no owner: a role change committed before it is seen, one committed while it runs is
 * ordered after it). With a limit it runs in a transaction right after
 * locking the organization row, so that of concurrent adds and acceptances each counts the
 * members the others committed (its snapshot is taken after the lock is granted). The transaction
 * is one `db.batch()`: `BEGIN`, the lock and the statement are sent together, `COMMIT` once they
 * answered.
 *
 * @module
 */

import type { EnqueueSql } from "../../hooks/mod.ts";
import type { SqlQuerier, SqlStatement } from "../../sql/mod.ts";
import { batchWhileBusy } from "../../sql/batch_while_busy.ts";
import { authError, notFound } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthUser } from "../account/user.ts";
import { isUuid, publicUser } from "../account/user_store.ts";
import { requireEntry, requireGrant, requirePermission, requireSecondFactor } from "./access.ts";
import { memberAddedAuditSql } from "./audit_log.ts";
import type { OrganizationsContext } from "./context.ts";
import type { EntryRow } from "./organization_store.ts";
import type { PermissionModel } from "./permissions.ts";
import { lockOrganizationStatement } from "./quotas.ts";
import {
  type AuthMember,
  memberAccessColumn,
  memberColumns,
  memberJsonSql,
  type MemberRow,
  organizationColumns,
  toMember,
  toOrganization,
} from "./resources.ts";

/** What to add, and who asks (`null`: the server, through `module.api.addMember()`). */
export interface AddMemberInput {
  organizationId: string;
  userId: string;
  roles: readonly string[];
  actor: AuthUser | null;
}

function directAddRefused(): Error {
  return authError(
    "DIRECT_ADD_NOT_ALLOWED",
    "Adding a user directly is not allowed: invite them " +
      "(POST /organizations/:organizationId/invitations) and let them accept",
  );
}

function userNotFound(): Error {
  return authError("USER_NOT_FOUND", "User not found");
}

/**
 * 403 `FORBIDDEN` unless the caller's roles may add a member with `newRoles`: `member:create`,
 * and every permission of the roles granted (an owner for `owner`).
 */
function requireAdder(
  model: PermissionModel,
  callerRoles: readonly string[],
  newRoles: readonly string[],
): void {
  requirePermission(model, callerRoles, "member:create");
  requireGrant(model, callerRoles, newRoles);
}

/** How often a direct add is retried when the caller's roles changed (still allowed) meanwhile. */
const ROLE_CHANGE_RETRIES = 3;

/**
 * Adds a user as a member, in the order of the checks: the caller's rights (404 for a
 * non-member, 403 `FORBIDDEN`), the `canAddMember` policy (403 `DIRECT_ADD_NOT_ALLOWED`; without
 * one, before the user is even looked up, so a refused caller learns nothing about user ids), the
 * user (404 `USER_NOT_FOUND`), the policy's answer, `membershipLimit` (403
 * `MEMBERSHIP_LIMIT_REACHED`), an existing membership (409 `ALREADY_MEMBER`). The server
 * (`actor: null`) skips the caller's checks and the policy.
 */
export async function addMember(
  context: OrganizationsContext,
  input: AddMemberInput,
): Promise<AuthMember> {
  const { db, tables, options, notifications } = context;
  const { actor, roles } = input;
  const model = options.permissions;
  /** The caller's roles as checked: the statement inserts only while they are still these. */
  let checkedRoles: readonly string[] | null = null;
  if (actor) {
    const policy = options.canAddMember;
    if (!policy) {
      const entry = await requireEntry(db, tables, input.organizationId, actor.id);
      requireAdder(model, entry.m_roles, roles);
      throw directAddRefused();
    }
    const { entry, user } = await findEntryAndUser(context, {
      organizationId: input.organizationId,
      callerId: actor.id,
      userId: input.userId,
    });
    if (!entry) throw notFound("Organization");
    requireSecondFactor(entry);
    requireAdder(model, entry.m_roles, roles);
    checkedRoles = entry.m_roles;
    if (!user) throw userNotFound();
    const allowed = await policy({
      actor,
      organization: toOrganization(entry),
      user: publicUser(user),
      roles: Object.freeze([...roles]),
    });
    if (allowed !== true) throw directAddRefused();
  } else if (!isUuid(input.organizationId)) {
    throw notFound("Organization");
  }
  const limit = options.membershipLimit;
  let outcome: AddMemberOutcome | null = null;
  for (let attempt = 1; attempt <= ROLE_CHANGE_RETRIES; attempt++) {
    const statement = addMemberStatement(tables, {
      organizationId: input.organizationId,
      callerId: actor?.id ?? null,
      callerRoles: checkedRoles,
      userId: input.userId,
      roles,
      limit,
      event: (payloadSql, firstParam) =>
        notifications.eventSql("memberAdded", { from: "inserted", payloadSql, firstParam }),
    });
    // With a limit, the lock and the statement run in one transaction, sent together (a batch):
    // the server runs the statement once the lock is granted, so its snapshot sees every add
    // that held the lock before. A deleted or missing organization locks nothing; the statement
    // then finds none.
    const [row] = limit === null
      ? await db.query<AddMemberRow>(statement.sql, statement.params)
      : (await db.batch<[unknown[], AddMemberRow[]]>([
        lockOrganizationStatement(tables, input.organizationId, "UPDATE"),
        statement,
      ]))[1];
    outcome = statement.outcome(row);
    if (outcome?.member) {
      if (outcome.eventEnqueued) notifications.wake();
      return toMember(outcome.member);
    }
    // Nothing was inserted: say why, in the order the checks apply.
    if (!outcome || !outcome.organizationFound) throw notFound("Organization");
    if (!actor) break;
    // The caller's roles as the statement saw them (a role change may have committed meanwhile).
    if (!outcome.callerRoles) throw notFound("Organization");
    requireAdder(model, outcome.callerRoles, roles);
    if (JSON.stringify(outcome.callerRoles) === JSON.stringify(checkedRoles)) break;
    checkedRoles = outcome.callerRoles; // changed, still allowed: try again with these
  }
  if (!outcome) throw notFound("Organization");
  if (!outcome.userFound) throw userNotFound();
  if (!outcome.hasRoom) {
    throw authError(
      "MEMBERSHIP_LIMIT_REACHED",
      `The organization has reached its limit of ${limit} members`,
    );
  }
  throw authError("ALREADY_MEMBER", "The user is already a member");
}

/** What {@link findEntryAndUser} looks up: the caller's entry and the user to add. */
interface EntryAndUserKey {
  organizationId: string;
  callerId: string;
  userId: string;
}

/** The caller's entry (`null`: not a member of a live organization) and the user (`null`). */
interface EntryAndUser {
  entry: EntryRow | null;
  user: AuthUser | null;
}

/** One batched reader per organizations context (its adapter and tables). */
const entryAndUserReaders = new WeakMap<
  OrganizationsContext,
  (key: EntryAndUserKey) => Promise<EntryAndUser>
>();

/**
 * The caller's entry in the live organization and the user to add (`null` when missing or
 * deleted): what the policy is asked about. Read by one statement, which the adds that arrive
 * together share (`batchWhileBusy`: one statement and one round trip for every lookup that queued
 * while the previous one was in flight).
 */
function findEntryAndUser(
  context: OrganizationsContext,
  key: EntryAndUserKey,
): Promise<EntryAndUser> {
  // Only UUIDs reach the shared statement: a malformed id must not fail the others' lookups.
  if (!isUuid(key.organizationId) || !isUuid(key.callerId)) {
    return Promise.resolve({ entry: null, user: null });
  }
  let read = entryAndUserReaders.get(context);
  if (!read) {
    const { db, tables } = context;
    read = batchWhileBusy((keys: EntryAndUserKey[]) => readEntriesAndUsers(db, tables, keys));
    entryAndUserReaders.set(context, read);
  }
  return read(key);
}

async function readEntriesAndUsers(
  db: SqlQuerier,
  tables: AuthTableNames,
  keys: readonly EntryAndUserKey[],
): Promise<EntryAndUser[]> {
  const rows = await db.query<
    EntryRow & { u_id: string | null; u_email: string; u_role: string; u_verified: boolean }
  >(
    `SELECT e.*, u.id AS u_id, u.email AS u_email, u.role AS u_role,
            (u.email_verified_at IS NOT NULL) AS u_verified
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY
       AS k(organization_id, caller_id, user_id, i)
     LEFT JOIN LATERAL (
       SELECT ${organizationColumns("o")}, ${memberColumns("m")},
         ${memberAccessColumn(tables, "o", "m")}
       FROM ${tables.organizations} o
       JOIN ${tables.members} m ON m.organization_id = o.id AND m.user_id = k.caller_id
       WHERE o.id = k.organization_id AND o.deleted_at IS NULL
     ) AS e ON true
     LEFT JOIN ${tables.users} u ON u.id = k.user_id AND u.deleted_at IS NULL
     ORDER BY k.i`,
    [
      keys.map((key) => key.organizationId),
      keys.map((key) => key.callerId),
      keys.map((key) => isUuid(key.userId) ? key.userId : null),
    ],
  );
  return rows.map((row) => ({
    entry: row.o_id === null ? null : row,
    user: row.u_id === null
      ? null
      : { id: row.u_id, email: row.u_email, role: row.u_role, emailVerified: row.u_verified },
  }));
}

/** The row the statement answers: the new member's columns (all `null` when none) and what it found. */
type AddMemberRow = MemberRow & {
  organization_found: boolean;
  caller_roles: string[] | null;
  user_found: boolean;
  has_room: boolean;
};

/** What the statement found: the new member, or what stood in its way. */
interface AddMemberOutcome {
  /** The inserted member, `null` when nothing was inserted. */
  member: MemberRow | null;
  /** Whether the organization exists and is live. */
  organizationFound: boolean;
  /** The caller's roles in it, `null` when not a member (or no caller). */
  callerRoles: string[] | null;
  /** Whether the user to add exists (a deleted account does not). */
  userFound: boolean;
  /** Whether the organization has fewer members than the limit (the user not counted). */
  hasRoom: boolean;
  /** Whether a `memberAdded` event was enqueued with the member (wake the workers then). */
  eventEnqueued: boolean;
}

/**
 * Inserts the member, with its audit log entry, when the organization is live, the caller
 * (unless `callerId` is `null`) is a member whose roles are still `callerRoles` (the ones the
 * permissions were checked on), the user exists, the organization has room and the user is not
 * a member yet; reports what it found either way.
 */
function addMemberStatement(
  tables: AuthTableNames,
  input: {
    organizationId: string;
    callerId: string | null;
    callerRoles: readonly string[] | null;
    userId: string;
    roles: readonly string[];
    limit: number | null;
    /** The `memberAdded` event's insert, given the payload SQL; `null` when nobody listens. */
    event: (payloadSql: string, firstParam: number) => EnqueueSql | null;
  },
): SqlStatement & { outcome(row: AddMemberRow): AddMemberOutcome } {
  const event = input.event(
    `json_build_object('member', ${
      memberJsonSql("inserted", "m_")
    }, 'via', 'added', 'actorUserId', $2::text)`,
    7,
  );
  return {
    sql: `WITH org AS (
       SELECT o.id, m.roles FROM ${tables.organizations} o
       LEFT JOIN ${tables.members} m ON m.organization_id = o.id AND m.user_id = $2::uuid
       WHERE o.id = $1 AND o.deleted_at IS NULL
     ), target AS (
       SELECT id FROM ${tables.users} WHERE id = $3 AND deleted_at IS NULL
     ), room AS (
       SELECT $6::int IS NULL OR (
         SELECT count(*) FROM ${tables.members} WHERE organization_id = $1 AND user_id <> $3
       ) < $6::int AS ok
     ), inserted AS (
       INSERT INTO ${tables.members} AS m (organization_id, user_id, roles)
       SELECT org.id, target.id, $4::text::jsonb FROM org, target, room
       WHERE room.ok AND ($2::uuid IS NULL OR org.roles = $5::text::jsonb)
       ON CONFLICT (organization_id, user_id) DO NOTHING
       RETURNING ${memberColumns("m")}
     ), audited AS (${memberAddedAuditSql(tables, "inserted", "$2::uuid")})${
      event ? `, event AS (${event.sql})` : ""
    }
     SELECT EXISTS (SELECT 1 FROM org) AS organization_found,
            (SELECT roles FROM org) AS caller_roles,
            EXISTS (SELECT 1 FROM target) AS user_found,
            (SELECT ok FROM room) AS has_room, inserted.*
     FROM (SELECT 1) AS one LEFT JOIN inserted ON true`,
    params: [
      input.organizationId,
      input.callerId,
      isUuid(input.userId) ? input.userId : null,
      JSON.stringify(input.roles),
      input.callerRoles === null ? null : JSON.stringify(input.callerRoles),
      input.limit,
      ...(event?.params ?? []),
    ],
    outcome(row) {
      const member = row.m_id === null ? null : row;
      return {
        member,
        organizationFound: row.organization_found,
        callerRoles: row.caller_roles,
        userFound: row.user_found,
        hasRoom: row.has_room,
        eventEnqueued: member !== null && event !== null,
      };
    },
  };
}
