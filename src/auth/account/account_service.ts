/**
 * The account operations of the auth service: creating users, issuing credentials (sign-up,
 * sign-in), ending them (sign-out), the current session and email verification. The HTTP routes
 * and `authModule.api` both call them, with inputs already parsed by the schemas of
 * `credential_inputs.ts`, and get the same limits (rate limits, the hashing queue's bound).
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../../sql/mod.ts";
import { type Actor, requireSession } from "../actor.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import type { AuthCredentialsBody, AuthVerifyEmailBody } from "./credential_inputs.ts";
import type { EmailVerification } from "./email_verification.ts";
import { authError } from "../errors.ts";
import { PasswordHasherBusyError } from "../abuse/hashing_queue.ts";
import type { AuthCredentialResponse } from "./responses.ts";
import type { HashRequestOptions, PasswordHasher } from "../sessions/password_hasher.ts";
import type { AuthSession } from "../sessions/session.ts";
import { deleteSession, insertSession } from "../sessions/session_store.ts";
import type { AuthTableNames } from "../tables.ts";
import { hashToken, newToken } from "../sessions/tokens.ts";
import type { AuthUser } from "./user.ts";
import { findUserByEmail, insertUser, publicUser, updatePasswordHash } from "./user_store.ts";
import {
  challengeBody,
  secondStepFor,
  type SecondStepRequired,
  type SignInContext,
} from "../two_factor/second_step.ts";
import type { AuthSignInResponse } from "../two_factor/two_factor_inputs.ts";

/**
 * Runs inside the transaction that creates a user (to create the user's first organization);
 * returns the organization the user's first credential should be active in, or `null`.
 */
export type UserCreatedHook = (tx: SqlTransaction, user: AuthUser) => Promise<string | null>;

/** A freshly issued credential. */
export interface IssuedCredential {
  /** The token, shown once: only its SHA-256 is stored. */
  token: string;
  user: AuthUser;
  session: AuthSession;
}

/**
 * Who is asking, for the per-address rate limits: the request (its forwarding header counts
 * under `trustProxy`) and the socket's peer; both `null` when unknown.
 */
export interface ClientInfo {
  request: Request | null;
  remoteAddress: string | null;
}

/** What the account operations need. */
export interface AccountServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  hasher: PasswordHasher;
  ttlSeconds: number;
  /** Mails the verification token after sign-up and on request. */
  verification: EmailVerification;
  /** Rate limits and the hashing queue's bound around the password and token checks. */
  limits: CredentialRateLimits;
  /** Called in the transaction of every user creation (sign-up and `api.createUser`). */
  onUserCreated?: UserCreatedHook;
}

/**
 * Starts a session for `user` and answers its credential: the token is shown once, only its
 * SHA-256 is stored. Only {@link issueCredential} (for a user without a second factor), sign-up
 * (a new user has none), a passkey sign-in (user verification makes it both factors) and the
 * second step itself (`two_factor/second_step_service.ts`) call it.
 */
export async function startSession(
  db: SqlAdapter | SqlTransaction,
  tables: AuthTableNames,
  input: {
    user: AuthUser;
    ttlSeconds: number;
    activeOrganizationId: string | null;
    userAgent: string | null;
  },
): Promise<IssuedCredential> {
  const token = newToken();
  const session = await insertSession(db, tables, {
    userId: input.user.id,
    tokenHash: hashToken(token),
    ttlSeconds: input.ttlSeconds,
    activeOrganizationId: input.activeOrganizationId,
    userAgent: input.userAgent,
  });
  return { token, user: input.user, session };
}

/**
 * What a sign-in ends in: a credential, or, for a user with a second factor, the challenge of the
 * second step (`"challenge" in outcome`) and no credential.
 */
export type SignInOutcome = IssuedCredential | SecondStepRequired;

/**
 * Ends a sign-in whose first step succeeded. Every sign-in path (password, email link, provider,
 * Telegram) ends here, in its transaction: a user with a second factor gets a challenge
 * (`POST /sign-in/two-factor`) instead of a session, whatever the path.
 */
export async function issueCredential(
  db: SqlAdapter | SqlTransaction,
  tables: AuthTableNames,
  input: SignInContext & { ttlSeconds: number },
): Promise<SignInOutcome> {
  return await secondStepFor(db, tables, input) ?? await startSession(db, tables, input);
}

/** The body of a credential answer (`token`, `user`, `expiresAt`): the routes' and `api`'s. */
export function credentialBody(issued: IssuedCredential): AuthCredentialResponse {
  return {
    token: issued.token,
    user: issued.user,
    expiresAt: issued.session.expiresAt.toISOString(),
  };
}

/** The body of a sign-in's answer: the credential, or the challenge of the second step. */
export function signInBody(outcome: SignInOutcome): AuthSignInResponse {
  return "challenge" in outcome ? challengeBody(outcome) : credentialBody(outcome);
}

/** A user to create on the server's say, already validated. */
export interface NewUser {
  email: string;
  password: string;
  role: string;
  emailVerified: boolean;
}

/** The account operations of one module instance. */
export interface AccountService {
  /** Creates a user without a credential (the server vouches for the input). */
  createUser(input: NewUser): Promise<AuthUser>;
  /** Creates a user and their first credential; mails the verification token. */
  signUp(input: AuthCredentialsBody, client: ClientInfo): Promise<AuthCredentialResponse>;
  /**
   * Checks the password (same hashing work for unknown emails) and issues a credential, or the
   * challenge of the second step for a user with a second factor.
   */
  signIn(input: AuthCredentialsBody, client: ClientInfo): Promise<AuthSignInResponse>;
  /** Ends the actor's credential. */
  signOut(actor: Actor): Promise<void>;
  /** The actor's user and the expiry of their credential. */
  session(actor: Actor): { user: AuthUser; expiresAt: string };
  /** Consumes a verification token; the user, now verified. */
  verifyEmail(input: AuthVerifyEmailBody, client: ClientInfo): Promise<{ user: AuthUser }>;
  /** Mails a fresh verification token to the actor (409 when already verified). */
  resendVerificationEmail(actor: Actor, client: ClientInfo): Promise<void>;
}

/** The User-Agent of the client's request, if any (listed by `GET /sessions`). */
function userAgentOf(client: ClientInfo): string | null {
  return client.request?.headers.get("user-agent") ?? null;
}

/** Builds the account operations of one module instance. */
export function accountService(options: AccountServiceOptions): AccountService {
  const { db, tables, hasher, ttlSeconds, onUserCreated, verification, limits } = options;

  /** Inserts a user, then lets the organizations feature create their first organization. */
  async function insertAccount(
    tx: SqlTransaction,
    input: { email: string; passwordHash: string; role: string; emailVerified?: boolean },
  ): Promise<{ user: AuthUser; activeOrganizationId: string | null }> {
    const user = publicUser(await insertUser(tx, tables, input));
    const activeOrganizationId = onUserCreated ? await onUserCreated(tx, user) : null;
    return { user, activeOrganizationId };
  }

  async function signUp(
    email: string,
    password: string,
    client: HashRequestOptions,
    userAgent: string | null,
  ) {
    hasher.refuseEarly?.(client);
    const passwordHash = await hasher.hash(password, client);
    return await db.transaction(async (tx) => {
      const created = await insertAccount(tx, { email, passwordHash, role: "user" });
      // A new user has no second factor: the session starts at once.
      return await startSession(tx, tables, {
        user: created.user,
        ttlSeconds,
        activeOrganizationId: created.activeOrganizationId,
        userAgent,
      });
    });
  }

  async function signIn(
    email: string,
    password: string,
    client: HashRequestOptions,
    userAgent: string | null,
  ) {
    hasher.refuseEarly?.(client); // before the lookup: a full queue refuses for free
    const record = await findUserByEmail(db, tables, email);
    // One hash computation on every path: an unknown email, or an account without a password
    // (created by an email link or a provider: its hash is ''), costs what a wrong password costs.
    const stored = record?.passwordHash || hasher.dummyHash();
    const valid = await hasher.verify(password, stored, client);
    if (!record || !valid) {
      throw authError("INVALID_CREDENTIALS", "Invalid email or password");
    }
    if (hasher.needsRehash(record.passwordHash)) {
      try {
        await updatePasswordHash(db, tables, record.id, await hasher.hash(password, client));
      } catch (error) {
        // The upgrade can wait for a quieter sign-in; the credential is valid now.
        if (!(error instanceof PasswordHasherBusyError)) throw error;
      }
    }
    return await issueCredential(db, tables, {
      user: publicUser(record),
      ttlSeconds,
      signInMethod: "password",
      activeOrganizationId: null,
      userAgent,
    });
  }

  return {
    async createUser(input) {
      const passwordHash = await hasher.hash(input.password);
      const created = await db.transaction((tx) =>
        insertAccount(tx, {
          email: input.email,
          passwordHash,
          role: input.role,
          emailVerified: input.emailVerified,
        })
      );
      return created.user;
    },
    async signUp({ email, password }, client) {
      const issued = await limits.attempt({
        action: "sign-up",
        ...client,
        email,
        countOnlyFailures: false,
        run: (key) => signUp(email, password, { key }, userAgentOf(client)),
      });
      await verification.sendAfterSignUp(issued.user, client.request);
      return credentialBody(issued);
    },
    async signIn({ email, password }, client) {
      return signInBody(
        await limits.attempt({
          action: "sign-in",
          ...client,
          email,
          countOnlyFailures: true,
          run: (key) => signIn(email, password, { key }, userAgentOf(client)),
        }),
      );
    },
    async signOut(actor) {
      await deleteSession(db, tables, requireSession(actor, "signOut").id);
    },
    session(actor) {
      const session = requireSession(actor, "session");
      return { user: actor.user, expiresAt: session.expiresAt.toISOString() };
    },
    // Anonymous: limited per client address (a token is 256 bits, but each guess costs a query).
    async verifyEmail({ token }, client) {
      return {
        user: await limits.attempt({
          action: "verify-email",
          ...client,
          email: null,
          countOnlyFailures: false,
          run: () => verification.verify(token),
        }),
      };
    },
    // Each call sends a mail: limited per address and per account, so nobody mail-bombs an inbox.
    async resendVerificationEmail({ user }, client) {
      if (user.emailVerified) {
        throw authError("EMAIL_ALREADY_VERIFIED", "The email address is already verified");
      }
      await limits.attempt({
        action: "verify-email-resend",
        ...client,
        email: user.email,
        countOnlyFailures: false,
        run: () => verification.send(user, client.request),
      });
    },
  };
}
