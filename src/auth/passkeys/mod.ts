/**
 * Passkeys (WebAuthn): registering them, managing them, and signing in with one, on
 * `@simplewebauthn/server` (loaded on first use).
 *
 * @module
 */

export { type PasskeyService, passkeyService } from "./passkey_service.ts";
export {
  type AssertionCheck,
  type VerifiedAssertion,
  verifyPasskeyAssertion,
} from "./passkey_assertion.ts";
export {
  challengeOf,
  issueWebAuthnChallenge,
  takeWebAuthnChallenge,
  WEBAUTHN_CHALLENGE_TTL_SECONDS,
} from "./webauthn_challenges.ts";
export type { ChallengeBinding, WebAuthnPurpose } from "./webauthn_challenge_store.ts";
export { type RelyingParty, relyingParty, requireRelyingParty } from "./relying_party.ts";
export { userCredentialDescriptors } from "./passkey_store.ts";
export type {
  AuthAddPasskeyBody,
  AuthPasskey,
  AuthPasskeyAuthenticationResponse,
  AuthPasskeyCreationOptions,
  AuthPasskeyDescriptor,
  AuthPasskeyRegistrationResponse,
  AuthPasskeyRequestOptions,
  AuthPasskeySignInBody,
  AuthRenamePasskeyBody,
} from "./passkey_inputs.ts";
