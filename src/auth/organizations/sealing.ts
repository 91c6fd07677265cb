/**
 * Sealing: authenticated encryption (AES-256-GCM) of a secret value that must be stored and read
 * back in plain text later (an invitation token waiting in the hook table for its mail). The key
 * is derived (HKDF-SHA-256) from the deployment's `secret` and a purpose, so one secret yields
 * independent keys; without a secret it is random per process, and what another process sealed
 * cannot be opened.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Seals and opens values for one purpose. */
export interface Sealer {
  /** `v1.<iv>.<ciphertext and tag>` (base64url), bound to `context` (e.g. the owning row's id). */
  seal(plain: string, context: string): string;
  /** The plain value, or `null` when the key or the context differ, or the value was altered. */
  open(sealed: string, context: string): string | null;
}

const VERSION = "v1";

/** The key of `purpose` from `secret` (random, this process only, when `secret` is `null`). */
function deriveKey(secret: string | null, purpose: string): Buffer {
  if (secret === null) return randomBytes(32);
  return Buffer.from(hkdfSync("sha256", secret, "fragment-cli sealing", purpose, 32));
}

/** A sealer for `purpose` keyed by the deployment's secret. */
export function createSealer(secret: string | null, purpose: string): Sealer {
  const key = deriveKey(secret, purpose);
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([
        cipher.update(plain, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${VERSION}.${iv.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed, context) {
      const [version, ivText, bodyText, ...rest] = String(sealed).split(".");
      if (version !== VERSION || !ivText || !bodyText || rest.length > 0) return null;
      try {
        const iv = Buffer.from(ivText, "base64url");
        const body = Buffer.from(bodyText, "base64url");
        if (iv.length !== 12 || body.length < 16) return null;
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(body.subarray(body.length - 16));
        const plain = Buffer.concat([
          decipher.update(body.subarray(0, body.length - 16)),
          decipher.final(),
        ]);
        return plain.toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
