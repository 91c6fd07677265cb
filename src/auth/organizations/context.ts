/**
 * What every part of the organizations feature needs from its module instance.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { Notifications } from "./event_delivery.ts";
import { requireEntry, type SecondFactorCheck } from "./access.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";
import type { EntryRow } from "./organization_store.ts";

/** The shared dependencies of the organizations services. */
export interface OrganizationsContext {
  db: SqlAdapter;
  tables: AuthTableNames;
  options: ResolvedOrganizationsOptions;
  notifications: Notifications;
  /** The key list cursors are signed with (the deployment secret, or this process's key). */
  secret: string;
}

/**
 * The sequence of every change inside an organization: a transaction, the actor's entry with the
 * organization row locked `FOR UPDATE` (404 `NOT_FOUND` for a non-member, a missing or a deleted
 * organization; 403 `TWO_FACTOR_REQUIRED` for a member without the second factor it requires,
 * unless `secondFactor` is `"deferred"`), then `fn` (its checks, writes and events); the worker is
 * woken after the commit.
 */
export function inLockedOrganization<T>(
  context: OrganizationsContext,
  organizationId: string,
  userId: string,
  fn: (tx: SqlTransaction, entry: EntryRow) => Promise<T>,
  secondFactor: SecondFactorCheck = "now",
): Promise<T> {
  return inTransaction(context, async (tx) => {
    const entry = await requireEntry(
      tx,
      context.tables,
      organizationId,
      userId,
      "update",
      secondFactor,
    );
    return await fn(tx, entry);
  });
}

/** Runs `fn` in a transaction, then wakes the notification worker for what it emitted. */
export async function inTransaction<T>(
  context: OrganizationsContext,
  fn: (tx: SqlTransaction) => Promise<T>,
): Promise<T> {
  const result = await context.db.transaction(fn);
  context.notifications.wake();
  return result;
}
