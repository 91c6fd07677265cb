/**
 * The passkeys of one module instance: registering one for the signed-in user (options, then the
 * browser's response), listing, renaming and removing them, and the passwordless sign-in
 * (options for a discoverable credential, then the assertion). A passkey with user verification
 * is two factors in one (something held, verified by something known or biometric), so its
 * sign-in never asks for a second step. Adding or removing one keeps the user's second-factor
 * flag and records `passkeyAdded` / `passkeyRemoved`.
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import type { AccountEvents } from "../account/account_events.ts";
import { type ClientInfo, credentialBody, startSession } from "../account/account_service.ts";
import type { AuthCredentialResponse } from "../account/responses.ts";
import { findUserById, isUuid, publicUser } from "../account/user_store.ts";
import type { Actor } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import type { OriginPolicy } from "../http/origin_check.ts";
import { otherWaysIn } from "../oauth/identity_store.ts";
import { secretsEqual } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import { refreshSecondFactorFlag } from "../two_factor/factor_flag.ts";
import { recordSecondFactorLoss } from "../organizations/second_factor.ts";
import type { OrganizationEventSink } from "../account/lifecycle_context.ts";
import { verifyPasskeyAssertion } from "./passkey_assertion.ts";
import type {
  AuthAddPasskeyBody,
  AuthPasskey,
  AuthPasskeyCreationOptions,
  AuthPasskeyRequestOptions,
  AuthPasskeySignInBody,
  AuthRenamePasskeyBody,
} from "./passkey_inputs.ts";
import {
  deletePasskey,
  insertPasskey,
  listUserPasskeys,
  renamePasskey,
  userCredentialDescriptors,
} from "./passkey_store.ts";
import { type RelyingParty, requireRelyingParty } from "./relying_party.ts";
import {
  issueWebAuthnChallenge,
  takeWebAuthnChallenge,
  WEBAUTHN_CHALLENGE_TTL_SECONDS,
} from "./webauthn_challenges.ts";
import { SUPPORTED_ALGORITHMS, webauthnLibrary } from "./webauthn_library.ts";

/** The transports WebAuthn defines; others a browser reports are not kept. */
const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/** What the browser waits for a ceremony, in milliseconds: the challenge's lifetime. */
const CEREMONY_TIMEOUT_MS = WEBAUTHN_CHALLENGE_TTL_SECONDS * 1000;

/** The passkey operations of one module instance. */
export interface PasskeyService {
  /** Creation options for a new passkey of the actor (a registration challenge). */
  registrationOptions(actor: Actor, client: ClientInfo): Promise<AuthPasskeyCreationOptions>;
  /** Verifies the browser's registration response and stores the passkey. */
  add(actor: Actor, input: AuthAddPasskeyBody, client: ClientInfo): Promise<AuthPasskey>;
  /** The actor's passkeys, oldest first. */
  list(actor: Actor): Promise<{ passkeys: AuthPasskey[] }>;
  /** Renames one of the actor's passkeys. */
  rename(actor: Actor, input: { passkeyId: string } & AuthRenamePasskeyBody): Promise<AuthPasskey>;
  /** Removes one of the actor's passkeys (never the account's last way in). */
  remove(actor: Actor, input: { passkeyId: string }): Promise<void>;
  /** Request options for a passwordless sign-in (a sign-in challenge, any passkey of the site). */
  signInOptions(client: ClientInfo): Promise<AuthPasskeyRequestOptions>;
  /** Verifies an assertion and issues a credential to the passkey's account. */
  signIn(input: AuthPasskeySignInBody, client: ClientInfo): Promise<AuthCredentialResponse>;
}

/** What {@link passkeyService} needs. */
export interface PasskeyServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  limits: CredentialRateLimits;
  /** `publicOrigin` and `trustedOrigins`: where the relying party and its origins come from. */
  origins: OriginPolicy;
  /** The credential lifetime, in seconds. */
  ttlSeconds: number;
  /** `passkeyAdded`, `passkeyRemoved`. */
  events: AccountEvents;
  /** The configured providers: their identities are ways in (removing the last passkey). */
  signInProviders: readonly string[];
  /**
   * The organization events (`null` without organizations): removing the last factor records
   * `memberSecondFactorLost` in each organization of the user's that requires one.
   */
  organizationEvents: OrganizationEventSink | null;
}

/** A user id as a WebAuthn user handle: its UTF-8 (opaque, 36 bytes, no personal data). */
function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(userId);
}

/** Builds the passkey operations of one module instance. */
export function passkeyService(options: PasskeyServiceOptions): PasskeyService {
  const { db, tables, limits, events } = options;
  const relyingPartyOf = (client: ClientInfo): RelyingParty =>
    requireRelyingParty(options.origins, client.request);

  async function verifyRegistration(
    actor: Actor,
    body: AuthAddPasskeyBody,
    relyingParty: RelyingParty,
    challenge: string,
  ) {
    const library = await webauthnLibrary();
    const response = body.response;
    let verification: Awaited<ReturnType<typeof library.verifyRegistrationResponse>>;
    try {
      verification = await library.verifyRegistrationResponse({
        response: {
          ...response,
          response: { ...response.response, transports: undefined },
          authenticatorAttachment: undefined,
          clientExtensionResults: response.clientExtensionResults ?? {},
        },
        expectedChallenge: (answered) => secretsEqual(answered, challenge),
        expectedOrigin: relyingParty.origins,
        expectedRPID: relyingParty.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: [...SUPPORTED_ALGORITHMS],
      });
    } catch (error) {
      throw authError(
        "INVALID_PASSKEY_RESPONSE",
        `The passkey registration could not be verified: ${
          error instanceof Error ? error.message : "unreadable response"
        }`,
      );
    }
    const info = verification.verified ? verification.registrationInfo : null;
    // The id the browser names must be the one the authenticator signed into its data.
    if (info === null || info.credential.id !== response.id) {
      throw authError(
        "INVALID_PASSKEY_RESPONSE",
        "The passkey registration could not be verified: its credential id does not match",
      );
    }
    return {
      userId: actor.user.id,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: (response.response.transports ?? []).filter((t) => TRANSPORTS.has(t)),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name: body.name ?? null,
    };
  }

  return {
    registrationOptions({ user }, client) {
      return limits.attempt({
        action: "passkey-registration-options",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const relyingParty = relyingPartyOf(client);
          const library = await webauthnLibrary();
          const excluded = await userCredentialDescriptors(db, tables, user.id);
          const { bytes, challenge } = await issueWebAuthnChallenge(db, tables, {
            purpose: "registration",
            userId: user.id,
          });
          const generated = await library.generateRegistrationOptions({
            rpName: relyingParty.name,
            rpID: relyingParty.id,
            userName: user.email,
            userDisplayName: user.email,
            userID: userHandleOf(user.id),
            challenge: bytes,
            timeout: CEREMONY_TIMEOUT_MS,
            attestationType: "none",
            excludeCredentials: excluded.map(({ id, transports }) => ({ id, transports })),
            authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
            supportedAlgorithmIDs: [...SUPPORTED_ALGORITHMS],
          });
          return {
            challenge,
            rp: { id: relyingParty.id, name: relyingParty.name },
            user: generated.user,
            pubKeyCredParams: generated.pubKeyCredParams.map(({ alg }) => ({
              type: "public-key" as const,
              alg,
            })),
            timeout: CEREMONY_TIMEOUT_MS,
            excludeCredentials: excluded,
            authenticatorSelection: {
              residentKey: "preferred",
              requireResidentKey: false,
              userVerification: "required",
            },
            attestation: "none",
            extensions: { credProps: true },
          };
        },
      });
    },

    async add(actor, body, client) {
      const relyingParty = relyingPartyOf(client);
      const challenge = await takeWebAuthnChallenge(
        db,
        tables,
        body.response.response.clientDataJSON,
        {
          purpose: "registration",
          userId: actor.user.id,
        },
      );
      const verified = await verifyRegistration(actor, body, relyingParty, challenge);
      const passkey = await db.transaction(async (tx) => {
        const stored = await insertPasskey(tx, tables, verified);
        if (stored === null) {
          throw authError("PASSKEY_EXISTS", "This passkey is already registered");
        }
        const twoFactorEnabled = await refreshSecondFactorFlag(tx, tables, actor.user.id);
        await events.emit(tx, "passkeyAdded", {
          user: actor.user,
          passkey: { id: stored.id, name: stored.name, deviceType: stored.deviceType },
          twoFactorEnabled,
          at: stored.createdAt,
        });
        return stored;
      });
      events.wake();
      return passkey;
    },

    async list({ user }) {
      return { passkeys: await listUserPasskeys(db, tables, user.id) };
    },

    async rename({ user }, { passkeyId, name }) {
      const renamed = isUuid(passkeyId)
        ? await renamePasskey(db, tables, { userId: user.id, passkeyId, name })
        : null;
      if (renamed === null) throw notFound("Passkey");
      return renamed;
    },

    async remove({ user }, { passkeyId }) {
      if (!isUuid(passkeyId)) throw notFound("Passkey");
      await db.transaction(async (tx) => {
        // The user row is locked first: two removals at once see each other's outcome.
        const others = await otherWaysIn(tx, tables, user.id, null, options.signInProviders, {
          exceptPasskeyId: passkeyId,
        });
        const removed = await deletePasskey(tx, tables, { userId: user.id, passkeyId });
        if (removed === null) throw notFound("Passkey");
        if (others === 0) {
          throw authError(
            "LAST_SIGN_IN_METHOD",
            "This passkey is the account's last way in: set a password or add another way first",
          );
        }
        const twoFactorEnabled = await refreshSecondFactorFlag(tx, tables, user.id);
        if (!twoFactorEnabled) {
          await recordSecondFactorLoss(tx, tables, options.organizationEvents, user.id);
        }
        await events.emit(tx, "passkeyRemoved", {
          user,
          passkey: { id: removed.id, name: removed.name, deviceType: removed.deviceType },
          twoFactorEnabled,
          at: new Date().toISOString(),
        });
      });
      events.wake();
      options.organizationEvents?.wake();
    },

    // Anonymous, and each call stores a row: limited per client address.
    signInOptions(client) {
      return limits.attempt({
        action: "passkey-options",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const relyingParty = relyingPartyOf(client);
          const { challenge } = await issueWebAuthnChallenge(db, tables, {
            purpose: "sign-in",
            userId: null,
          });
          return {
            challenge,
            rpId: relyingParty.id,
            timeout: CEREMONY_TIMEOUT_MS,
            userVerification: "required",
            allowCredentials: [],
          };
        },
      });
    },

    signIn({ response }, client) {
      return limits.attempt({
        action: "passkey-sign-in",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const relyingParty = relyingPartyOf(client);
          // Consumed on its own (committed): a response that fails below has still used it.
          const challenge = await takeWebAuthnChallenge(
            db,
            tables,
            response.response.clientDataJSON,
            {
              purpose: "sign-in",
              userId: null,
            },
          );
          const userAgent = client.request?.headers.get("user-agent") ?? null;
          const issued = await db.transaction(async (tx) => {
            const verified = await verifyPasskeyAssertion(tx, tables, {
              response,
              challenge,
              relyingParty,
              userId: null,
            });
            const user = await findUserById(tx, tables, verified.userId);
            if (user === null) {
              throw authError("INVALID_PASSKEY", "The passkey could not be verified: no account");
            }
            // A passkey verified with user verification is both factors: no second step.
            return await startSession(tx, tables, {
              user: publicUser(user),
              ttlSeconds: options.ttlSeconds,
              activeOrganizationId: null,
              userAgent,
            });
          });
          return credentialBody(issued);
        },
      });
    },
  };
}
