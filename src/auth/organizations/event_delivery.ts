/**
 * Delivery of the organization events through the durable hooks of the database layer: an event
 * is enqueued in the transaction of its change and handed to the application's handler after the
 * commit, with retries. An internal hook, scheduled at each invitation's expiry, marks it expired.
 *
 * @module
 */

import {
  type DurableHooks,
  durableHooks,
  type EnqueueSql,
  type HookDefinition,
  type HookHandler,
  type HookRetention,
} from "../../hooks/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import type { SqlAdapter, SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type {
  OrganizationEventHandlers,
  OrganizationEventName,
  OrganizationEventPayloads,
} from "./event_types.ts";
import { createSealer } from "./sealing.ts";
import { AUDIT_LOG_PURGE_HOOK, auditLogPurgeHook, insertAuditEntry } from "./audit_log.ts";
import { newToken } from "../sessions/tokens.ts";
import { expireInvitations, rotateInvitationToken } from "./invitation_store.ts";
import { type AuthInvitation, toInvitation } from "./resources.ts";
import {
  openInvitationCreated,
  sealInvitationCreated,
  type StoredInvitationCreated,
} from "./sealed_invitation_event.ts";

/** The internal hook that marks an invitation expired at its expiry. */
const EXPIRY_HOOK = "invitationExpiryCheck";

/** Records events in transactions and wakes the worker after commits. */
export interface Notifications {
  /**
   * Records an event in `tx`: its audit log entry always, and its delivery when the application
   * has a handler for it.
   */
  emit<Name extends OrganizationEventName>(
    tx: SqlQuerier,
    name: Name,
    payload: OrganizationEventPayloads[Name],
    key?: string,
  ): Promise<void>;
  /**
   * The insert of an event for a statement that creates what the event describes: one
   * occurrence per row of `from`, its payload computed by `payloadSql` (see
   * `DurableHooks.enqueueSql`); `null` when the application has no handler for it. Call
   * `wake()` once the statement committed.
   */
  eventSql(
    name: OrganizationEventName,
    options: { from: string; payloadSql: string; firstParam: number },
  ): EnqueueSql | null;
  /** Schedules the expiry check of an invitation at `expiresAt`. */
  scheduleExpiry(tx: SqlQuerier, invitationId: string, expiresAt: Date): Promise<void>;
  /** Marks an expired pending invitation `expired` and emits `invitationExpired`, in `tx`. */
  expire(tx: SqlQuerier, invitationId: string): Promise<void>;
  /** Wakes this process's worker; call after the transaction that emitted committed. */
  wake(): void;
  /** The durable hooks (worker control, inspection, `drain()` in tests). */
  readonly hooks: DurableHooks;
}

/** Builds the notifications of one module instance. */
export function createNotifications(options: {
  db: SqlAdapter;
  namespace: string;
  tables: AuthTableNames;
  handlers: OrganizationEventHandlers;
  /** The deployment's secret: keys the sealing of invitation tokens in stored events. */
  secret: string | null;
  /** How long done occurrences are kept (`organizations.retention`); all of them when unset. */
  retention?: HookRetention;
  /** Further hooks delivered by the same worker (the account events), by name. */
  extraHooks?: Record<string, HookHandler<JsonValue>>;
  /** How many days audit log entries are kept (`organizations.auditLogRetentionDays`). */
  auditLogRetentionDays: number;
}): Notifications {
  const { db, namespace, tables, handlers } = options;
  const sealer = createSealer(options.secret, "auth:invitationCreated:token");
  // deno-lint-ignore no-explicit-any
  const registered: Record<string, HookHandler<any> | HookDefinition<any>> = {
    ...options.extraHooks,
    [AUDIT_LOG_PURGE_HOOK]: auditLogPurgeHook(db, tables, options.auditLogRetentionDays),
  };
  for (const [name, handler] of Object.entries(handlers)) {
    if (!handler) continue;
    // deno-lint-ignore no-explicit-any
    registered[name] = (payload: any, context) =>
      (handler as (p: unknown, c: { id: string; attempt: number }) => void | Promise<void>)(
        payload,
        { id: context.id, attempt: context.attempt },
      );
  }

  async function expire(tx: SqlQuerier, invitationId: string): Promise<void> {
    // The organization before the invitation, as every answer to it takes them: the audit entry's
    // foreign key locks the organization after the invitation's update, which deadlocked with an
    // acceptance holding the organization FOR UPDATE while it waited for the invitation.
    await tx.query(
      `SELECT 1 FROM ${tables.organizations} o
       JOIN ${tables.invitations} i ON i.organization_id = o.id
       WHERE i.id = $1 FOR KEY SHARE OF o`,
      [invitationId],
    );
    const expired = await expireInvitations(tx, tables, { invitationId });
    for (const row of expired) {
      await notifications.emit(tx, "invitationExpired", {
        invitation: toInvitation(row),
      }, row.i_id);
    }
  }

  const created = handlers.invitationCreated;
  if (created) {
    registered.invitationCreated = async (payload: JsonValue, context) => {
      const opened = openInvitationCreated(payload as unknown as StoredInvitationCreated, sealer);
      if (opened === "unsealable") {
        await reissue(payload as unknown as StoredInvitationCreated);
        return;
      }
      await created(opened, { id: context.id, attempt: context.attempt });
    };
  }

  /**
   * A token sealed with a key this process does not have (the secret changed, or no secret and
   * another process sealed it) cannot be mailed: the invitation, if it still has that token, gets
   * a new one, announced by a new `invitationCreated` event (`rotated: true`). The inviter's token
   * from the creation answer stops working.
   */
  async function reissue(stored: StoredInvitationCreated): Promise<void> {
    await db.transaction(async (tx) => {
      const token = newToken();
      const row = await rotateInvitationToken(tx, tables, {
        invitationId: stored.invitation.id,
        tokenHash: stored.tokenHash,
        token,
      });
      if (!row) return; // Answered, expired or re-sent since: nothing to mail.
      await notifications.emit(tx, "invitationCreated", {
        invitation: toInvitation(row, token) as AuthInvitation & { token: string },
        organization: stored.organization,
        rotated: true,
        actorUserId: stored.actorUserId,
      });
    });
    hooks.wake();
  }

  registered[EXPIRY_HOOK] = async (payload: JsonValue) => {
    const { invitationId } = payload as { invitationId: string };
    await db.transaction((tx) => expire(tx, invitationId));
  };

  const hooks = durableHooks({
    adapter: db,
    namespace,
    hooks: registered,
    retention: options.retention,
  });

  const notifications: Notifications = {
    hooks,
    async emit(tx, name, payload, key) {
      await insertAuditEntry(tx, tables, name, payload);
      if (!handlers[name]) return;
      await hooks.enqueue(tx, {
        name,
        payload: name === "invitationCreated"
          ? sealInvitationCreated(payload as OrganizationEventPayloads["invitationCreated"], sealer)
          : payload as unknown as JsonValue,
        ...(key === undefined ? {} : { key }),
      });
    },
    eventSql(name, { from, payloadSql, firstParam }) {
      if (!handlers[name]) return null;
      return hooks.enqueueSql({ name }, { from, payloadSql, firstParam });
    },
    async scheduleExpiry(tx, invitationId, expiresAt) {
      await hooks.enqueue(tx, {
        name: EXPIRY_HOOK,
        key: `${invitationId}@${expiresAt.toISOString()}`,
        payload: { invitationId },
        runAt: expiresAt,
      });
    },
    expire,
    wake: () => hooks.wake(),
  };
  return notifications;
}
