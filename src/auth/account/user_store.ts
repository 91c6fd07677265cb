/**
 * Users: the rows, their public shape and the queries on them.
 *
 * @module
 */

import { SqlError, type SqlQuerier } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthUser } from "./user.ts";
import { storageProblem } from "./well_formed.ts";

/** A user row with its password hash, never sent to a client. */
export interface UserRecord extends AuthUser {
  passwordHash: string;
}

/**
 * The select list of a {@link UserRecord} from the users table aliased `alias` (`emailVerified`
 * computed from `email_verified_at`).
 */
export function userColumns(alias?: string): string {
  const c = (name: string) => alias ? `${alias}.${name}` : name;
  return `${c("id")}, ${c("email")}, ${c("role")}, ${c("password_hash")} AS "passwordHash", ` +
    `(${c("email_verified_at")} IS NOT NULL) AS "emailVerified"`;
}

const USER_COLUMNS = userColumns();

/** The public fields of a user. */
export function publicUser(user: AuthUser): AuthUser {
  return { id: user.id, email: user.email, role: user.role, emailVerified: user.emailVerified };
}

/** Inserts a user; a taken email is a 409 `EMAIL_TAKEN`. */
export async function insertUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  user: { email: string; passwordHash: string; role: string; emailVerified?: boolean },
): Promise<UserRecord> {
  try {
    const [row] = await db.query<UserRecord>(
      `INSERT INTO ${tables.users} (email, password_hash, role, email_verified_at)
       VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END)
       RETURNING ${USER_COLUMNS}`,
      [user.email, user.passwordHash, user.role, user.emailVerified ?? false],
    );
    return row;
  } catch (error) {
    if (error instanceof SqlError && error.code === "23505") {
      throw authError("EMAIL_TAKEN", "An account with this email already exists");
    }
    throw error;
  }
}

/** The user with this (normalized) email, or `null`. */
export async function findUserByEmail(
  db: SqlQuerier,
  tables: AuthTableNames,
  email: string,
): Promise<UserRecord | null> {
  // No stored address holds U+0000 or an unpaired surrogate (sign-up validates it), and
  // PostgreSQL refuses such a parameter: answer "unknown" instead of failing the lookup.
  if (storageProblem(email) !== null) return null;
  const [row] = await db.query<UserRecord>(
    `SELECT ${USER_COLUMNS} FROM ${tables.users} WHERE email = $1 AND deleted_at IS NULL`,
    [email],
  );
  return row ?? null;
}

/** The user with this id, or `null` (also for a string that is not a UUID). */
export async function findUserById(
  db: SqlQuerier,
  tables: AuthTableNames,
  id: string,
): Promise<UserRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.query<UserRecord>(
    `SELECT ${USER_COLUMNS} FROM ${tables.users} WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return row ?? null;
}

/** Replaces a user's password hash (after an upgrade of the hashing parameters). */
export async function updatePasswordHash(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.query(
    `UPDATE ${tables.users} SET password_hash = $2, updated_at = now() WHERE id = $1`,
    [userId, passwordHash],
  );
}

/** Sets a user's global role; `null` when the user does not exist. */
export async function updateUserRole(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  role: string,
): Promise<UserRecord | null> {
  if (!isUuid(userId)) return null;
  const [row] = await db.query<UserRecord>(
    `UPDATE ${tables.users} SET role = $2, updated_at = now() WHERE id = $1
     RETURNING ${USER_COLUMNS}`,
    [userId, role],
  );
  return row ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID (ids of every auth table are). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
