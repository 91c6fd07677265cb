/**
 * `@simplewebauthn/server`, the WebAuthn verifier of the passkeys (CBOR, COSE keys, attestation
 * statements, signatures), imported on its first use: a deployment whose users never touch a
 * passkey never loads it, nor the ASN.1 and X.509 parsers it brings.
 *
 * @module
 */

import type * as WebAuthn from "@simplewebauthn/server";

/** The library's exports. */
export type WebAuthnLibrary = typeof WebAuthn;

let library: Promise<WebAuthnLibrary> | null = null;

/** `@simplewebauthn/server`, imported on first use. */
export function webauthnLibrary(): Promise<WebAuthnLibrary> {
  library ??= import("@simplewebauthn/server");
  return library;
}

/**
 * The signature algorithms offered at registration (COSE ids): Ed25519, ES256 (P-256), RS256.
 * Named here rather than left to the library's default, which adds ML-DSA where the runtime has
 * it: a passkey registered on one runtime must verify on every other.
 */
export const SUPPORTED_ALGORITHMS: readonly number[] = Object.freeze([-8, -7, -257]);
