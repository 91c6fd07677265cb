// deno-lint-ignore-file no-explicit-any
/**
 * A software authenticator for the passkey tests: a P-256 key from Web Crypto per passkey, the
 * attestation object (format `none`) and the authenticator data built byte by byte, CBOR from
 * `@levischuck/tiny-cbor`. Every field a check reads can be overridden (origin, RP ID, flags,
 * counter, challenge, client data type, key, user handle) to forge the responses an attacker or a
 * cloned authenticator would send.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { encodeCBOR } from "@levischuck/tiny-cbor";

/** The authenticator data flags (WebAuthn §6.1). */
export const FLAGS = Object.freeze({ UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 });

/** base64url without padding. */
export function b64url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString("base64url");
}

function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** An ASN.1 DER INTEGER of an unsigned big-endian value. */
function derInteger(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  let value = bytes.subarray(start);
  if (value[0] & 0x80) value = concat(new Uint8Array([0]), value);
  return concat(new Uint8Array([0x02, value.length]), value);
}

/** Web Crypto's ECDSA signature (r‖s) as the DER `SEQUENCE { r, s }` WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const body = concat(derInteger(raw.subarray(0, 32)), derInteger(raw.subarray(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

/** A passkey held by the software authenticator. */
export interface SoftwarePasskey {
  /** The credential id (base64url). */
  id: string;
  keys: CryptoKeyPair;
  /** The user handle of the creation options (base64url). */
  userHandle: string;
  /** The signature counter it sends next time minus one. */
  counter: number;
}

/** What a forged response changes. */
export interface Overrides {
  /** The client data's origin. */
  origin?: string;
  /** The RP ID whose hash starts the authenticator data. @default the options' */
  rpId?: string;
  /** The flags byte. @default UP | UV (and AT at registration) */
  flags?: number;
  /** The counter. @default 0 at registration, the passkey's + 1 at sign-in */
  counter?: number;
  /** The challenge the client data names. @default the options' */
  challenge?: string;
  /** The client data's type. @default webauthn.create / webauthn.get */
  type?: string;
  /** The user handle. @default the passkey's */
  userHandle?: string | null;
  /** Another key to sign with (a forged signature). */
  signWith?: CryptoKey;
  /** The credential id the response names. @default the passkey's */
  id?: string;
  /** The credential id the authenticator data carries (registration). @default 16 random bytes */
  credentialId?: Uint8Array;
}

function clientData(type: string, challenge: string, origin: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** A registration response to `options` (creation options JSON), and the new passkey. */
export async function register(
  options: { challenge: string; rp: { id: string }; user: { id: string } },
  overrides: Overrides & { origin: string },
): Promise<{ response: any; passkey: SoftwarePasskey }> {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
  const cose = encodeCBOR(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, raw.subarray(1, 33)],
      [-3, raw.subarray(33, 65)],
    ]),
  );
  const credentialId = overrides.credentialId ?? crypto.getRandomValues(new Uint8Array(16));
  const authData = concat(
    sha256(overrides.rpId ?? options.rp.id),
    new Uint8Array([overrides.flags ?? (FLAGS.UP | FLAGS.UV | FLAGS.AT)]),
    uint32(overrides.counter ?? 0),
    new Uint8Array(16), // AAGUID: none
    new Uint8Array([0, credentialId.length]),
    credentialId,
    cose,
  );
  const attestationObject = encodeCBOR(
    new Map<string, string | Uint8Array | Map<string, string>>([
      ["fmt", "none"],
      ["attStmt", new Map<string, string>()],
      ["authData", authData],
    ]),
  );
  const id = overrides.id ?? b64url(credentialId);
  const data = clientData(
    overrides.type ?? "webauthn.create",
    overrides.challenge ?? options.challenge,
    overrides.origin,
  );
  return {
    response: {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(data),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid", "carrier-pigeon"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
    },
    passkey: { id: b64url(credentialId), keys, userHandle: options.user.id, counter: 0 },
  };
}

/** An assertion of `passkey` to `options` (request options JSON); advances its counter. */
export async function authenticate(
  passkey: SoftwarePasskey,
  options: { challenge: string; rpId: string },
  overrides: Overrides & { origin: string },
): Promise<any> {
  const counter = overrides.counter ?? passkey.counter + 1;
  passkey.counter = Math.max(passkey.counter, counter);
  const authData = concat(
    sha256(overrides.rpId ?? options.rpId),
    new Uint8Array([overrides.flags ?? (FLAGS.UP | FLAGS.UV)]),
    uint32(counter),
  );
  const data = clientData(
    overrides.type ?? "webauthn.get",
    overrides.challenge ?? options.challenge,
    overrides.origin,
  );
  const signed = concat(authData, sha256(data));
  const signature = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      overrides.signWith ?? passkey.keys.privateKey,
      signed,
    ),
  );
  const userHandle = overrides.userHandle === undefined ? passkey.userHandle : overrides.userHandle;
  const id = overrides.id ?? passkey.id;
  return {
    id,
    rawId: id,
    type: "public-key",
    response: {
      clientDataJSON: b64url(data),
      authenticatorData: b64url(authData),
      signature: b64url(derSignature(signature)),
      ...(userHandle === null ? {} : { userHandle }),
    },
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
  };
}
