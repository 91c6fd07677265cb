/**
 * Second factors: TOTP with recovery codes, the second step every sign-in of a user with a second
 * factor goes through, the answers and the options.
 *
 * @module
 */

export { type TwoFactorService, twoFactorService } from "./two_factor_service.ts";
export { createSecretBox, type SecretBox } from "./secret_box.ts";
export {
  type AuthTwoFactorOptions,
  type ResolvedTwoFactorOptions,
  resolveTwoFactorOptions,
} from "./two_factor_options.ts";
export type {
  AuthEmailLinkTwoFactorChallenge,
  AuthEnableTotpBody,
  AuthRecoveryCodes,
  AuthSignInResponse,
  AuthSignInTwoFactorBody,
  AuthTotpSetup,
  AuthTwoFactorChallenge,
  AuthTwoFactorCredential,
  AuthTwoFactorMethod,
  AuthTwoFactorPasskeyOptionsBody,
  AuthTwoFactorPasswordBody,
  AuthTwoFactorStatus,
} from "./two_factor_inputs.ts";
