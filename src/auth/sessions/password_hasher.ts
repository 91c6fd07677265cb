/**
 * Password hashing with scrypt (`node:crypto`, identical on Deno, Node and Bun), stored as a
 * self-describing string so the cost can be raised later: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`
 * (salt and hash in unpadded base64).
 *
 * @module
 */

import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { hashingQueue } from "../abuse/hashing_queue.ts";

/**
 * The cost parameters of scrypt.
 *
 * @example
 * ```ts
 * import type { ScryptParams } from "@app/fragment-cli/auth";
 *
 * const testOnly: ScryptParams = { ln: 4, r: 8, p: 1 };
 * ```
 */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N. @default 17 (N = 131072, OWASP's minimum) */
  ln: number;
  /** Block size r. @default 8 */
  r: number;
  /** Parallelization p. @default 1 */
  p: number;
}

/**
 * OWASP's recommended scrypt parameters: N = 2^17, r = 8, p = 1 (128 MiB per hash).
 *
 * @example
 * ```ts
 * import { OWASP_SCRYPT_PARAMS } from "@app/fragment-cli/auth";
 *
 * console.log(2 ** OWASP_SCRYPT_PARAMS.ln); // 131072
 * ```
 */
export const OWASP_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ ln: 17, r: 8, p: 1 });

/**
 * Derives `keyLength` bytes from a password and salt; the one expensive step of hashing.
 *
 * @example Count derivations in a test
 * ```ts
 * import { type ScryptDerive, scryptDerive } from "@app/fragment-cli/auth";
 *
 * let calls = 0;
 * const counting: ScryptDerive = (password, salt, params, length) => {
 *   calls++;
 *   return scryptDerive(password, salt, params, length);
 * };
 * ```
 */
export type ScryptDerive = (
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  keyLength: number,
) => Promise<Uint8Array>;

/**
 * Hashes and verifies passwords ({@link scryptPasswordHasher} is the default). The auth module
 * runs exactly one `hash` or `verify` per sign-up or sign-in attempt (a dummy hash stands in for
 * unknown emails), plus one `hash` when `needsRehash` asks for an upgrade after a sign-in.
 *
 * @example
 * ```ts
 * import { type PasswordHasher, scryptPasswordHasher } from "@app/fragment-cli/auth";
 *
 * const hasher: PasswordHasher = scryptPasswordHasher({ params: { ln: 4 } });
 * console.log(await hasher.verify("guess", hasher.dummyHash())); // false
 * ```
 */
export interface PasswordHasher {
  /**
   * Hashes a password into a self-describing string. May throw `PasswordHasherBusyError` instead
   * of waiting long (answered 503 `SERVICE_BUSY`).
   */
  hash(password: string, options?: HashRequestOptions): Promise<string>;
  /**
   * Checks a password against a stored hash in constant time; `false` for a malformed hash. May
   * throw `PasswordHasherBusyError` like {@link PasswordHasher.hash}.
   */
  verify(password: string, encoded: string, options?: HashRequestOptions): Promise<boolean>;
  /**
   * Optional: throws `PasswordHasherBusyError` when a hash for this client would be refused now,
   * so a request is refused before it costs a database lookup.
   */
  refuseEarly?(options?: HashRequestOptions): void;
  /** Whether a stored hash uses other parameters than the current ones. */
  needsRehash(encoded: string): boolean;
  /**
   * A well-formed hash at the current parameters that no password matches, verified instead of a
   * real one when the email is unknown so both paths do the same work.
   */
  dummyHash(): string;
}

/**
 * Who a hash is computed for: the auth routes pass the client address, so that a flood from a few
 * addresses cannot starve the others (custom hashers may ignore it).
 *
 * @example
 * ```ts
 * import type { HashRequestOptions } from "@app/fragment-cli/auth";
 *
 * const forClient: HashRequestOptions = { key: "192.0.2.1" };
 * ```
 */
export interface HashRequestOptions {
  /** The client's address key; `null` or absent for in-process callers (one shared key). */
  key?: string | null;
}

/**
 * Options of {@link scryptPasswordHasher}.
 *
 * @example
 * ```ts
 * import type { ScryptPasswordHasherOptions } from "@app/fragment-cli/auth";
 *
 * const forTests: ScryptPasswordHasherOptions = { params: { ln: 4 }, maxConcurrent: 2 };
 * ```
 */
export interface ScryptPasswordHasherOptions {
  /** The cost parameters. Lower them only in tests. @default {@link OWASP_SCRYPT_PARAMS} */
  params?: Partial<ScryptParams>;
  /**
   * The key derivation, injectable so tests can observe how often it runs.
   * @default {@link scryptDerive}
   */
  derive?: ScryptDerive;
  /**
   * How many derivations may run at once; more wait. Each one holds 128 × N × r bytes (128 MiB at
   * the default cost), so this bounds memory under a burst of sign-ins. Half the cores by default:
   * hashes on every core would starve the event loop and the database work of the very requests
   * they serve, and a waiting sign-in waits for one hash at most instead of for a crowd.
   * @default min(4, max(1, half the number of cores))
   */
  maxConcurrent?: number;
  /**
   * How many derivations may wait for a slot; beyond that a hash is refused at once
   * (`PasswordHasherBusyError`, 503 `SERVICE_BUSY`) rather than queued for seconds. Waiters are
   * served fewest-recent-asks first (see hashing_queue.ts).
   * @default 8
   */
  maxQueued?: number;
}

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const ENCODED =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * The default derivation: `crypto.scrypt` with `maxmem` raised to fit the parameters (Node's
 * default of 32 MiB refuses N = 2^17, r = 8).
 *
 * @example
 * ```ts
 * import { scryptDerive } from "@app/fragment-cli/auth";
 *
 * const key = await scryptDerive("correct horse", new Uint8Array(16), { ln: 4, r: 8, p: 1 }, 32);
 * console.log(key.length); // 32
 * ```
 */
export function scryptDerive(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  keyLength: number,
): Promise<Uint8Array> {
  const N = 2 ** params.ln;
  const maxmem = 128 * N * params.r + 128 * params.r * params.p + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r: params.r, p: params.p, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
    });
  });
}

function checkParams(params: ScryptParams): ScryptParams {
  const { ln, r, p } = params;
  if (!Number.isInteger(ln) || ln < 1 || ln > 24) {
    throw new RangeError(`scrypt ln must be an integer 1 … 24, got ${ln}`);
  }
  if (!Number.isInteger(r) || r < 1 || r > 64) {
    throw new RangeError(`scrypt r must be an integer 1 … 64, got ${r}`);
  }
  if (!Number.isInteger(p) || p < 1 || p > 16) {
    throw new RangeError(`scrypt p must be an integer 1 … 16, got ${p}`);
  }
  return { ln, r, p };
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, "");
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function encode(params: ScryptParams, salt: Uint8Array, key: Uint8Array): string {
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${toBase64(salt)}$${toBase64(key)}`;
}

interface DecodedHash {
  params: ScryptParams;
  salt: Uint8Array;
  key: Uint8Array;
}

function decode(encoded: string): DecodedHash | null {
  const match = ENCODED.exec(encoded);
  if (!match) return null;
  try {
    const params = checkParams({ ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) });
    const salt = fromBase64(match[4]);
    const key = fromBase64(match[5]);
    if (salt.length < 8 || key.length < 16) return null;
    return { params, salt, key };
  } catch {
    return null;
  }
}

/**
 * The default password hasher: scrypt at OWASP's parameters in a self-describing string.
 * Passwords are NFC-normalized first, so the same characters typed on different systems match.
 *
 * @param options Cost parameters (tests lower them), an injectable derivation, a concurrency cap.
 * @returns A {@link PasswordHasher}.
 *
 * @example Hash, verify, and detect an outdated hash
 * ```ts
 * import { scryptPasswordHasher } from "@app/fragment-cli/auth";
 *
 * const weak = scryptPasswordHasher({ params: { ln: 4 } });
 * const stored = await weak.hash("correct horse battery");
 * console.log(stored.startsWith("$scrypt$ln=4,r=8,p=1$")); // true
 * console.log(await weak.verify("correct horse battery", stored)); // true
 * console.log(scryptPasswordHasher().needsRehash(stored)); // true: below OWASP's cost
 * ```
 */
export function scryptPasswordHasher(options: ScryptPasswordHasherOptions = {}): PasswordHasher {
  const params = checkParams({ ...OWASP_SCRYPT_PARAMS, ...options.params });
  const derive = options.derive ?? scryptDerive;
  const maxConcurrent = options.maxConcurrent ??
    Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));
  if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
  }
  const maxQueued = options.maxQueued ?? 8;
  if (!Number.isInteger(maxQueued) || maxQueued < 0) {
    throw new RangeError(`maxQueued must be a non-negative integer, got ${maxQueued}`);
  }
  const slot = hashingQueue({ maxConcurrent, maxQueued });
  const run = (
    password: string,
    salt: Uint8Array,
    p: ScryptParams,
    length: number,
    request: HashRequestOptions | undefined,
  ) => slot(request?.key ?? null, () => derive(password.normalize("NFC"), salt, p, length));

  return {
    async hash(password: string, request?: HashRequestOptions): Promise<string> {
      const salt = new Uint8Array(randomBytes(SALT_BYTES));
      return encode(params, salt, await run(password, salt, params, KEY_BYTES, request));
    },
    async verify(
      password: string,
      encoded: string,
      request?: HashRequestOptions,
    ): Promise<boolean> {
      const decoded = decode(encoded);
      if (!decoded) return false;
      const key = await run(password, decoded.salt, decoded.params, decoded.key.length, request);
      return key.length === decoded.key.length && timingSafeEqual(key, decoded.key);
    },
    refuseEarly(request?: HashRequestOptions): void {
      slot.refuseEarly(request?.key ?? null);
    },
    needsRehash(encoded: string): boolean {
      const decoded = decode(encoded);
      return !decoded || decoded.params.ln !== params.ln || decoded.params.r !== params.r ||
        decoded.params.p !== params.p || decoded.key.length !== KEY_BYTES;
    },
    dummyHash(): string {
      return encode(
        params,
        new Uint8Array(randomBytes(SALT_BYTES)),
        new Uint8Array(randomBytes(KEY_BYTES)),
      );
    },
  };
}
