/**
 * What a provider's answer does to accounts. Signing in: the linked account, else a new account
 * (its address verified only if the provider asserts it), else, for an address that already has
 * an account, that account only when the provider asserts the address verified AND the account's
 * address is verified (otherwise 409 `ACCOUNT_EXISTS`: an attacker who registered the victim's
 * address first, on either side, unverified, never ends up sharing the account; the
 * "pre-hijacking" attacks). Connecting: the provider account joins the signed-in user unless it
 * belongs to another (409 `IDENTITY_TAKEN`). Disconnecting: refused (409 `LAST_SIGN_IN_METHOD`)
 * when no other way in would remain.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../../sql/mod.ts";
import {
  issueCredential,
  type SignInOutcome,
  type UserCreatedHook,
} from "../account/account_service.ts";
import type { AccountEvents } from "../account/account_events.ts";
import type { AuthUser } from "../account/user.ts";
import {
  findUserByEmail,
  findUserById,
  insertUser,
  isUuid,
  publicUser,
  type UserRecord,
} from "../account/user_store.ts";
import type { Actor } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import {
  deleteIdentity,
  findIdentityUser,
  insertIdentity,
  listIdentities,
  otherWaysIn,
  updateIdentityEmail,
} from "./identity_store.ts";
import type { AuthIdentity } from "./oauth_inputs.ts";
import type { ProviderProfile } from "./oauth_protocol.ts";

/** What {@link identityService} needs. */
export interface IdentityServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  /** The credential lifetime, in seconds. */
  ttlSeconds: number;
  events: AccountEvents;
  /** Runs in the transaction that creates a user (the organizations feature's first one). */
  onUserCreated?: UserCreatedHook;
  /** The configured providers' ids (an identity of another provider is no way in). */
  providers: readonly string[];
}

/** The account side of the providers. */
export interface IdentityService {
  /**
   * Signs in (or up) with a provider's account: the new credential, or the challenge of the
   * second step (which keeps `redirectTo`) for a user with a second factor.
   */
  signIn(
    provider: string,
    profile: ProviderProfile,
    client: FlowClient,
  ): Promise<SignInOutcome>;
  /** Connects a provider's account to `userId`. */
  link(userId: string, provider: string, profile: ProviderProfile): Promise<void>;
  /** The actor's identities. */
  list(actor: Actor): Promise<{ identities: AuthIdentity[] }>;
  /** Disconnects one of the actor's identities. */
  unlink(actor: Actor, input: { identityId: string }): Promise<void>;
}

/** The browser of a sign-in flow: its User-Agent, and where it goes next (`redirectTo`). */
export interface FlowClient {
  userAgent: string | null;
  redirectTo: string;
}

const SIGN_IN_EXISTING =
  "An account uses this address: sign in another way, then connect this provider from the account";

/** Builds the account side of the providers for one module instance. */
export function identityService(deps: IdentityServiceOptions): IdentityService {
  const { db, tables, events } = deps;

  function issue(
    tx: SqlAdapter | SqlTransaction,
    user: AuthUser,
    activeOrganizationId: string | null,
    client: FlowClient,
  ): Promise<SignInOutcome> {
    return issueCredential(tx, tables, {
      user,
      ttlSeconds: deps.ttlSeconds,
      signInMethod: "oauth",
      activeOrganizationId,
      userAgent: client.userAgent,
      redirectTo: client.redirectTo,
    });
  }

  /** Links in `tx` and records `identityLinked`; 409 `IDENTITY_TAKEN` when it is someone's. */
  async function linkIn(
    tx: SqlTransaction,
    user: AuthUser,
    provider: string,
    profile: ProviderProfile,
  ): Promise<void> {
    const identity = await insertIdentity(tx, tables, {
      userId: user.id,
      provider,
      subject: profile.subject,
      email: profile.email,
      emailVerified: profile.emailVerified,
    });
    if (identity === null) {
      throw authError(
        "IDENTITY_TAKEN",
        "This account at the provider is connected to another user",
      );
    }
    await events.emit(tx, "identityLinked", {
      user,
      identity: { id: identity.id, provider, email: identity.email },
      at: new Date().toISOString(),
    });
  }

  /** A new account for the provider's address, with the identity; the first credential. */
  async function signUp(
    provider: string,
    profile: ProviderProfile & { email: string },
    client: FlowClient,
  ): Promise<SignInOutcome> {
    return await db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, tables, profile.email);
      if (existing !== null) return await join(tx, existing, provider, profile, client);
      let record: UserRecord;
      try {
        // No password (''): sign-in with a password never matches it (see account_service.ts);
        // the user can set one through the forgot-password flow.
        record = await insertUser(tx, tables, {
          email: profile.email,
          passwordHash: "",
          role: "user",
          emailVerified: profile.emailVerified,
        });
      } catch (error) {
        // Created meanwhile by another request: the rules for an existing account apply then.
        if ((error as { code?: unknown }).code === "EMAIL_TAKEN") {
          throw authError("ACCOUNT_EXISTS", SIGN_IN_EXISTING);
        }
        throw error;
      }
      const user = publicUser(record);
      const activeOrganizationId = deps.onUserCreated ? await deps.onUserCreated(tx, user) : null;
      await linkIn(tx, user, provider, profile);
      return await issue(tx, user, activeOrganizationId, client);
    });
  }

  /** Joins an existing account: only when both sides have verified the address. */
  async function join(
    tx: SqlTransaction,
    existing: UserRecord,
    provider: string,
    profile: ProviderProfile,
    client: FlowClient,
  ): Promise<SignInOutcome> {
    if (!profile.emailVerified || !existing.emailVerified) {
      throw authError("ACCOUNT_EXISTS", SIGN_IN_EXISTING);
    }
    const user = publicUser(existing);
    await linkIn(tx, user, provider, profile);
    return await issue(tx, user, null, client);
  }

  return {
    async signIn(provider, profile, client) {
      const found = await findIdentityUser(db, tables, provider, profile.subject);
      if (found !== null) {
        await updateIdentityEmail(
          db,
          tables,
          found.identityId,
          profile.email,
          profile.emailVerified,
        );
        return await issue(db, publicUser(found.user), null, client);
      }
      if (profile.email === null) {
        throw authError(
          "OAUTH_EMAIL_MISSING",
          "The provider gave no email address: allow the app to read it, or sign up another way",
        );
      }
      const issued = await signUp(provider, { ...profile, email: profile.email }, client);
      events.wake();
      return issued;
    },
    async link(userId, provider, profile) {
      await db.transaction(async (tx) => {
        const found = await findIdentityUser(tx, tables, provider, profile.subject);
        if (found !== null && found.user.id !== userId) {
          throw authError(
            "IDENTITY_TAKEN",
            "This account at the provider is connected to another user",
          );
        }
        if (found !== null) {
          // Connected already: keep it, with the address the provider gives now.
          await updateIdentityEmail(
            tx,
            tables,
            found.identityId,
            profile.email,
            profile.emailVerified,
          );
          return;
        }
        const owner = await findUserById(tx, tables, userId);
        if (owner === null) {
          throw authError("LINK_SESSION_MISMATCH", "The account that started this is gone");
        }
        await linkIn(tx, publicUser(owner), provider, profile);
      });
      events.wake();
    },
    async list({ user }) {
      return { identities: await listIdentities(db, tables, user.id) };
    },
    async unlink({ user }, { identityId }) {
      if (!isUuid(identityId)) throw notFound("Identity");
      await db.transaction(async (tx) => {
        // The user row is locked first: two unlinks at once see each other's outcome.
        const others = await otherWaysIn(tx, tables, user.id, identityId, deps.providers);
        const removed = await deleteIdentity(tx, tables, user.id, identityId);
        if (removed === null) throw notFound("Identity");
        if (others === 0) {
          throw authError(
            "LAST_SIGN_IN_METHOD",
            "This is the account's last way in: set a password or connect another provider first",
          );
        }
        await events.emit(tx, "identityUnlinked", {
          user,
          identity: { id: removed.id, provider: removed.provider, email: removed.email },
          at: new Date().toISOString(),
        });
      });
      events.wake();
    },
  };
}
