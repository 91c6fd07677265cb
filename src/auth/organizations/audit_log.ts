/**
 * The audit log of an organization: one entry per change (each organization event), written by
 * the event's emission in the change's own transaction, so an entry exists exactly when its
 * change committed. An entry keeps who acted, on what, and a few fields chosen per action: never
 * a token (an invitation's token is not among them).
 *
 * @module
 */

import {
  type KeysetColumn,
  keysetList,
  type Page,
  type PageRequest,
} from "../../pagination/mod.ts";
import type { HookDefinition, ScheduledHookPayload } from "../../hooks/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { OrganizationEventName, OrganizationEventPayloads } from "./event_types.ts";
import { isoSql } from "./resources.ts";

/**
 * One entry of an organization's audit log (`GET /organizations/:organizationId/audit-log`).
 *
 * @example
 * ```ts
 * import type { AuthAuditEntry } from "@app/fragment-cli/auth";
 *
 * const entry: AuthAuditEntry = {
 *   id: "3f1c…", action: "memberRolesChanged", actorUserId: "5f0c…",
 *   target: { type: "member", id: "9d1e…" },
 *   data: { userId: "77aa…", roles: ["admin"], previousRoles: ["member"] },
 *   createdAt: "2026-11-27T05:01:02.345Z",
 * };
 * ```
 */
export interface AuthAuditEntry {
  /** Its id (a UUID). */
  id: string;
  /** What happened: the name of the organization event (`memberAdded`, `ownershipTransferred`…). */
  action: OrganizationEventName;
  /** Who did it; `null` for the server (`api.addMember()`) or the clock (an expiry). */
  actorUserId: string | null;
  /** What it was done to. */
  target: { type: "organization" | "member" | "invitation"; id: string };
  /** The action's details (ids, roles, names, the invitee's email): never a token. */
  data: { [key: string]: JsonValue };
  /** When (ISO 8601 UTC). */
  createdAt: string;
}

/** An entry about to be written. */
interface NewEntry {
  organizationId: string;
  action: OrganizationEventName;
  actorUserId: string | null;
  targetType: AuthAuditEntry["target"]["type"];
  targetId: string;
  data: { [key: string]: JsonValue };
}

type Payloads = OrganizationEventPayloads;

/** The entry of each event: the fields kept are listed here, one by one (no token). */
const ENTRY_OF: { [Name in OrganizationEventName]: (payload: Payloads[Name]) => NewEntry } = {
  organizationCreated: (p) =>
    organizationEntry("organizationCreated", p, {
      name: p.organization.name,
      roles: p.member.roles,
    }),
  organizationUpdated: (p) =>
    organizationEntry("organizationUpdated", p, {
      changed: p.changed,
      name: p.organization.name,
      slug: p.organization.slug,
      // The security setting keeps both sides: who turned the requirement on or off, from what.
      ...(p.previous.requireTwoFactor === undefined ? {} : {
        requireTwoFactor: {
          from: p.previous.requireTwoFactor,
          to: p.organization.requireTwoFactor,
        },
      }),
    }),
  organizationDeleted: (p) =>
    organizationEntry("organizationDeleted", p, {
      canceledInvitationIds: p.canceledInvitationIds,
    }),
  memberAdded: (p) => memberEntry("memberAdded", p.member, p.actorUserId, { via: p.via }),
  memberRemoved: (p) =>
    memberEntry("memberRemoved", p.member, p.actorUserId, {
      left: p.actorUserId === p.member.userId,
    }),
  memberRolesChanged: (p) =>
    memberEntry("memberRolesChanged", p.member, p.actorUserId, {
      previousRoles: p.previousRoles,
    }),
  memberSecondFactorLost: (p) => memberEntry("memberSecondFactorLost", p.member, p.actorUserId, {}),
  ownershipTransferred: (p) =>
    memberEntry("ownershipTransferred", p.member, p.actorUserId, {
      previousRoles: p.previousRoles,
      previousOwner: { memberId: p.previousOwner.id, userId: p.previousOwner.userId },
      previousOwnerRoles: p.previousOwner.roles,
    }),
  invitationCreated: (p) =>
    invitationEntry("invitationCreated", p.invitation, p.actorUserId, {
      expiresAt: p.invitation.expiresAt,
      rotated: p.rotated,
    }),
  invitationAccepted: (p) =>
    invitationEntry("invitationAccepted", p.invitation, p.actorUserId, {
      memberId: p.member.id,
    }),
  invitationRejected: (p) => invitationEntry("invitationRejected", p.invitation, p.actorUserId),
  invitationCanceled: (p) => invitationEntry("invitationCanceled", p.invitation, p.actorUserId),
  invitationExpired: (p) => invitationEntry("invitationExpired", p.invitation, null),
};

function organizationEntry(
  action: OrganizationEventName,
  payload: { organization: { id: string; slug: string }; actorUserId: string },
  data: NewEntry["data"],
): NewEntry {
  const { organization, actorUserId } = payload;
  return {
    organizationId: organization.id,
    action,
    actorUserId,
    targetType: "organization",
    targetId: organization.id,
    data: { slug: organization.slug, ...data },
  };
}

function memberEntry(
  action: OrganizationEventName,
  member: { id: string; organizationId: string; userId: string; roles: string[] },
  actorUserId: string | null,
  data: NewEntry["data"],
): NewEntry {
  return {
    organizationId: member.organizationId,
    action,
    actorUserId,
    targetType: "member",
    targetId: member.id,
    data: { userId: member.userId, roles: member.roles, ...data },
  };
}

function invitationEntry(
  action: OrganizationEventName,
  invitation: { id: string; organizationId: string; email: string; roles: string[] },
  actorUserId: string | null,
  data: NewEntry["data"] = {},
): NewEntry {
  return {
    organizationId: invitation.organizationId,
    action,
    actorUserId,
    targetType: "invitation",
    targetId: invitation.id,
    data: { email: invitation.email, roles: invitation.roles, ...data },
  };
}

/**
 * Writes the entry of an event in `tx` (the transaction of its change). Its `seq` (an identity)
 * orders the log; `clock_timestamp()` gives the entries of one transaction their own times where
 * the clock is fine enough.
 */
export async function insertAuditEntry<Name extends OrganizationEventName>(
  tx: SqlQuerier,
  tables: AuthTableNames,
  name: Name,
  payload: Payloads[Name],
): Promise<void> {
  const entry = (ENTRY_OF[name] as (p: Payloads[Name]) => NewEntry)(payload);
  await tx.query(
    `INSERT INTO ${tables.auditLog}
       (organization_id, action, actor_user_id, target_type, target_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, clock_timestamp())`,
    [
      entry.organizationId,
      entry.action,
      entry.actorUserId,
      entry.targetType,
      entry.targetId,
      JSON.stringify(entry.data),
    ],
  );
}

/**
 * The `memberAdded` entry of a member inserted by a statement (`add_member.ts`): an insert from
 * the relation `from` (member columns prefixed `m_`), the actor as the parameter `actorParam`.
 */
export function memberAddedAuditSql(
  tables: AuthTableNames,
  from: string,
  actorParam: string,
): string {
  return `INSERT INTO ${tables.auditLog}
      (organization_id, action, actor_user_id, target_type, target_id, data, created_at)
    SELECT ${from}.m_organization_id, 'memberAdded', ${actorParam}, 'member', ${from}.m_id,
      jsonb_build_object('userId', ${from}.m_user_id, 'roles', ${from}.m_roles, 'via', 'added'),
      clock_timestamp()
    FROM ${from}`;
}

/**
 * Newest first: by the order of writing (`seq`), not by `created_at`, whose clock can tie
 * (PGlite's advances by milliseconds, so the entries of one transaction often share a time).
 */
const NEWEST_FIRST: readonly KeysetColumn[] = [{ name: "seq", type: "int8" }];

interface AuditRow {
  a_id: string;
  a_action: OrganizationEventName;
  a_actor_user_id: string | null;
  a_target_type: AuthAuditEntry["target"]["type"];
  a_target_id: string;
  a_data: { [key: string]: JsonValue };
  a_created_at: string;
}

/** One page of an organization's audit log, newest first. */
export async function pageAuditLog(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  request: PageRequest,
  secret: string,
): Promise<Page<AuthAuditEntry>> {
  return await keysetList(db, {
    listId: `audit-log:${organizationId}`,
    columns: NEWEST_FIRST,
    direction: "desc",
    secret,
    table: "a",
    pageSize: request.pageSize,
    cursor: request.cursor,
    select: `a.id AS a_id, a.action AS a_action, a.actor_user_id AS a_actor_user_id,
      a.target_type AS a_target_type, a.target_id AS a_target_id, a.data AS a_data,
      ${isoSql("a.created_at")} AS a_created_at`,
    from: `${tables.auditLog} a`,
    where: ["a.organization_id = $1"],
    params: [organizationId],
    map: (row: AuditRow): AuthAuditEntry => ({
      id: row.a_id,
      action: row.a_action,
      actorUserId: row.a_actor_user_id,
      target: { type: row.a_target_type, id: row.a_target_id },
      data: row.a_data,
      createdAt: row.a_created_at,
    }),
  });
}

/**
 * The internal scheduled hook that purges the entries older than
 * `organizations.auditLogRetentionDays`: every day at 03:17 UTC (a slot missed by more than a
 * minute is skipped: the next day's purge takes what it left). Running a slot twice deletes
 * nothing more, so it does not bound the events' `retention` (`rerunSafe`).
 */
export function auditLogPurgeHook(
  db: SqlQuerier,
  tables: AuthTableNames,
  days: number,
): HookDefinition<ScheduledHookPayload> {
  return {
    schedule: AUDIT_LOG_PURGE_SCHEDULE,
    rerunSafe: true,
    handler: async () => {
      await purgeAuditLog(db, tables, days);
    },
  };
}

/** The name of {@link auditLogPurgeHook} among the module's hooks. */
export const AUDIT_LOG_PURGE_HOOK = "organizationAuditLogPurge";
/** When {@link auditLogPurgeHook} runs: daily at 03:17 UTC. */
export const AUDIT_LOG_PURGE_SCHEDULE = "17 3 * * *";

/** The most entries one purge deletes; the next run takes the rest. */
const PURGE_BATCH = 10_000;

/** Deletes the entries older than `days` days, in batches; returns how many went. */
export async function purgeAuditLog(
  db: SqlQuerier,
  tables: AuthTableNames,
  days: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query(
      `DELETE FROM ${tables.auditLog} WHERE id IN (
         SELECT id FROM ${tables.auditLog}
         WHERE created_at < now() - make_interval(days => $1::int) LIMIT $2
       ) RETURNING 1`,
      [days, PURGE_BATCH],
    );
    total += rows.length;
    if (rows.length < PURGE_BATCH) return total;
  }
}
