/**
 * A secret box: authenticated encryption (AES-256-GCM, Web Crypto) of a value the module must read
 * back later, such as a TOTP secret. The key is derived with HKDF-SHA-256 from the deployment's
 * `secret` and a purpose label, the way `organizations/sealing.ts` derives its keys (one secret,
 * an independent key per purpose); each value gets a random 96-bit IV and is bound to a context
 * (the owning row's id) as additional data, so a ciphertext copied to another row does not open.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** Seals and opens values for one purpose. */
export interface SecretBox {
  /** `v1.<iv>.<ciphertext and tag>` (base64url), bound to `context`. */
  seal(plain: string, context: string): Promise<string>;
  /** The plain value, or `null` when the key or the context differ, or the value was altered. */
  open(sealed: string, context: string): Promise<string | null>;
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const encoder = new TextEncoder();

/** The AES-GCM key of `purpose` derived from `secret`. */
async function deriveKey(secret: string, purpose: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode("fragment-cli sealing"),
      info: encoder.encode(purpose),
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** A box for `purpose`, keyed by the deployment's secret. */
export function createSecretBox(secret: string, purpose: string): SecretBox {
  let key: Promise<CryptoKey> | null = null;
  const keyOf = () => key ??= deriveKey(secret, purpose);
  return {
    async seal(plain, context) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const body = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
        await keyOf(),
        encoder.encode(plain),
      );
      return `${VERSION}.${Buffer.from(iv).toString("base64url")}.${
        Buffer.from(body).toString("base64url")
      }`;
    },
    async open(sealed, context) {
      const [version, ivText, bodyText, ...rest] = String(sealed).split(".");
      if (version !== VERSION || !ivText || !bodyText || rest.length > 0) return null;
      const iv = Buffer.from(ivText, "base64url");
      const body = Buffer.from(bodyText, "base64url");
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) return null;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
          await keyOf(),
          body,
        );
        return new TextDecoder().decode(plain);
      } catch {
        return null;
      }
    },
  };
}
