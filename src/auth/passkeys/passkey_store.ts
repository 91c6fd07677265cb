/**
 * SQL of the passkeys: one row per WebAuthn credential, with its COSE public key and signature
 * counter. The credential id is unique across accounts (a registration of a known one inserts
 * nothing); a user's passkey is found by its id AND the user's, so another user's id is as absent
 * as an unknown one; the counter only moves forward, by one conditional update.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthPasskey, AuthPasskeyDescriptor } from "./passkey_inputs.ts";

interface PasskeyRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  device_type: string;
  backed_up: boolean;
}

const PASSKEY_COLUMNS = "id::text AS id, name, created_at, last_used_at, device_type, backed_up";

function toPasskey(row: PasskeyRow): AuthPasskey {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
    deviceType: row.device_type === "multiDevice" ? "multiDevice" : "singleDevice",
    backedUp: row.backed_up,
  };
}

/** Transports are stored as one comma-separated text. */
function transportsOf(text: string | null): string[] | undefined {
  return text === null || text === "" ? undefined : text.split(",");
}

/** The user's passkeys, oldest first. */
export async function listUserPasskeys(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthPasskey[]> {
  const rows = await db.query<PasskeyRow>(
    `SELECT ${PASSKEY_COLUMNS} FROM ${tables.passkeys}
     WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toPasskey);
}

/** The user's credentials, as options name them (`excludeCredentials`, `allowCredentials`). */
export async function userCredentialDescriptors(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthPasskeyDescriptor[]> {
  const rows = await db.query<{ credential_id: string; transports: string | null }>(
    `SELECT credential_id, transports FROM ${tables.passkeys}
     WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows.map((row) => {
    const transports = transportsOf(row.transports);
    return transports === undefined
      ? { type: "public-key", id: row.credential_id }
      : { type: "public-key", id: row.credential_id, transports };
  });
}

/** A verified registration, to store. */
export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: readonly string[];
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
  /** The user's name for it; `null`: `Passkey <n>`, n one more than the user's passkeys. */
  name: string | null;
}

/** Stores a passkey; `null` when its credential id is registered already (to anyone). */
export async function insertPasskey(
  db: SqlQuerier,
  tables: AuthTableNames,
  passkey: NewPasskey,
): Promise<AuthPasskey | null> {
  const [row] = await db.query<PasskeyRow>(
    `INSERT INTO ${tables.passkeys}
       (user_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
     VALUES ($1, $2, $3, $4::bigint, $5, $6, $7,
       COALESCE($8, 'Passkey ' || (
         SELECT count(*) + 1 FROM ${tables.passkeys} WHERE user_id = $1
       )::text))
     ON CONFLICT (credential_id) DO NOTHING
     RETURNING ${PASSKEY_COLUMNS}`,
    [
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      String(passkey.counter),
      passkey.transports.length === 0 ? null : passkey.transports.join(","),
      passkey.deviceType,
      passkey.backedUp,
      passkey.name,
    ],
  );
  return row ? toPasskey(row) : null;
}

/** What an assertion is verified against. */
export interface StoredCredential {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  /** The signature counter last seen. */
  counter: number;
  transports: string[] | undefined;
}

/** The passkey with this credential id, of a live account; `null` when there is none. */
export async function findCredential(
  db: SqlQuerier,
  tables: AuthTableNames,
  credentialId: string,
): Promise<StoredCredential | null> {
  const [row] = await db.query<{
    id: string;
    user_id: string;
    credential_id: string;
    public_key: Uint8Array;
    counter: string;
    transports: string | null;
  }>(
    `SELECT p.id::text AS id, p.user_id::text AS user_id, p.credential_id, p.public_key,
       p.counter::text AS counter, p.transports
     FROM ${tables.passkeys} p JOIN ${tables.users} u ON u.id = p.user_id
     WHERE p.credential_id = $1 AND u.deleted_at IS NULL`,
    [credentialId],
  );
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(row.public_key),
    counter: Number(row.counter),
    transports: transportsOf(row.transports),
  };
}

/**
 * Records a use: the new counter, the backup state, the time. Only when the counter moves forward
 * (or stays 0 on an authenticator that keeps none); `false` otherwise, which is a cloned
 * authenticator or a replay, and changes nothing. One statement: of two uses with the same
 * counter, one wins.
 */
export async function advanceCounter(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { passkeyId: string; counter: number; backedUp: boolean },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tables.passkeys}
     SET counter = $2::bigint, backed_up = $3, last_used_at = now()
     WHERE id = $1 AND (counter < $2::bigint OR ($2::bigint = 0 AND counter = 0))
     RETURNING id`,
    [input.passkeyId, String(input.counter), input.backedUp],
  );
  return rows.length === 1;
}

/** Renames one of the user's passkeys; `null` when the user has no such passkey. */
export async function renamePasskey(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { userId: string; passkeyId: string; name: string },
): Promise<AuthPasskey | null> {
  const [row] = await db.query<PasskeyRow>(
    `UPDATE ${tables.passkeys} SET name = $3 WHERE id = $1 AND user_id = $2
     RETURNING ${PASSKEY_COLUMNS}`,
    [input.passkeyId, input.userId, input.name],
  );
  return row ? toPasskey(row) : null;
}

/** Deletes one of the user's passkeys; `null` when the user has no such passkey. */
export async function deletePasskey(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { userId: string; passkeyId: string },
): Promise<AuthPasskey | null> {
  const [row] = await db.query<PasskeyRow>(
    `DELETE FROM ${tables.passkeys} WHERE id = $1 AND user_id = $2
     RETURNING ${PASSKEY_COLUMNS}`,
    [input.passkeyId, input.userId],
  );
  return row ? toPasskey(row) : null;
}
