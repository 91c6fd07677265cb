/**
 * Accounts: creating users and issuing credentials (sign-up, sign-in), shared by the HTTP routes
 * and the server-side API.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../db/mod.ts";
import { authError } from "./errors.ts";
import type { PasswordHasher } from "./password_hasher.ts";
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
}

/** Sign-up, sign-in and user creation of one module instance. */
export interface Accounts {
  /** Creates a user from a normalized email and an already computed password hash. */
  createUser(
    tx: SqlTransaction,
    input: { email: string; passwordHash: string; role: string },
  ): Promise<AuthUser>;
  /** Creates a user and their first credential in one transaction. */
  signUp(email: string, password: string): Promise<IssuedCredential>;
  /** Checks the password (same hashing work for unknown emails) and issues a credential. */
  signIn(email: string, password: string): Promise<IssuedCredential>;
}

/** Builds the account operations of one module instance. */
export function createAccounts(options: AccountsOptions): Accounts {
  const { db, tables, hasher, ttlSeconds } = options;

  async function issue(
    tx: SqlTransaction | SqlAdapter,
    user: AuthUser,
  ): Promise<IssuedCredential> {
    const token = newToken();
    const session = await insertSession(tx, tables, {
      userId: user.id,
      tokenHash: hashToken(token),
      ttlSeconds,
    });
    return { token, user, session };
  }

  const accounts: Accounts = {
    async createUser(tx, input) {
      return publicUser(await insertUser(tx, tables, input));
    },
    async signUp(email, password) {
      const passwordHash = await hasher.hash(password);
      return await db.transaction(async (tx) => {
        const user = await accounts.createUser(tx, { email, passwordHash, role: "user" });
        return await issue(tx, user);
      });
    },
    async signIn(email, password) {
      const record = await findUserByEmail(db, tables, email);
      // One hash computation on both paths: an unknown email costs what a wrong password costs.
      const valid = await hasher.verify(password, record?.passwordHash ?? hasher.dummyHash());
      if (!record || !valid) {
        throw authError("INVALID_CREDENTIALS", "Invalid email or password");
      }
      if (hasher.needsRehash(record.passwordHash)) {
        await updatePasswordHash(db, tables, record.id, await hasher.hash(password));
      }
      return await issue(db, publicUser(record));
    },
  };
  return accounts;
}
