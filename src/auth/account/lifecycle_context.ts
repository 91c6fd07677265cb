/**
 * What the account lifecycle operations share: the module's database, hasher, limits, mail
 * senders, link builder and event recorders, and the password check they all start with.
 *
 * @module
 */

import type { SqlAdapter, SqlQuerier } from "../../sql/mod.ts";
import type { Actor } from "../actor.ts";
import type { ClientInfo } from "./account_service.ts";
import type { CredentialRateLimits as CredentialLimits } from "../abuse/credential_rate_limits.ts";
import { authError } from "../errors.ts";
import { PasswordHasherBusyError } from "../abuse/hashing_queue.ts";
import type { PasswordHasher } from "../sessions/password_hasher.ts";
import type { AuthTableNames } from "../tables.ts";
import { findUserById, type UserRecord } from "./user_store.ts";
import type { SendEmailChangeEmail, SendPasswordResetEmail } from "./account_mail.ts";
import type { AccountEvents } from "./account_events.ts";
import type { EmailLinkBuilder } from "./email_links.ts";

/**
 * The organization events an account deletion records (the organizations feature's
 * notifications), `null` without the organizations feature.
 */
export interface OrganizationEventSink {
  // deno-lint-ignore no-explicit-any
  emit(tx: SqlQuerier, name: any, payload: any, key?: string): Promise<void>;
  wake(): void;
}

/** What the account lifecycle operations of one module instance need. */
export interface LifecycleContext {
  db: SqlAdapter;
  tables: AuthTableNames;
  hasher: PasswordHasher;
  limits: CredentialLimits;
  links: EmailLinkBuilder;
  sendPasswordResetEmail: SendPasswordResetEmail;
  sendEmailChangeEmail: SendEmailChangeEmail;
  passwordResetTtlSeconds: number;
  emailChangeTtlSeconds: number;
  events: AccountEvents;
  organizationEvents: OrganizationEventSink | null;
}

/**
 * Checks the actor's password (401 `INVALID_CREDENTIALS`) within the sign-in rate limits: a
 * wrong password counts against the account and the client address like a failed sign-in.
 * Returns the user's record.
 */
export function checkPassword(
  context: Pick<LifecycleContext, "db" | "tables" | "hasher" | "limits">,
  actor: Actor,
  password: string,
  client: ClientInfo,
): Promise<UserRecord> {
  const { db, tables, hasher, limits } = context;
  return limits.attempt({
    action: "sign-in",
    ...client,
    email: actor.user.email,
    countOnlyFailures: true,
    run: async (key) => {
      hasher.refuseEarly?.({ key });
      const record = await findUserById(db, tables, actor.user.id);
      // The same hashing work when the account vanished meanwhile.
      const valid = await hasher.verify(password, record?.passwordHash ?? hasher.dummyHash(), {
        key,
      });
      if (!record || !valid) throw authError("INVALID_CREDENTIALS", "The password is wrong");
      return record;
    },
  });
}

/** Now, as the events carry it. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Hashes a new password; a full hashing queue is 503 `SERVICE_BUSY` with `Retry-After`. */
export async function hashNewPassword(
  context: LifecycleContext,
  password: string,
): Promise<string> {
  try {
    return await context.hasher.hash(password);
  } catch (error) {
    if (!(error instanceof PasswordHasherBusyError)) throw error;
    throw authError("SERVICE_BUSY", error.message, {
      "retry-after": String(error.retryAfterSeconds),
    });
  }
}
