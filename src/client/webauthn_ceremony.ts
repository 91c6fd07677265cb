/**
 * The browser's half of the passkey ceremonies: the options' JSON turned into what
 * `navigator.credentials.create()` / `.get()` take, and the credential they return turned back into
 * JSON for the module, by the browser itself (`PublicKeyCredential.parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON`, `credential.toJSON()`: WebAuthn Level 3, in Chrome and Edge 129+,
 * Firefox 119+ and Safari 18.4+). A browser without them is told `PASSKEY_NOT_SUPPORTED` before any
 * request: no conversion code of our own, so the client stays small.
 *
 * @module
 */

import type {
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyCreationOptions,
  AuthPasskeyRegistrationResponse,
  AuthPasskeyRequestOptions,
} from "../auth/mod.ts";

/** The part of a `PublicKeyCredential` the ceremony reads. */
interface BrowserCredential {
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

/**
 * Whether this environment has WebAuthn with its JSON methods (`navigator.credentials`, and
 * `PublicKeyCredential.parseCreationOptionsFromJSON` and `parseRequestOptionsFromJSON`).
 */
export function webauthnAvailable(): boolean {
  const parsers = globals().PublicKeyCredential;
  return Boolean(
    globals().navigator?.credentials && parsers?.parseCreationOptionsFromJSON &&
      parsers.parseRequestOptionsFromJSON,
  );
}

function credentialsApi() {
  const api = globals().navigator?.credentials;
  if (!api || !webauthnAvailable()) {
    throw new CeremonyError("PASSKEY_NOT_SUPPORTED", "This environment does not support passkeys");
  }
  return api;
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

/** The credential's JSON (`toJSON()`, which every browser with the JSON parsers has). */
function credentialJson(credential: BrowserCredential): unknown {
  if (typeof credential.toJSON !== "function") {
    throw new CeremonyError(
      "PASSKEY_NOT_SUPPORTED",
      "This browser cannot turn a passkey into JSON",
    );
  }
  return credential.toJSON();
}

/** Creates a passkey with `navigator.credentials.create()`; its JSON for `POST /passkeys`. */
export async function createPasskey(
  options: AuthPasskeyCreationOptions,
  signal?: AbortSignal,
): Promise<AuthPasskeyRegistrationResponse> {
  const api = credentialsApi();
  const publicKey = globals().PublicKeyCredential!.parseCreationOptionsFromJSON!(options);
  const credential = await ceremony(() =>
    api.create(signal ? { publicKey, signal } : { publicKey })
  );
  return credentialJson(credential) as AuthPasskeyRegistrationResponse;
}

/** Asks for a passkey with `navigator.credentials.get()`; its JSON for `POST /sign-in/passkey`. */
export async function getPasskey(
  options: AuthPasskeyRequestOptions,
  ceremonyOptions: AuthPasskeyCeremonyOptions = {},
): Promise<AuthPasskeyAuthenticationResponse> {
  const api = credentialsApi();
  const publicKey = globals().PublicKeyCredential!.parseRequestOptionsFromJSON!(options);
  const credential = await ceremony(() => api.get({ publicKey, ...ceremonyOptions }));
  return credentialJson(credential) as AuthPasskeyAuthenticationResponse;
}
