/**
 * The browser's half of the passkey ceremonies: the options' JSON (base64url) turned into what
 * `navigator.credentials.create()` / `.get()` take, and the credential they return turned back into
 * JSON for the module. Where the browser has them, `PublicKeyCredential.parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON` and `credential.toJSON()` do it; elsewhere a few lines of base64url
 * conversion do. No dependency: the client stays small.
 *
 * @module
 */

import type {
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyCreationOptions,
  AuthPasskeyDescriptor,
  AuthPasskeyRegistrationResponse,
  AuthPasskeyRequestOptions,
} from "../auth/mod.ts";

/** The parts of a `PublicKeyCredential` the conversion reads. */
interface BrowserCredential {
  id: string;
  rawId: ArrayBuffer;
  type: string;
  authenticatorAttachment?: string | null;
  response: {
    clientDataJSON: ArrayBuffer;
    attestationObject?: ArrayBuffer;
    authenticatorData?: ArrayBuffer;
    signature?: ArrayBuffer;
    userHandle?: ArrayBuffer | null;
    getTransports?(): string[];
  };
  getClientExtensionResults?(): Record<string, unknown>;
  toJSON?(): unknown;
}

/** The WebAuthn globals of a browser (absent elsewhere). */
interface WebAuthnGlobals {
  navigator?: {
    credentials?: {
      create(options: unknown): Promise<unknown>;
      get(options: unknown): Promise<unknown>;
    };
  };
  PublicKeyCredential?: {
    parseCreationOptionsFromJSON?(options: unknown): unknown;
    parseRequestOptionsFromJSON?(options: unknown): unknown;
  };
}

/** How a ceremony ended without a credential. */
export class CeremonyError extends Error {
  /** `PASSKEY_NOT_SUPPORTED` (no WebAuthn here) or `PASSKEY_CEREMONY_FAILED`. */
  readonly code: "PASSKEY_NOT_SUPPORTED" | "PASSKEY_CEREMONY_FAILED";

  constructor(code: CeremonyError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Options of `client.signIn.withPasskey()`: how the browser asks (`navigator.credentials.get()`).
 *
 * @example Passkeys in the address field's autofill
 * ```ts
 * import { type AuthPasskeyCeremonyOptions, createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const leave = new AbortController();
 * const options: AuthPasskeyCeremonyOptions = { mediation: "conditional", signal: leave.signal };
 * // <input autocomplete="username webauthn"> on the page; the promise settles when one is chosen.
 * const { data } = await client.signIn.withPasskey(options);
 * if (data) console.log(data.user.email);
 * ```
 */
export interface AuthPasskeyCeremonyOptions {
  /** `"conditional"`: offer the passkeys in the autofill of a `autocomplete="webauthn"` field. */
  mediation?: "conditional" | "optional" | "required" | "silent";
  /** Ends the ceremony (e.g. when the page leaves the sign-in screen). */
  signal?: AbortSignal;
}

function globals(): WebAuthnGlobals {
  return globalThis as unknown as WebAuthnGlobals;
}

/** Whether this environment has WebAuthn (`navigator.credentials` and `PublicKeyCredential`). */
export function webauthnAvailable(): boolean {
  return Boolean(globals().navigator?.credentials && globals().PublicKeyCredential);
}

function credentialsApi() {
  const api = globals().navigator?.credentials;
  if (!api || !webauthnAvailable()) {
    throw new CeremonyError("PASSKEY_NOT_SUPPORTED", "This environment does not support passkeys");
  }
  return api;
}

/** base64url (padded or not) to bytes. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes to base64url without padding. */
export function toBase64url(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes = buffer instanceof ArrayBuffer
    ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list: AuthPasskeyDescriptor[]) {
  return list.map((item) => ({ ...item, id: fromBase64url(item.id) }));
}

/** The creation options as `navigator.credentials.create()` takes them. */
function creationOptions(options: AuthPasskeyCreationOptions): unknown {
  const parse = globals().PublicKeyCredential?.parseCreationOptionsFromJSON;
  if (parse) return parse(options);
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
}

/** The request options as `navigator.credentials.get()` takes them. */
function requestOptions(options: AuthPasskeyRequestOptions): unknown {
  const parse = globals().PublicKeyCredential?.parseRequestOptionsFromJSON;
  if (parse) return parse(options);
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
}

/** Runs one ceremony call; a refusal (canceled, timed out, no passkey) as a {@link CeremonyError}. */
async function ceremony(run: () => Promise<unknown>): Promise<BrowserCredential> {
  let credential: unknown;
  try {
    credential = await run();
  } catch (error) {
    if (error instanceof CeremonyError) throw error;
    const name = (error as { name?: unknown })?.name;
    const message = error instanceof Error ? error.message : String(error);
    throw new CeremonyError(
      "PASSKEY_CEREMONY_FAILED",
      typeof name === "string" ? `${name}: ${message}` : message,
    );
  }
  if (credential === null || typeof credential !== "object") {
    throw new CeremonyError("PASSKEY_CEREMONY_FAILED", "The browser returned no credential");
  }
  return credential as BrowserCredential;
}

/** Creates a passkey with `navigator.credentials.create()`; its JSON for `POST /passkeys`. */
export async function createPasskey(
  options: AuthPasskeyCreationOptions,
  signal?: AbortSignal,
): Promise<AuthPasskeyRegistrationResponse> {
  const api = credentialsApi();
  const publicKey = creationOptions(options);
  const credential = await ceremony(() =>
    api.create(signal ? { publicKey, signal } : { publicKey })
  );
  if (typeof credential.toJSON === "function") {
    return credential.toJSON() as AuthPasskeyRegistrationResponse;
  }
  const { response } = credential;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject ?? new ArrayBuffer(0)),
      transports: response.getTransports?.() ?? [],
    },
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
}

/** Asks for a passkey with `navigator.credentials.get()`; its JSON for `POST /sign-in/passkey`. */
export async function getPasskey(
  options: AuthPasskeyRequestOptions,
  ceremonyOptions: AuthPasskeyCeremonyOptions = {},
): Promise<AuthPasskeyAuthenticationResponse> {
  const api = credentialsApi();
  const publicKey = requestOptions(options);
  const credential = await ceremony(() => api.get({ publicKey, ...ceremonyOptions }));
  if (typeof credential.toJSON === "function") {
    return credential.toJSON() as AuthPasskeyAuthenticationResponse;
  }
  const { response } = credential;
  const userHandle = response.userHandle;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData ?? new ArrayBuffer(0)),
      signature: toBase64url(response.signature ?? new ArrayBuffer(0)),
      ...(userHandle ? { userHandle: toBase64url(userHandle) } : {}),
    },
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
}
