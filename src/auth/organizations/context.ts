/**
 * What every part of the organizations feature needs from its module instance.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../../db/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { Notifications } from "./event_delivery.ts";
import type { ResolvedOrganizationsOptions } from "./options.ts";

/** The shared dependencies of the organizations services. */
export interface OrganizationsContext {
  db: SqlAdapter;
  tables: AuthTableNames;
  options: ResolvedOrganizationsOptions;
  notifications: Notifications;
  /** The key list cursors are signed with (the deployment secret, or this process's key). */
  secret: string;
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
