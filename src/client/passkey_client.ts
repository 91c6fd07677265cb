/**
 * The passkey calls of the typed client: `client.passkeys` (register, list, rename, remove) and
 * the passkey half of `client.signIn` (`signIn.passkeyOptions`, `signIn.passkey`). Their methods
 * and paths come from the operation declarations, through the generated
 * `generated/client_routes.ts`. `passkeys.register()` and `signIn.withPasskey()` run the whole
 * ceremony in a browser (options, `navigator.credentials`, the answer).
 *
 * @module
 */

import type {
  AuthAddPasskeyBody,
  AuthCredentialResponse,
  AuthPasskey,
  AuthPasskeyCreationOptions,
  AuthPasskeyRequestOptions,
  AuthPasskeySignInBody,
  AuthRenamePasskeyBody,
  AuthTwoFactorCredential,
  AuthTwoFactorPasskeyOptionsBody,
} from "../auth/mod.ts";
import type { SendOperation } from "./account_client.ts";
import type { AuthResult } from "./result.ts";
import {
  type AuthPasskeyCeremonyOptions,
  CeremonyError,
  createPasskey,
  getPasskey,
  webauthnAvailable,
} from "./webauthn_ceremony.ts";
import type * as Routes from "../../generated/client_routes.ts";

/**
 * The passkey calls: `client.passkeys`.
 *
 * @example An "Add a passkey" button, and the list with "Rename" and "Remove"
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const added = await client.passkeys.register({ name: "Work laptop" });
 * if (added.error?.code === "PASSKEY_CEREMONY_FAILED") console.log("Canceled");
 * const { data } = await client.passkeys.list();
 * for (const passkey of data?.passkeys ?? []) console.log(passkey.name, passkey.lastUsedAt);
 * if (added.data) await client.passkeys.rename(added.data.id, { name: "MacBook" });
 * ```
 */
export interface AuthPasskeysClient {
  /**
   * In a browser: creates a passkey for the signed-in user and adds it (options,
   * `navigator.credentials.create()`, `POST /passkeys`). `error.code` is
   * `PASSKEY_CEREMONY_FAILED` when the browser or the user ended the ceremony (its `message`
   * starts with the DOMException's name, `NotAllowedError` for a cancel or a timeout,
   * `InvalidStateError` for an authenticator that holds one of the user's passkeys already), and
   * `PASSKEY_NOT_SUPPORTED` where there is no WebAuthn.
   */
  register(options?: { name?: string; signal?: AbortSignal }): Promise<AuthResult<AuthPasskey>>;
  /** `POST /passkeys/registration-options`: the creation options (the first half of `register`). */
  registrationOptions(): Promise<AuthResult<AuthPasskeyCreationOptions>>;
  /** `POST /passkeys` with the browser's registration response (the second half). */
  add(body: AuthAddPasskeyBody): Promise<AuthResult<AuthPasskey>>;
  /** `GET /passkeys`: the caller's passkeys, oldest first. */
  list(): Promise<AuthResult<{ passkeys: AuthPasskey[] }>>;
  /** `PATCH /passkeys/:passkeyId`. */
  rename(passkeyId: string, body: AuthRenamePasskeyBody): Promise<AuthResult<AuthPasskey>>;
  /** `DELETE /passkeys/:passkeyId` (409 `LAST_SIGN_IN_METHOD` for the last way in). */
  remove(passkeyId: string): Promise<AuthResult<null>>;
}

/**
 * The passkey sign-in calls, on `client.signIn`.
 *
 * @example A "Sign in with a passkey" button
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data, error } = await client.signIn.withPasskey();
 * if (data) console.log(`Signed in as ${data.user.email}`);
 * else if (error.code !== "PASSKEY_CEREMONY_FAILED") console.log(error.message);
 * ```
 */
export interface AuthPasskeySignInClient {
  /**
   * In a browser: signs in with a passkey (options, `navigator.credentials.get()`,
   * `POST /sign-in/passkey`; sets the cookie). `mediation: "conditional"` offers the passkeys in
   * the autofill of an `autocomplete="username webauthn"` field; `signal` ends the ceremony.
   * Errors as `passkeys.register`'s.
   */
  withPasskey(options?: AuthPasskeyCeremonyOptions): Promise<AuthResult<AuthCredentialResponse>>;
  /** `POST /sign-in/passkey/options`: the request options (the first half of `withPasskey`). */
  passkeyOptions(): Promise<AuthResult<AuthPasskeyRequestOptions>>;
  /** `POST /sign-in/passkey` with the browser's assertion (the second half; sets the cookie). */
  passkey(body: AuthPasskeySignInBody): Promise<AuthResult<AuthCredentialResponse>>;
  /**
   * In a browser: answers a sign-in's `twoFactorRequired` challenge with one of the account's
   * passkeys (`POST /sign-in/two-factor/passkey-options`, `navigator.credentials.get()`, then
   * `POST /sign-in/two-factor`; sets the cookie). Errors as `withPasskey`'s.
   */
  twoFactorWithPasskey(
    body: AuthTwoFactorPasskeyOptionsBody,
    options?: AuthPasskeyCeremonyOptions,
  ): Promise<AuthResult<AuthTwoFactorCredential>>;
  /** `POST /sign-in/two-factor/passkey-options`: the first half of `twoFactorWithPasskey`. */
  twoFactorPasskeyOptions(
    body: AuthTwoFactorPasskeyOptionsBody,
  ): Promise<AuthResult<AuthPasskeyRequestOptions>>;
}

/** The answer where there is no WebAuthn: nothing is asked of the server. */
function notSupported<T>(): AuthResult<T> {
  return ceremonyFailure(
    new CeremonyError("PASSKEY_NOT_SUPPORTED", "This environment does not support passkeys"),
  );
}

/** A ceremony's refusal (or any failure around it) as the client's error result. */
function ceremonyFailure<T>(error: unknown): AuthResult<T> {
  if (error instanceof CeremonyError) {
    return { data: null, error: { status: 0, code: error.code, message: error.message } };
  }
  const name = (error as { name?: unknown })?.name;
  const message = error instanceof Error ? error.message : String(error);
  return {
    data: null,
    error: {
      status: 0,
      code: "PASSKEY_CEREMONY_FAILED",
      message: typeof name === "string" ? `${name}: ${message}` : message,
    },
  };
}

/**
 * The passkey calls of the client, over `send` and the operations' routes.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.passkeys.list();
 * console.log(data?.passkeys.length ?? 0);
 * ```
 */
export function passkeyCalls(send: SendOperation, routes: typeof Routes): {
  passkeys: AuthPasskeysClient;
  signIn: AuthPasskeySignInClient;
} {
  const passkeys: AuthPasskeysClient = {
    async register(options = {}) {
      if (!webauthnAvailable()) return notSupported();
      const created = await passkeys.registrationOptions();
      if (created.error) return created;
      let response;
      try {
        response = await createPasskey(created.data, options.signal);
      } catch (error) {
        return ceremonyFailure(error);
      }
      const name = options.name;
      return await passkeys.add(name === undefined ? { response } : { response, name });
    },
    registrationOptions: () => send(routes.passkeyRegistrationOptions),
    add: (body) => send(routes.addPasskey, { body }),
    list: () => send(routes.listPasskeys),
    rename: (passkeyId, body) => send(routes.renamePasskey, { params: { passkeyId }, body }),
    remove: (passkeyId) => send(routes.removePasskey, { params: { passkeyId } }),
  };
  const signIn: AuthPasskeySignInClient = {
    async withPasskey(options = {}) {
      if (!webauthnAvailable()) return notSupported();
      const requested = await signIn.passkeyOptions();
      if (requested.error) return requested;
      let response;
      try {
        response = await getPasskey(requested.data, options);
      } catch (error) {
        return ceremonyFailure(error);
      }
      return await signIn.passkey({ response });
    },
    passkeyOptions: () => send(routes.passkeySignInOptions),
    passkey: (body) => send(routes.signInWithPasskey, { body }),
    async twoFactorWithPasskey(body, options = {}) {
      if (!webauthnAvailable()) return notSupported();
      const requested = await signIn.twoFactorPasskeyOptions(body);
      if (requested.error) return requested;
      let passkey;
      try {
        passkey = await getPasskey(requested.data, options);
      } catch (error) {
        return ceremonyFailure(error);
      }
      return await send(routes.signInWithSecondFactor, {
        body: { challenge: body.challenge, passkey },
      });
    },
    twoFactorPasskeyOptions: (body) => send(routes.twoFactorPasskeyOptions, { body }),
  };
  return { passkeys, signIn };
}
