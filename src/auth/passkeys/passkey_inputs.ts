/**
 * The bodies and answers of the passkey operations as zod schemas checked exactly against their
 * types: the routes parse and document them, `auth.api` parses its arguments with them, the typed
 * client takes its types from them. The ceremony's JSON is WebAuthn's own (`PublicKeyCredential`
 * `toJSON()` and the `…OptionsJSON` dictionaries): binary values are base64url strings.
 *
 * @module
 */

import { z } from "zod";
import { checkStorable } from "../account/well_formed.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { type ResponseSchema, timestamp } from "../http/responses.ts";

/** The longest passkey name, in characters. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** A base64url value of at most `max` characters. */
function base64url(max: number) {
  return z.string().min(1).max(max).regex(BASE64URL, "expected base64url");
}

// WebAuthn caps a credential id at 1023 bytes (1364 base64url characters).
const credentialId = base64url(1400);
// Both are stored as text: a value PostgreSQL refuses (U+0000, a lone surrogate) is a 400.
const transports = z.array(z.string().max(32).superRefine(checkStorable)).max(10);
const passkeyName = z.string().trim().min(1).max(MAX_PASSKEY_NAME_LENGTH).superRefine(
  checkStorable,
);

/**
 * A passkey of the signed-in user, as `GET /passkeys` lists it.
 *
 * @example
 * ```ts
 * import type { AuthPasskey } from "@app/fragment-cli/auth";
 *
 * const passkey: AuthPasskey = {
 *   id: "5b0e9d8c-3f7a-4c1e-9b2d-7a6f5e4d3c2b",
 *   name: "MacBook",
 *   createdAt: "2026-11-29T10:00:00.000Z",
 *   lastUsedAt: null,
 *   deviceType: "multiDevice",
 *   backedUp: true,
 * };
 * ```
 */
export interface AuthPasskey {
  /** Its id (`PATCH` and `DELETE /passkeys/:passkeyId`). */
  id: string;
  /** The name the user gave it (or the default, `Passkey 1`, `Passkey 2`, …). */
  name: string;
  /** When it was added (ISO 8601). */
  createdAt: string;
  /** When it last signed in (ISO 8601), or `null`. */
  lastUsedAt: string | null;
  /** `multiDevice`: it may be synced to the user's other devices; `singleDevice`: it never leaves its authenticator. */
  deviceType: "singleDevice" | "multiDevice";
  /** Whether it is backed up (synced) now. */
  backedUp: boolean;
}

/** One passkey. */
export const passkeyResponse: ResponseSchema<AuthPasskey> = exactSchema<AuthPasskey>()(z.object({
  id: z.string(),
  name: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  deviceType: z.enum(["singleDevice", "multiDevice"]),
  backedUp: z.boolean(),
}));

/** The answer of `GET /passkeys`. */
export const passkeysResponse: ResponseSchema<{ passkeys: AuthPasskey[] }> = exactSchema<
  { passkeys: AuthPasskey[] }
>()(z.object({ passkeys: z.array(passkeyResponse) }));

/**
 * A credential named in options (`excludeCredentials`, `allowCredentials`): WebAuthn's
 * `PublicKeyCredentialDescriptorJSON`.
 *
 * @example
 * ```ts
 * import type { AuthPasskeyDescriptor } from "@app/fragment-cli/auth";
 *
 * const known: AuthPasskeyDescriptor = { type: "public-key", id: "q2Vz1w", transports: ["internal"] };
 * ```
 */
export interface AuthPasskeyDescriptor {
  /** Always `public-key`. */
  type: "public-key";
  /** The credential id (base64url). */
  id: string;
  /** How the browser may reach its authenticator, as it said at registration. */
  transports?: string[] | undefined;
}

const descriptor = exactSchema<AuthPasskeyDescriptor>()(z.object({
  type: z.literal("public-key"),
  id: z.string(),
  transports: z.array(z.string()).optional(),
}));

const requirement = z.enum(["discouraged", "preferred", "required"]);

/**
 * The answer of `POST /passkeys/registration-options`: WebAuthn's
 * `PublicKeyCredentialCreationOptionsJSON`, for `PublicKeyCredential.parseCreationOptionsFromJSON`
 * and `navigator.credentials.create({ publicKey })`.
 *
 * @example
 * ```ts
 * import type { AuthPasskeyCreationOptions } from "@app/fragment-cli/auth";
 *
 * function describe(options: AuthPasskeyCreationOptions): string {
 *   return `a passkey for ${options.user.name} on ${options.rp.id}`;
 * }
 * ```
 */
export interface AuthPasskeyCreationOptions {
  /** The challenge (base64url), single use, valid 5 minutes. */
  challenge: string;
  /** The relying party: `publicOrigin`'s host name. */
  rp: { id: string; name: string };
  /** The account: `id` is the user handle (base64url), `name` and `displayName` the address. */
  user: { id: string; name: string; displayName: string };
  /** The signature algorithms accepted (COSE ids). */
  pubKeyCredParams: { type: "public-key"; alg: number }[];
  /** How long the browser waits, in milliseconds. */
  timeout: number;
  /** The user's passkeys, so an authenticator does not register twice. */
  excludeCredentials: AuthPasskeyDescriptor[];
  /** A discoverable credential preferred (no address needed to sign in); user verification required. */
  authenticatorSelection: {
    residentKey: "discouraged" | "preferred" | "required";
    requireResidentKey: boolean;
    userVerification: "discouraged" | "preferred" | "required";
  };
  /** `none`: no attestation is asked for. */
  attestation: "none" | "indirect" | "direct" | "enterprise";
  /** `credProps`: the browser says whether the passkey is discoverable. */
  extensions: { credProps: boolean };
}

/** The answer of `POST /passkeys/registration-options`. */
export const creationOptionsResponse: ResponseSchema<AuthPasskeyCreationOptions> = exactSchema<
  AuthPasskeyCreationOptions
>()(z.object({
  challenge: z.string(),
  rp: z.object({ id: z.string(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.number() })),
  timeout: z.number(),
  excludeCredentials: z.array(descriptor),
  authenticatorSelection: z.object({
    residentKey: requirement,
    requireResidentKey: z.boolean(),
    userVerification: requirement,
  }),
  attestation: z.enum(["none", "indirect", "direct", "enterprise"]),
  extensions: z.object({ credProps: z.boolean() }),
}));

/**
 * The answer of `POST /sign-in/passkey/options`: WebAuthn's
 * `PublicKeyCredentialRequestOptionsJSON`, for `PublicKeyCredential.parseRequestOptionsFromJSON`
 * and `navigator.credentials.get({ publicKey })`. `allowCredentials` is empty: the authenticator
 * offers the passkeys it holds for the site (no address needed).
 *
 * @example
 * ```ts
 * import type { AuthPasskeyRequestOptions } from "@app/fragment-cli/auth";
 *
 * const discoverable = (options: AuthPasskeyRequestOptions) => options.allowCredentials.length === 0;
 * ```
 */
export interface AuthPasskeyRequestOptions {
  /** The challenge (base64url), single use, valid 5 minutes. */
  challenge: string;
  /** The relying party's id. */
  rpId: string;
  /** How long the browser waits, in milliseconds. */
  timeout: number;
  /** `required`: the authenticator checks who holds it (biometrics, PIN). */
  userVerification: "discouraged" | "preferred" | "required";
  /** The credentials that may answer; empty: any passkey of the site. */
  allowCredentials: AuthPasskeyDescriptor[];
}

/** The answer of `POST /sign-in/passkey/options`. */
export const requestOptionsResponse: ResponseSchema<AuthPasskeyRequestOptions> = exactSchema<
  AuthPasskeyRequestOptions
>()(z.object({
  challenge: z.string(),
  rpId: z.string(),
  timeout: z.number(),
  userVerification: requirement,
  allowCredentials: z.array(descriptor),
}));

/**
 * What `navigator.credentials.create()` produced, as `credential.toJSON()` gives it: WebAuthn's
 * `RegistrationResponseJSON`.
 *
 * @example
 * ```ts
 * import type { AuthPasskeyRegistrationResponse } from "@app/fragment-cli/auth";
 *
 * const transportsOf = (credential: AuthPasskeyRegistrationResponse) =>
 *   credential.response.transports ?? [];
 * ```
 */
export interface AuthPasskeyRegistrationResponse {
  /** The credential id (base64url). */
  id: string;
  /** The same id (base64url). */
  rawId: string;
  /** Always `public-key`. */
  type: "public-key";
  /** The authenticator's answer. */
  response: {
    /** The client data (base64url of its JSON). */
    clientDataJSON: string;
    /** The attestation object (base64url of its CBOR). */
    attestationObject: string;
    /** Copies the browser adds; the attestation object is what is verified. */
    authenticatorData?: string | undefined;
    transports?: string[] | undefined;
    publicKeyAlgorithm?: number | undefined;
    publicKey?: string | undefined;
  };
  /** `platform` or `cross-platform`, when the browser says. */
  authenticatorAttachment?: string | null | undefined;
  /** The extensions' outputs (`credProps`). */
  clientExtensionResults?: Record<string, unknown> | undefined;
}

const registrationResponse = exactSchema<AuthPasskeyRegistrationResponse>()(z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32_768),
    authenticatorData: base64url(16_384).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: base64url(4096).optional(),
  }),
  authenticatorAttachment: z.string().max(32).nullable().optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
}));

/**
 * What `navigator.credentials.get()` produced, as `credential.toJSON()` gives it: WebAuthn's
 * `AuthenticationResponseJSON`.
 *
 * @example
 * ```ts
 * import type { AuthPasskeyAuthenticationResponse } from "@app/fragment-cli/auth";
 *
 * const credentialIdOf = (assertion: AuthPasskeyAuthenticationResponse) => assertion.id;
 * ```
 */
export interface AuthPasskeyAuthenticationResponse {
  /** The credential id (base64url). */
  id: string;
  /** The same id (base64url). */
  rawId: string;
  /** Always `public-key`. */
  type: "public-key";
  /** The authenticator's answer. */
  response: {
    /** The client data (base64url of its JSON). */
    clientDataJSON: string;
    /** The authenticator data (base64url). */
    authenticatorData: string;
    /** The signature over both (base64url). */
    signature: string;
    /** The user handle the passkey was registered with (base64url). */
    userHandle?: string | null | undefined;
  };
  /** `platform` or `cross-platform`, when the browser says. */
  authenticatorAttachment?: string | null | undefined;
  /** The extensions' outputs. */
  clientExtensionResults?: Record<string, unknown> | undefined;
}

/** An assertion, parsed. */
export const authenticationResponse: z.ZodType<
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyAuthenticationResponse
> = exactSchema<AuthPasskeyAuthenticationResponse>()(z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16_384),
    signature: base64url(2048),
    userHandle: base64url(128).nullable().optional(),
  }),
  authenticatorAttachment: z.string().max(32).nullable().optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
}));

/**
 * The body of `POST /passkeys`: the browser's registration response, and a name for the passkey.
 *
 * @example
 * ```ts
 * import type { AuthAddPasskeyBody, AuthPasskeyRegistrationResponse } from "@app/fragment-cli/auth";
 *
 * const body = (response: AuthPasskeyRegistrationResponse): AuthAddPasskeyBody => ({
 *   response,
 *   name: "Work laptop",
 * });
 * ```
 */
export interface AuthAddPasskeyBody {
  /** `credential.toJSON()` of `navigator.credentials.create()`. */
  response: AuthPasskeyRegistrationResponse;
  /** Its name (trimmed, 1–64 characters). @default `Passkey <n>` */
  name?: string | undefined;
}

/** The body of `POST /passkeys`. */
export const addPasskeyBody: z.ZodType<AuthAddPasskeyBody, AuthAddPasskeyBody> = exactSchema<
  AuthAddPasskeyBody
>()(z.object({ response: registrationResponse, name: passkeyName.optional() }));

/**
 * The body of `PATCH /passkeys/:passkeyId`.
 *
 * @example
 * ```ts
 * import type { AuthRenamePasskeyBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthRenamePasskeyBody = { name: "YubiKey 5C" };
 * ```
 */
export interface AuthRenamePasskeyBody {
  /** The new name (trimmed, 1–64 characters). */
  name: string;
}

/** The body of `PATCH /passkeys/:passkeyId`. */
export const renamePasskeyBody: z.ZodType<AuthRenamePasskeyBody, AuthRenamePasskeyBody> =
  exactSchema<AuthRenamePasskeyBody>()(z.object({ name: passkeyName }));

/**
 * The body of `POST /sign-in/passkey`.
 *
 * @example
 * ```ts
 * import type { AuthPasskeyAuthenticationResponse, AuthPasskeySignInBody } from "@app/fragment-cli/auth";
 *
 * const body = (response: AuthPasskeyAuthenticationResponse): AuthPasskeySignInBody => ({ response });
 * ```
 */
export interface AuthPasskeySignInBody {
  /** `credential.toJSON()` of `navigator.credentials.get()`. */
  response: AuthPasskeyAuthenticationResponse;
}

/** The body of `POST /sign-in/passkey`. */
export const passkeySignInBody: z.ZodType<AuthPasskeySignInBody, AuthPasskeySignInBody> =
  exactSchema<AuthPasskeySignInBody>()(z.object({ response: authenticationResponse }));

/** The path parameter of `PATCH` and `DELETE /passkeys/:passkeyId`. */
export const passkeyIdParams: z.ZodType<{ passkeyId: string }, { passkeyId: string }> = exactSchema<
  { passkeyId: string }
>()(z.object({ passkeyId: z.string().max(100) }));
