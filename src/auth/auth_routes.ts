/**
 * The credential routes: sign-up, sign-in, sign-out, the current session and `GET /me`.
 *
 * @module
 */

import { z } from "zod";
import type { Route } from "../core/mod.ts";
import type { Accounts, IssuedCredential } from "./accounts.ts";
import type { AuthContext } from "./authenticator.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./auth_route.ts";
import { clearedSessionCookie, sessionCookie } from "./cookies.ts";
import { deploymentOrigin } from "./origin_check.ts";
import { isWellFormedText } from "./well_formed.ts";
import type { CredentialLimits } from "./credential_limits.ts";
import { emailSchema, MAX_EMAIL_LENGTH, normalizeEmail } from "./email.ts";
import type { EmailVerification } from "./email_verification.ts";
import { deleteSession } from "./sessions.ts";
import type { AuthTableNames } from "./tables.ts";
import type { SqlAdapter } from "../db/mod.ts";
import type { AuthUser } from "./users.ts";
import { exactSchema } from "./exact_schema.ts";
import type { InvitationEntry, OrganizationEntry } from "./organizations/resources.ts";
import {
  type CredentialResponse,
  credentialResponse,
  meResponse,
  sessionResponse,
} from "./responses.ts";

/** Shortest and longest accepted passwords, in characters (code points). */
export const PASSWORD_LENGTH = Object.freeze({ min: 8, max: 128 });

const WELL_FORMED_PASSWORD = "Must be well-formed Unicode (no unpaired surrogate code units)";

function passwordSchema(min: number): z.ZodType<string, string> {
  return z.string().superRefine((value, context) => {
    // UTF-8 turns every lone surrogate into U+FFFD before hashing: "a\uD800" and "a\uDC00"
    // would be one password.
    if (!isWellFormedText(value)) {
      context.addIssue({ code: "custom", message: WELL_FORMED_PASSWORD });
      return;
    }
    const length = [...value].length;
    if (length < min) {
      context.addIssue({ code: "custom", message: `Must be at least ${min} characters` });
    } else if (length > PASSWORD_LENGTH.max) {
      context.addIssue({
        code: "custom",
        message:
          `Must be at most ${PASSWORD_LENGTH.max} characters (longer passwords are refused, not truncated)`,
      });
    }
  });
}

/** The body of `POST /sign-up` and `POST /sign-in`. */
export interface CredentialsBody {
  email: string;
  password: string;
}

/** The body of `POST /sign-up`: a valid address, an 8–128 character well-formed password. */
export const signUpBody: z.ZodType<CredentialsBody, CredentialsBody> = exactSchema<
  CredentialsBody
>()(z.object({
  email: emailSchema,
  password: passwordSchema(PASSWORD_LENGTH.min),
}));

/**
 * The body of `POST /sign-in`. It does not re-validate the address format: any string is looked
 * up (and fails the same way), so the response never tells a malformed address from an unknown
 * one.
 */
export const signInBody: z.ZodType<CredentialsBody, CredentialsBody> = exactSchema<
  CredentialsBody
>()(z.object({
  email: z.string().max(MAX_EMAIL_LENGTH * 4).transform(normalizeEmail),
  password: passwordSchema(1),
}));

/** The shape of the `GET /me` answer (its schema is `meResponse` in responses.ts). */
export interface MePayload {
  user: AuthUser;
  /** At most 100 entries, the oldest first; `GET /organizations` pages them all. */
  organizations: OrganizationEntry[];
  /** Whether the user has more organizations than `organizations` lists. */
  organizationsHasMore: boolean;
  /** The credential's active organization, listed or not; `null` when none. */
  activeOrganization: OrganizationEntry | null;
  /** At most 100, the oldest first; `GET /organizations/invitations` pages them all. */
  invitations: InvitationEntry[];
  /** Whether there are more pending invitations than `invitations` lists. */
  invitationsHasMore: boolean;
}

/** What the credential routes need. */
export interface AuthRoutesDeps extends AuthRouteDeps {
  db: SqlAdapter;
  tables: AuthTableNames;
  accounts: Accounts;
  /** Mails the verification token after sign-up. */
  verification: EmailVerification;
  /** Rate limits and the hashing queue's bound around sign-up and sign-in. */
  limits: CredentialLimits;
  /**
   * The `/me` answer ({@link MePayload}) as JSON text: the organizations feature writes its
   * entries into it as read, without parsing them into objects first.
   */
  me: (auth: AuthContext) => Promise<string>;
}

function credentialAnswer(origin: string, issued: IssuedCredential): Response {
  const body: CredentialResponse = {
    token: issued.token,
    user: issued.user,
    expiresAt: issued.session.expiresAt.toISOString(),
  };
  const response = Response.json(body);
  response.headers.set(
    "set-cookie",
    sessionCookie(origin, issued.token, issued.session.expiresAt),
  );
  return response;
}

/** The credential routes of one module instance. */
export function authRoutes(deps: AuthRoutesDeps): Route[] {
  const { accounts } = deps;
  return [
    publicRoute(deps, {
      method: "POST",
      path: "/sign-up",
      summary: "Create an account and sign in (sets the service_auth cookie)",
      body: signUpBody,
      responses: { 200: credentialResponse },
      errors: { 409: ["EMAIL_TAKEN"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
      handler: async ({ body, request, remoteAddress }) => {
        const issued = await deps.limits.attempt({
          action: "sign-up",
          request,
          remoteAddress,
          email: body.email,
          countOnlyFailures: false,
          run: (key) => accounts.signUp(body.email, body.password, { key }),
        });
        await deps.verification.sendAfterSignUp(issued.user);
        return credentialAnswer(deploymentOrigin(request, deps.publicOrigin), issued);
      },
    }),
    publicRoute(deps, {
      method: "POST",
      path: "/sign-in",
      summary: "Sign in with email and password (sets the service_auth cookie)",
      body: signInBody,
      responses: { 200: credentialResponse },
      errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
      handler: async ({ body, request, remoteAddress }) => {
        const issued = await deps.limits.attempt({
          action: "sign-in",
          request,
          remoteAddress,
          email: body.email,
          countOnlyFailures: true,
          run: (key) => accounts.signIn(body.email, body.password, { key }),
        });
        return credentialAnswer(deploymentOrigin(request, deps.publicOrigin), issued);
      },
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/sign-out",
      summary: "End the session of the credential (clears the cookie)",
      responses: { 204: null },
      handler: async ({ auth, request }) => {
        await deleteSession(deps.db, deps.tables, auth.session.id);
        const response = new Response(null, { status: 204 });
        response.headers.set(
          "set-cookie",
          clearedSessionCookie(deploymentOrigin(request, deps.publicOrigin)),
        );
        return response;
      },
    }),
    authedRoute(deps, {
      method: "GET",
      path: "/session",
      summary: "The current session's user and expiry",
      responses: { 200: sessionResponse },
      handler: ({ auth }) => ({
        user: auth.user,
        expiresAt: auth.session.expiresAt.toISOString(),
      }),
    }),
    authedRoute(deps, {
      method: "GET",
      path: "/me",
      summary: "The user, their organizations, active organization and pending invitations",
      responses: { 200: meResponse },
      handler: async ({ auth }) =>
        new Response(await deps.me(auth), { headers: { "content-type": "application/json" } }),
    }),
  ];
}
