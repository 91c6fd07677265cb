/**
 * The bodies and answers of the second-factor operations as zod schemas checked exactly against
 * their types: the routes parse and document them, `auth.api` parses its arguments with them, the
 * typed client takes its types from them.
 *
 * @module
 */

import { z } from "zod";
import { PASSWORD_LENGTH } from "../account/credential_inputs.ts";
import { credentialResponse, userResponse } from "../account/responses.ts";
import type { AuthCredentialResponse } from "../account/responses.ts";
import { exactSchema } from "../http/exact_schema.ts";
import {
  authenticationResponse,
  type AuthPasskeyAuthenticationResponse,
} from "../passkeys/passkey_inputs.ts";
import type { ResponseSchema } from "../http/responses.ts";

/**
 * A way to answer a sign-in's second step: `totp` (an authenticator app's code), `recoveryCode`
 * (one of the single-use codes shown when TOTP was enabled), `passkey`.
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorMethod } from "@app/fragment-cli/auth";
 *
 * const preferred: AuthTwoFactorMethod[] = ["passkey", "totp", "recoveryCode"];
 * ```
 */
export type AuthTwoFactorMethod = "totp" | "recoveryCode" | "passkey";

/**
 * The answer of a sign-in (password, Telegram) whose user has a second factor: no credential yet,
 * a challenge to answer with `POST /sign-in/two-factor` within 5 minutes.
 *
 * @example Branch on the answer of `POST /sign-in`
 * ```ts
 * import type { AuthSignInResponse } from "@app/fragment-cli/auth";
 *
 * function next(answer: AuthSignInResponse): string {
 *   if ("twoFactorRequired" in answer) return `ask for one of ${answer.methods.join(", ")}`;
 *   return `signed in as ${answer.user.email}`;
 * }
 * ```
 */
export interface AuthTwoFactorChallenge {
  /** Always `true`: tells this answer from a credential. */
  twoFactorRequired: true;
  /** The challenge (256 bits, base64url): give it back with the code. */
  challenge: string;
  /** How the user can answer: `totp`, `recoveryCode` (codes left), `passkey`. */
  methods: AuthTwoFactorMethod[];
}

const methodSchema = z.enum(["totp", "recoveryCode", "passkey"]);

const challengeFields = {
  twoFactorRequired: z.literal(true).describe("No credential was issued: answer the challenge"),
  challenge: z.string().describe("Give it back to POST /sign-in/two-factor (5 minutes, 5 tries)"),
  methods: z.array(methodSchema).describe("The ways the user can answer"),
};

/** The second-step answer of a sign-in. */
export const twoFactorChallengeResponse: ResponseSchema<AuthTwoFactorChallenge> = exactSchema<
  AuthTwoFactorChallenge
>()(z.object(challengeFields));

/**
 * The answer of `POST /sign-in` and `POST /telegram/sign-in`: the credential, or, for a user with
 * a second factor, the challenge of the second step (`twoFactorRequired: true`, no cookie).
 *
 * @example
 * ```ts
 * import type { AuthSignInResponse } from "@app/fragment-cli/auth";
 *
 * function tokenOf(answer: AuthSignInResponse): string | null {
 *   return "token" in answer ? answer.token : null;
 * }
 * ```
 */
export type AuthSignInResponse = AuthCredentialResponse | AuthTwoFactorChallenge;

/** The answer of `POST /sign-in` and `POST /telegram/sign-in`. */
export const signInResponse: ResponseSchema<AuthSignInResponse> = exactSchema<
  AuthSignInResponse
>()(z.union([credentialResponse, twoFactorChallengeResponse]));

/**
 * The second step of an email link's sign-in: the challenge, and the link's `redirectTo`.
 *
 * @example
 * ```ts
 * import type { AuthEmailLinkTwoFactorChallenge } from "@app/fragment-cli/auth";
 *
 * const pending: AuthEmailLinkTwoFactorChallenge = {
 *   twoFactorRequired: true,
 *   challenge: "kq3…",
 *   methods: ["totp", "recoveryCode"],
 *   redirectTo: "/invoices",
 * };
 * ```
 */
export interface AuthEmailLinkTwoFactorChallenge extends AuthTwoFactorChallenge {
  /** The checked `redirectTo` of the request that mailed the link, or `null` without one. */
  redirectTo: string | null;
}

/** The second step of an email link's sign-in. */
export const emailLinkTwoFactorResponse: ResponseSchema<AuthEmailLinkTwoFactorChallenge> =
  exactSchema<AuthEmailLinkTwoFactorChallenge>()(z.object({
    ...challengeFields,
    redirectTo: z.string().nullable().describe("The checked redirectTo of the link's request"),
  }));

/**
 * The body of `POST /sign-in/two-factor`: the challenge, and either the authenticator app's
 * `code` or a `recoveryCode`.
 *
 * @example
 * ```ts
 * import type { AuthSignInTwoFactorBody } from "@app/fragment-cli/auth";
 *
 * const withApp: AuthSignInTwoFactorBody = { challenge: "kq3…", code: "492039" };
 * const withRecovery: AuthSignInTwoFactorBody = { challenge: "kq3…", recoveryCode: "7hx2k-q9mzt" };
 * ```
 */
export type AuthSignInTwoFactorBody =
  | { challenge: string; code: string }
  | { challenge: string; recoveryCode: string }
  | { challenge: string; passkey: AuthPasskeyAuthenticationResponse };

/**
 * The body of `POST /sign-in/two-factor/passkey-options`: the challenge a passkey will answer.
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorPasskeyOptionsBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthTwoFactorPasskeyOptionsBody = { challenge: "kq3…" };
 * ```
 */
export interface AuthTwoFactorPasskeyOptionsBody {
  /** The challenge of the sign-in's `twoFactorRequired` answer. */
  challenge: string;
}

const challengeInput = z.string().max(512).describe("The challenge of the sign-in's answer");

/** The body of `POST /sign-in/two-factor`: exactly one of `code`, `recoveryCode` and `passkey`. */
export const signInTwoFactorBody: z.ZodType<AuthSignInTwoFactorBody, AuthSignInTwoFactorBody> =
  exactSchema<AuthSignInTwoFactorBody>()(z.union([
    z.strictObject({
      challenge: challengeInput,
      code: z.string().max(32).describe("The 6 digits the authenticator app shows"),
    }),
    z.strictObject({
      challenge: challengeInput,
      recoveryCode: z.string().max(64).describe("One of the recovery codes (single use)"),
    }),
    z.strictObject({
      challenge: challengeInput,
      passkey: authenticationResponse.describe(
        "`credential.toJSON()` of `navigator.credentials.get()` with the options of " +
          "`POST /sign-in/two-factor/passkey-options`",
      ),
    }),
  ]));

/** The body of `POST /sign-in/two-factor/passkey-options`. */
export const twoFactorPasskeyOptionsBody: z.ZodType<
  AuthTwoFactorPasskeyOptionsBody,
  AuthTwoFactorPasskeyOptionsBody
> = exactSchema<AuthTwoFactorPasskeyOptionsBody>()(z.strictObject({ challenge: challengeInput }));

/**
 * The answer of `POST /sign-in/two-factor`: the credential of `POST /sign-in` (the same
 * `service_auth` cookie is set), and where the app goes next when the sign-in started from an
 * email link or a provider.
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorCredential } from "@app/fragment-cli/auth";
 *
 * function next(answer: AuthTwoFactorCredential): string {
 *   return answer.redirectTo ?? "/";
 * }
 * ```
 */
export interface AuthTwoFactorCredential extends AuthCredentialResponse {
  /** The email link's or the provider flow's `redirectTo`; `null` for the other sign-ins. */
  redirectTo: string | null;
}

/** The answer of `POST /sign-in/two-factor`. */
export const twoFactorCredentialResponse: ResponseSchema<AuthTwoFactorCredential> = exactSchema<
  AuthTwoFactorCredential
>()(z.object({
  token: z.string().describe("Also set as the service_auth cookie; send as Authorization: Bearer"),
  user: userResponse,
  expiresAt: z.iso.datetime().describe("When the session expires (ISO 8601 UTC)"),
  redirectTo: z.string().nullable().describe("The email link's or the provider's redirectTo"),
}));

/**
 * The caller's second factors (`GET /two-factor`).
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorStatus } from "@app/fragment-cli/auth";
 *
 * function warning(status: AuthTwoFactorStatus): string | null {
 *   return status.totp && status.recoveryCodesLeft < 3 ? "Generate new recovery codes" : null;
 * }
 * ```
 */
export interface AuthTwoFactorStatus {
  /** Whether sign-ins ask for a second step (an enabled TOTP or a passkey). */
  enabled: boolean;
  /** Whether TOTP is enabled (a setup not yet confirmed does not count). */
  totp: boolean;
  /** How many unused recovery codes remain. */
  recoveryCodesLeft: number;
  /** How many passkeys the account has. */
  passkeys: number;
}

/** The answer of `GET /two-factor` and `POST /two-factor/disable`. */
export const twoFactorStatusResponse: ResponseSchema<AuthTwoFactorStatus> = exactSchema<
  AuthTwoFactorStatus
>()(z.object({
  enabled: z.boolean().describe("Whether sign-ins ask for a second step"),
  totp: z.boolean().describe("Whether TOTP is enabled"),
  recoveryCodesLeft: z.number().int().describe("Unused recovery codes"),
  passkeys: z.number().int().describe("The account's passkeys"),
}));

/**
 * The body of the routes that need the account's password again (`POST /two-factor/totp/setup`,
 * `/two-factor/recovery-codes`, `/two-factor/disable`).
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorPasswordBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthTwoFactorPasswordBody = { password: "correct horse battery" };
 * ```
 */
export interface AuthTwoFactorPasswordBody {
  /** The account's current password. */
  password: string;
}

/** The body of the routes that need the account's password again. */
export const twoFactorPasswordBody: z.ZodType<
  AuthTwoFactorPasswordBody,
  AuthTwoFactorPasswordBody
> = exactSchema<AuthTwoFactorPasswordBody>()(z.object({
  password: z.string().min(1).max(PASSWORD_LENGTH.max * 4).describe(
    "The account's current password",
  ),
}));

/**
 * The answer of `POST /two-factor/totp/setup`: the new secret (base32) for the authenticator app,
 * as text and as an `otpauth://` URL (show it as a QR code). Not active until
 * `POST /two-factor/totp/enable` confirms a code.
 *
 * @example
 * ```ts
 * import type { AuthTotpSetup } from "@app/fragment-cli/auth";
 *
 * function keyForHumans({ secret }: AuthTotpSetup): string {
 *   return secret.match(/.{1,4}/g)!.join(" ");
 * }
 * ```
 */
export interface AuthTotpSetup {
  /** The shared secret, base32 (160 bits): for typing into the app. */
  secret: string;
  /** `otpauth://totp/<issuer>:<email>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`. */
  otpauthUrl: string;
}

/** The answer of `POST /two-factor/totp/setup`. */
export const totpSetupResponse: ResponseSchema<AuthTotpSetup> = exactSchema<AuthTotpSetup>()(
  z.object({
    secret: z.string().describe("The shared secret in base32, for typing into the app"),
    otpauthUrl: z.string().describe("The otpauth:// URL, for a QR code"),
  }),
);

/**
 * The body of `POST /two-factor/totp/enable`: a code the authenticator app shows for the secret
 * of the setup.
 *
 * @example
 * ```ts
 * import type { AuthEnableTotpBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthEnableTotpBody = { code: "492039" };
 * ```
 */
export interface AuthEnableTotpBody {
  /** The 6 digits the app shows now. */
  code: string;
}

/** The body of `POST /two-factor/totp/enable`. */
export const enableTotpBody: z.ZodType<AuthEnableTotpBody, AuthEnableTotpBody> = exactSchema<
  AuthEnableTotpBody
>()(z.object({ code: z.string().max(32).describe("The 6 digits the authenticator app shows") }));

/**
 * New recovery codes (`POST /two-factor/totp/enable`, `POST /two-factor/recovery-codes`): 10
 * single-use codes, shown this once (only their SHA-256 is stored); the older ones are void.
 *
 * @example
 * ```ts
 * import type { AuthRecoveryCodes } from "@app/fragment-cli/auth";
 *
 * const printable = (answer: AuthRecoveryCodes) => answer.recoveryCodes.join("\n");
 * ```
 */
export interface AuthRecoveryCodes {
  /** 10 codes like `7hx2k-q9mzt`. */
  recoveryCodes: string[];
}

/** The answer carrying new recovery codes. */
export const recoveryCodesResponse: ResponseSchema<AuthRecoveryCodes> = exactSchema<
  AuthRecoveryCodes
>()(z.object({
  recoveryCodes: z.array(z.string()).describe("Single-use codes, shown this once"),
}));
