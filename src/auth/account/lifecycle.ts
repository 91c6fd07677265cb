/**
 * The account lifecycle operations of one module instance, built from their shared context.
 *
 * @module
 */

import { accountDeletion, type DeleteAccount } from "./account_deletion.ts";
import { type EmailChangeService, emailChangeService } from "./email_change_service.ts";
import type { LifecycleContext } from "./lifecycle_context.ts";
import { type PasswordService, passwordService } from "./password_service.ts";
import { type SessionService, sessionService } from "./session_list_service.ts";

/** The account lifecycle operations of one module instance. */
export interface AccountLifecycle {
  password: PasswordService;
  sessions: SessionService;
  email: EmailChangeService;
  deleteAccount: DeleteAccount;
}

/** Builds the account lifecycle operations of one module instance. */
export function accountLifecycle(context: LifecycleContext): AccountLifecycle {
  return {
    password: passwordService(context),
    sessions: sessionService(context),
    email: emailChangeService(context),
    deleteAccount: accountDeletion(context),
  };
}
