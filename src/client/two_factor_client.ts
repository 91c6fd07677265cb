/**
 * The second-factor calls of the typed client: `client.twoFactor` (the caller's factors, TOTP and
 * recovery codes) and `client.signIn` with its second step, `client.signIn.twoFactor`. Their
 * methods and paths come from the operation declarations, through the generated
 * `generated/client_routes.ts`.
 *
 * @module
 */

import type {
  AuthCredentialsBody,
  AuthEnableTotpBody,
  AuthRecoveryCodes,
  AuthSignInResponse,
  AuthSignInTwoFactorBody,
  AuthTotpSetup,
  AuthTwoFactorCredential,
  AuthTwoFactorPasswordBody,
  AuthTwoFactorStatus,
} from "../auth/mod.ts";
import type { AuthResult } from "./result.ts";
import type { AuthPasskeySignInClient } from "./passkey_client.ts";
import type { SendOperation } from "./account_client.ts";
import type * as Routes from "../../generated/client_routes.ts";

/**
 * `client.signIn`: `POST /sign-in`, whose `data` is the credential, or, for a user with a second
 * factor, the challenge (`twoFactorRequired: true`) that `client.signIn.twoFactor` answers.
 *
 * @example Sign in, with the second step when the account has one
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.signIn({ email: "ada@example.com", password: "correct horse" });
 * if (data && "twoFactorRequired" in data) {
 *   const code = "492039"; // what the user typed from the authenticator app
 *   const second = await client.signIn.twoFactor({ challenge: data.challenge, code });
 *   console.log(second.error?.code ?? second.data.user.email);
 * }
 * ```
 */
export interface AuthSignInClient extends AuthPasswordSignInClient, AuthPasskeySignInClient {}

/**
 * The password half of {@link AuthSignInClient}: the call itself and its second step.
 *
 * @example
 * ```ts
 * import { type AuthPasswordSignInClient, createAuthClient } from "@app/fragment-cli/client";
 *
 * const signIn: AuthPasswordSignInClient = createAuthClient({ baseUrl: "/api/auth" }).signIn;
 * const { data } = await signIn({ email: "ada@example.com", password: "correct horse" });
 * console.log(data && "twoFactorRequired" in data ? data.methods : data?.user.email);
 * ```
 */
export interface AuthPasswordSignInClient {
  /** `POST /sign-in`: the credential (sets the cookie), or the second step's challenge. */
  (body: AuthCredentialsBody): Promise<AuthResult<AuthSignInResponse>>;
  /**
   * `POST /sign-in/two-factor` with the challenge and a TOTP `code` or a `recoveryCode`: the
   * credential (sets the cookie), with the first step's `redirectTo`.
   */
  twoFactor(body: AuthSignInTwoFactorBody): Promise<AuthResult<AuthTwoFactorCredential>>;
}

/**
 * The caller's second factors: `client.twoFactor`.
 *
 * @example Turn TOTP on from the account page
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const setup = await client.twoFactor.setupTotp({ password: "correct horse" });
 * if (setup.data) {
 *   console.log(`Scan ${setup.data.otpauthUrl} or type ${setup.data.secret}`);
 *   const enabled = await client.twoFactor.enableTotp({ code: "492039" });
 *   if (enabled.data) console.log("Keep these:", enabled.data.recoveryCodes.join(" "));
 * }
 * ```
 */
export interface AuthTwoFactorClient {
  /** `GET /two-factor`: `{ enabled, totp, recoveryCodesLeft, passkeys }`. */
  status(): Promise<AuthResult<AuthTwoFactorStatus>>;
  /** `POST /two-factor/totp/setup`: a new secret and its `otpauth://` URL (not active yet). */
  setupTotp(body: AuthTwoFactorPasswordBody): Promise<AuthResult<AuthTotpSetup>>;
  /** `POST /two-factor/totp/enable` with a code of the new secret: the recovery codes, once. */
  enableTotp(body: AuthEnableTotpBody): Promise<AuthResult<AuthRecoveryCodes>>;
  /** `POST /two-factor/recovery-codes`: new codes; the older ones stop working. */
  regenerateRecoveryCodes(body: AuthTwoFactorPasswordBody): Promise<AuthResult<AuthRecoveryCodes>>;
  /** `POST /two-factor/disable`: removes TOTP and the recovery codes; the factors left. */
  disable(body: AuthTwoFactorPasswordBody): Promise<AuthResult<AuthTwoFactorStatus>>;
}

/**
 * The second-factor calls of the client, over `send` and the operations' routes.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.twoFactor.status();
 * console.log(data?.enabled);
 * ```
 */
export function twoFactorCalls(send: SendOperation, routes: typeof Routes): {
  signIn: AuthPasswordSignInClient;
  twoFactor: AuthTwoFactorClient;
} {
  const signIn = (body: AuthCredentialsBody) => send(routes.signIn, { body });
  return {
    signIn: Object.assign(signIn, {
      twoFactor: (body: AuthSignInTwoFactorBody) => send(routes.signInWithSecondFactor, { body }),
    }),
    twoFactor: {
      status: () => send(routes.twoFactorStatus),
      setupTotp: (body) => send(routes.setupTotp, { body }),
      enableTotp: (body) => send(routes.enableTotp, { body }),
      regenerateRecoveryCodes: (body) => send(routes.regenerateRecoveryCodes, { body }),
      disable: (body) => send(routes.disableTwoFactor, { body }),
    },
  };
}
