/**
 * Accounts: creating users and issuing credentials (sign-up, sign-in), shared by the HTTP routes
 * and the server-side API.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../db/mod.ts";
import { authError } from "./errors.ts";
import { PasswordHasherBusyError } from "./hashing_queue.ts";
import type { HashRequestOptions, PasswordHasher } from "./password_hasher.ts";
import { type AuthSession, insertSession } from "./sessions.ts";
import type { AuthTableNames } from "./tables.ts";
import { hashToken, newToken } from "./tokens.ts";
import {
  type AuthUser,
  findUserByEmail,
  insertUser,
  publicUser,
  updatePasswordHash,
} from "./users.ts";

/**
 * Runs inside the transaction that creates a user (to create the user's first organization);
 * returns the organization the user's first credential should be active in, or `null`.
 */
export type UserCreatedHook = (tx: SqlTransaction, user: AuthUser) => Promise<string | null>;

/** A freshly issued credential. */
export interface IssuedCredential {
  /** The token, shown once: only its SHA-256 is stored. */
  token: string;
  user: AuthUser;
  session: AuthSession;
}

/** What the account operations need. */
export interface AccountsOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  hasher: PasswordHasher;
  ttlSeconds: number;
  /** Called in the transaction of every user creation (sign-up and `api.createUser`). */
  onUserCreated?: UserCreatedHook;
}

/** Sign-up, sign-in and user creation of one module instance. */
export interface Accounts {
  /**
   * Creates a user from a normalized email and an already computed password hash; returns it with
   * the organization its first credential should be active in.
   */
  createUser(
    tx: SqlTransaction,
    input: { email: string; passwordHash: string; role: string; emailVerified?: boolean },
  ): Promise<{ user: AuthUser; activeOrganizationId: string | null }>;
  /**
   * Creates a user and their first credential in one transaction. `client` tells the hasher whom
   * the hash is for (its queue is fair between clients).
   */
  signUp(email: string, password: string, client?: HashRequestOptions): Promise<IssuedCredential>;
  /** Checks the password (same hashing work for unknown emails) and issues a credential. */
  signIn(email: string, password: string, client?: HashRequestOptions): Promise<IssuedCredential>;
}

/** Builds the account operations of one module instance. */
export function createAccounts(options: AccountsOptions): Accounts {
  const { db, tables, hasher, ttlSeconds, onUserCreated } = options;

  async function issue(
    tx: SqlTransaction | SqlAdapter,
    user: AuthUser,
    activeOrganizationId: string | null,
  ): Promise<IssuedCredential> {
    const token = newToken();
    const session = await insertSession(tx, tables, {
      userId: user.id,
      tokenHash: hashToken(token),
      ttlSeconds,
      activeOrganizationId,
    });
    return { token, user, session };
  }

  const accounts: Accounts = {
    async createUser(tx, input) {
      const user = publicUser(await insertUser(tx, tables, input));
      const activeOrganizationId = onUserCreated ? await onUserCreated(tx, user) : null;
      return { user, activeOrganizationId };
    },
    async signUp(email, password, client) {
      hasher.refuseEarly?.(client);
      const passwordHash = await hasher.hash(password, client);
      return await db.transaction(async (tx) => {
        const created = await accounts.createUser(tx, { email, passwordHash, role: "user" });
        return await issue(tx, created.user, created.activeOrganizationId);
      });
    },
    async signIn(email, password, client) {
      hasher.refuseEarly?.(client); // before the lookup: a full queue refuses for free
      const record = await findUserByEmail(db, tables, email);
      // One hash computation on both paths: an unknown email costs what a wrong password costs.
      const stored = record?.passwordHash ?? hasher.dummyHash();
      const valid = await hasher.verify(password, stored, client);
      if (!record || !valid) {
        throw authError("INVALID_CREDENTIALS", "Invalid email or password");
      }
      if (hasher.needsRehash(record.passwordHash)) {
        try {
          await updatePasswordHash(db, tables, record.id, await hasher.hash(password, client));
        } catch (error) {
          // The upgrade can wait for a quieter sign-in; the credential is valid now.
          if (!(error instanceof PasswordHasherBusyError)) throw error;
        }
      }
      return await issue(db, publicUser(record), null);
    },
  };
  return accounts;
}
