/**
 * The options of the auth module and their validation at instantiation.
 *
 * @module
 */

import { ModuleConfigError } from "../core/mod.ts";
import { configuredSecret } from "../runtime/secret.ts";
import { isOrigin } from "../core/origin.ts";
import { resolveNamespace } from "../migrate/migration_plan.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import type { TrustProxy } from "../core/mod.ts";
import {
  type AuthTelegramOptions,
  type ResolvedTelegramOptions,
  resolveTelegramOptions,
} from "./telegram/telegram_options.ts";
import {
  type AuthOAuthOptions,
  type ResolvedOAuthOptions,
  resolveOAuthOptions,
} from "./oauth/oauth_options.ts";
import { allowedRedirect } from "./http/redirect_target.ts";
import { type PasswordHasher, scryptPasswordHasher } from "./sessions/password_hasher.ts";
import { logVerificationEmail, type SendVerificationEmail } from "./account/email_verification.ts";
import { logSignInEmail, type SendSignInEmail } from "./email_link/mod.ts";
import {
  type RateLimitOptions,
  type ResolvedRateLimit,
  resolveRateLimit,
  resolveTrustProxy,
} from "./abuse/rate_limit_options.ts";
import {
  ACCOUNT_EVENT_NAMES,
  type AccountEventHandlers,
  type EmailLinksOptions,
  logEmailChangeEmail,
  logPasswordResetEmail,
  type ResolvedEmailLinks,
  resolveEmailLinks,
  type SendEmailChangeEmail,
  type SendPasswordResetEmail,
} from "./account/mod.ts";
import {
  type AuthOrganizationsOptions,
  type ResolvedOrganizationsOptions,
  resolveOrganizationsOptions,
} from "./organizations/mod.ts";
import {
  type AuthTwoFactorOptions,
  type ResolvedTwoFactorOptions,
  resolveTwoFactorOptions,
} from "./two_factor/two_factor_options.ts";

/**
 * Options of `auth()`.
 *
 * @example
 * ```ts
 * import { auth, postgresAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: postgresAdapter("postgres://postgres@127.0.0.1:5432/app"),
 *   sessionTtlDays: 7,
 *   slidingRenewal: true,
 *   trustedOrigins: ["https://app.example.com"],
 * });
 * ```
 */
export interface AuthOptions {
  /** The database the module stores users and sessions in (PGlite or PostgreSQL adapter). */
  database: SqlAdapter;
  /** The Postgres schema holding the module's tables. @default "auth" */
  namespace?: string;
  /** Where the module is mounted. @default "/api/auth" */
  mountRoute?: string;
  /** Largest accepted request body in bytes. @default 65536 */
  bodyLimit?: number;
  /**
   * Start the delivery worker of the organization events with the module's first request;
   * `false` leaves it to `background.start()`, `serve()` or `background.drain()`. @default true
   */
  autoStart?: boolean;
  /** How long a credential lives, in days (fractions allowed). @default 30 */
  sessionTtlDays?: number;
  /**
   * Whether using a credential with less than half its lifetime left extends it to a full
   * `sessionTtlDays` again (the cookie is re-issued). Off by default: a credential then dies
   * `sessionTtlDays` after sign-in whatever happens, which bounds the use of a stolen token.
   * @default false
   */
  slidingRenewal?: boolean;
  /**
   * Origins besides the deployment's own (`publicOrigin`, or the request's own when that is unset)
   * that may send unsafe requests: cookie-authenticated POST/PUT/PATCH/DELETE and anonymous ones
   * such as sign-in (e.g. `"https://app.example.com"` for a front end on another origin).
   * @default []
   */
  trustedOrigins?: readonly string[];
  /**
   * How passwords are hashed. Replace it only to lower the cost in tests (or to observe it).
   * @default scryptPasswordHasher() (scrypt, N = 2^17, r = 8, p = 1)
   */
  passwordHasher?: PasswordHasher;
  /**
   * The deployment's secret: the key of every value the module signs (list cursors, …). Falls back
   * to the `FRAGMENT_SECRET` environment variable. At least 32 characters; keep it out of source
   * control and give every process of a deployment the same one.
   * @default process.env.FRAGMENT_SECRET
   */
  secret?: string;
  /**
   * The origin users reach the deployment at (e.g. `"https://app.example.com"`). When set, every
   * origin decision (the origin check of unsafe requests, `Secure` cookies, links in emails) uses
   * it instead of the request's `Host`, which a client or a proxy controls, and the request's own
   * origin is no longer trusted. Set it in production.
   * @default undefined (the request's own origin, for local development)
   */
  publicOrigin?: string;
  /**
   * Delivers the email verification mail (`{ user, email, token, url }`), at sign-up and on
   * `POST /verify-email/resend`; awaited, so queue slow mail. `url` is built from `publicOrigin`.
   * The default logs the link to the console, the only place the module prints a token: set it
   * in production.
   * @default logs the link with console.log
   */
  sendVerificationEmail?: SendVerificationEmail;
  /** How long a verification token works, in hours (fractions allowed). @default 24 */
  emailVerificationTtlHours?: number;
  /**
   * Where each kind of mailed link points (an SPA hosted elsewhere), and where
   * `GET /verify-email` redirects once done. Links are absolute: `publicOrigin`, else the address
   * `serve()` listens at. See {@link EmailLinksOptions}.
   * @default { verifyEmail: "<mountRoute>/verify-email", resetPassword: "/#reset-password", confirmEmailChange: "/#confirm-email", signIn: "/#sign-in-link", afterVerifyEmail: "/" }
   */
  emailLinks?: EmailLinksOptions;
  /**
   * Delivers the password reset mail (`{ user, email, token, url }`) of `POST /password/forgot`;
   * not awaited by the request (its answer must not tell whether the account exists), a failure
   * is logged. The default logs the link to the console: set it in production.
   * @default logs the link with console.log
   */
  sendPasswordResetEmail?: SendPasswordResetEmail;
  /** How long a password reset token works, in minutes. @default 60 */
  passwordResetTtlMinutes?: number;
  /**
   * Delivers the confirmation of `POST /email/change` to the NEW address
   * (`{ user, email, token, url }`); awaited. The default logs the link: set it in production.
   * @default logs the link with console.log
   */
  sendEmailChangeEmail?: SendEmailChangeEmail;
  /** How long an email change token works, in hours. @default 24 */
  emailChangeTtlHours?: number;
  /**
   * Delivers the sign-in link of `POST /sign-in/email-link` (`{ email, url, token, user }`);
   * called after the answer (which must not tell whether the address has an account), a failure
   * is logged. The default logs the link to the console: set it in production.
   * @default logs the link with console.log
   */
  sendSignInEmail?: SendSignInEmail;
  /**
   * Whether a sign-in link may go to an address without an account, creating the account (its
   * address verified, no password) when the link is used. Off: such an address gets no mail.
   * @default false
   */
  emailLinkSignUp?: boolean;
  /**
   * The account events (`passwordReset`, `passwordChanged`, `emailChanged`, `sessionRevoked`,
   * `accountDeleted`): handlers run after the change committed, with retries, by the module's
   * durable hooks (like `organizations.hooks`). See {@link AccountEventHandlers}.
   * @default {} (no event is recorded)
   */
  account?: { hooks?: AccountEventHandlers };
  /**
   * Rate limits of `POST /sign-in` and `/sign-up` (429 `RATE_LIMITED` with `Retry-After`), counted
   * in the database; `false` turns them off. See {@link RateLimitOptions} and docs/auth.md.
   * @default { window: 900, max: 100, perAccount: { window: 900, max: 10 } }
   */
  rateLimit?: false | RateLimitOptions;
  /**
   * Where the client address (of per-address rate limits) comes from: `false` for the socket's
   * peer, or the header your reverse proxy sets, e.g. `"x-forwarded-for"` (its left-most address).
   * Set it only behind a proxy that overwrites that header: clients can send it too.
   * @default false
   */
  trustProxy?: TrustProxy;
  /**
   * The organizations API: `false` mounts none of its routes (and `GET /me` answers empty
   * organization fields); an object configures it.
   * @default {} (enabled with the default roles owner, admin, member)
   */
  organizations?: false | AuthOrganizationsOptions;
  /**
   * Telegram accounts: users link their account to a Telegram user (`POST /telegram/link`, the
   * bot's `/start <token>`) and sign in from a Mini App or the Login Widget
   * (`POST /telegram/sign-in`). See {@link AuthTelegramOptions} and docs/telegram.md.
   * @default undefined (no Telegram routes)
   */
  telegram?: AuthTelegramOptions;
  /**
   * Sign-in with OpenID Connect and OAuth providers ("Continue with Google"), and connecting them
   * to an account (`GET /oauth/:provider/authorize`, `POST /oauth/:provider/link`,
   * `GET /identities`). See {@link AuthOAuthOptions} and docs/auth.md, "Sign-in methods".
   * @default undefined (no provider routes)
   */
  oauth?: AuthOAuthOptions;
  /**
   * Second factors: what authenticator apps show for the account (`issuer`). TOTP and recovery
   * codes are always available to users (`POST /two-factor/totp/setup`); their secrets are sealed
   * with `secret`. See {@link AuthTwoFactorOptions} and docs/auth.md, "Second factors and
   * passkeys".
   * @default { issuer: the host name of publicOrigin, else "fragment-cli" }
   */
  twoFactor?: AuthTwoFactorOptions;
}

/** The options after defaults and validation. */
export interface ResolvedAuthOptions {
  database: SqlAdapter;
  namespace: string;
  mountRoute: string | undefined;
  bodyLimit: number;
  autoStart: boolean;
  ttlSeconds: number;
  slidingRenewal: boolean;
  trustedOrigins: ReadonlySet<string>;
  /** `null` when neither the option nor `FRAGMENT_SECRET` gives one. */
  secret: string | null;
  publicOrigin: string | null;
  passwordHasher: PasswordHasher;
  sendVerificationEmail: SendVerificationEmail;
  /** Whether `sendVerificationEmail` is the console default. */
  logsVerificationEmail: boolean;
  emailVerificationTtlSeconds: number;
  emailLinks: ResolvedEmailLinks;
  sendPasswordResetEmail: SendPasswordResetEmail;
  passwordResetTtlSeconds: number;
  sendEmailChangeEmail: SendEmailChangeEmail;
  emailChangeTtlSeconds: number;
  sendSignInEmail: SendSignInEmail;
  /** Whether `sendSignInEmail` is the console default. */
  logsSignInEmail: boolean;
  emailLinkSignUp: boolean;
  accountHooks: AccountEventHandlers;
  /** `null` when `rateLimit: false`. */
  rateLimit: ResolvedRateLimit | null;
  trustProxy: TrustProxy;
  organizations: ResolvedOrganizationsOptions | null;
  /** `null` without the `telegram` option. */
  telegram: ResolvedTelegramOptions | null;
  /** `null` without the `oauth` option. */
  oauth: ResolvedOAuthOptions | null;
  twoFactor: ResolvedTwoFactorOptions;
}

/** The module name, also the default namespace and mount (`/api/auth`). */
export const AUTH_MODULE_NAME = "auth";

/** Whether `value` is exactly an origin (`scheme://host[:port]`, nothing more). */
function fail(details: string): never {
  throw new ModuleConfigError(AUTH_MODULE_NAME, details);
}

/** Applies defaults and validates; a bad option throws `ModuleConfigError` naming it. */
export function resolveAuthOptions(options: AuthOptions): ResolvedAuthOptions {
  if (typeof options !== "object" || options === null) fail("options: expected an object");
  const db = options.database as Partial<SqlAdapter> | undefined;
  if (!db || typeof db.query !== "function" || typeof db.transaction !== "function") {
    fail("database: expected a SQL adapter (pgliteAdapter(), postgresAdapter(url), …)");
  }
  let namespace: string;
  try {
    namespace = resolveNamespace({ name: AUTH_MODULE_NAME }, options.namespace);
  } catch (error) {
    fail(`namespace: ${(error as Error).message}`);
  }
  const days = options.sessionTtlDays ?? 30;
  if (typeof days !== "number" || !Number.isFinite(days) || days <= 0 || days > 3650) {
    fail(`sessionTtlDays: expected a number of days greater than 0 and at most 3650, got ${days}`);
  }
  const bodyLimit = options.bodyLimit ?? 64 * 1024;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1024) {
    fail(`bodyLimit: expected an integer of at least 1024 bytes, got ${bodyLimit}`);
  }
  const autoStart = options.autoStart ?? true;
  if (typeof autoStart !== "boolean") fail(`autoStart: expected a boolean, got ${autoStart}`);
  const trusted = options.trustedOrigins ?? [];
  for (const origin of trusted) {
    if (!isOrigin(origin)) {
      fail(`trustedOrigins: "${origin}" is not an origin like "https://app.example.com"`);
    }
  }
  const publicOrigin = options.publicOrigin ?? null;
  if (publicOrigin !== null && !isOrigin(publicOrigin)) {
    fail(`publicOrigin: "${publicOrigin}" is not an origin like "https://app.example.com"`);
  }
  let secret: string | null;
  try {
    secret = configuredSecret(options.secret);
  } catch (error) {
    fail(`secret: ${(error as Error).message}`);
  }
  const hasher = options.passwordHasher ?? scryptPasswordHasher();
  if (
    typeof hasher.hash !== "function" || typeof hasher.verify !== "function" ||
    typeof hasher.needsRehash !== "function" || typeof hasher.dummyHash !== "function"
  ) {
    fail("passwordHasher: expected hash, verify, needsRehash and dummyHash functions");
  }
  const send = options.sendVerificationEmail ?? logVerificationEmail;
  if (typeof send !== "function") fail("sendVerificationEmail: expected a function");
  const hours = options.emailVerificationTtlHours ?? 24;
  if (typeof hours !== "number" || !Number.isFinite(hours) || hours <= 0 || hours > 720) {
    fail(`emailVerificationTtlHours: expected a number of hours greater than 0 and at most 720`);
  }
  const sendReset = options.sendPasswordResetEmail ?? logPasswordResetEmail;
  if (typeof sendReset !== "function") fail("sendPasswordResetEmail: expected a function");
  const sendChange = options.sendEmailChangeEmail ?? logEmailChangeEmail;
  if (typeof sendChange !== "function") fail("sendEmailChangeEmail: expected a function");
  const resetMinutes = options.passwordResetTtlMinutes ?? 60;
  if (
    typeof resetMinutes !== "number" || !Number.isFinite(resetMinutes) || resetMinutes <= 0 ||
    resetMinutes > 1440
  ) {
    fail("passwordResetTtlMinutes: expected a number of minutes greater than 0 and at most 1440");
  }
  const changeHours = options.emailChangeTtlHours ?? 24;
  if (
    typeof changeHours !== "number" || !Number.isFinite(changeHours) || changeHours <= 0 ||
    changeHours > 720
  ) {
    fail("emailChangeTtlHours: expected a number of hours greater than 0 and at most 720");
  }
  const sendSignIn = options.sendSignInEmail ?? logSignInEmail;
  if (typeof sendSignIn !== "function") fail("sendSignInEmail: expected a function");
  const emailLinkSignUp = options.emailLinkSignUp ?? false;
  if (typeof emailLinkSignUp !== "boolean") fail("emailLinkSignUp: expected a boolean");
  const accountHooks = options.account?.hooks ?? {};
  if (typeof accountHooks !== "object" || accountHooks === null) {
    fail("account.hooks: expected an object of handlers");
  }
  for (const [name, handler] of Object.entries(accountHooks)) {
    if (!(ACCOUNT_EVENT_NAMES as readonly string[]).includes(name)) {
      fail(`account.hooks.${name}: unknown event (events: ${ACCOUNT_EVENT_NAMES.join(", ")})`);
    }
    if (typeof handler !== "function") fail(`account.hooks.${name}: expected a function`);
  }
  return {
    database: options.database,
    namespace,
    mountRoute: options.mountRoute,
    bodyLimit,
    autoStart,
    ttlSeconds: days * 24 * 60 * 60,
    slidingRenewal: options.slidingRenewal ?? false,
    trustedOrigins: new Set(trusted),
    secret,
    publicOrigin,
    passwordHasher: hasher,
    sendVerificationEmail: send,
    logsVerificationEmail: options.sendVerificationEmail === undefined,
    emailVerificationTtlSeconds: hours * 60 * 60,
    emailLinks: resolveEmailLinks(options.emailLinks),
    sendPasswordResetEmail: sendReset,
    passwordResetTtlSeconds: resetMinutes * 60,
    sendEmailChangeEmail: sendChange,
    emailChangeTtlSeconds: changeHours * 60 * 60,
    sendSignInEmail: sendSignIn,
    logsSignInEmail: options.sendSignInEmail === undefined,
    emailLinkSignUp,
    accountHooks,
    rateLimit: resolveRateLimit(options.rateLimit),
    trustProxy: resolveTrustProxy(options.trustProxy),
    organizations: resolveOrganizationsOptions(options.organizations),
    telegram: resolveTelegramOptions(options.telegram, fail),
    oauth: resolveOAuthOptions(
      options.oauth,
      fail,
      (target) =>
        allowedRedirect(target, { publicOrigin, trustedOrigins: new Set(trusted) }, null) !== null,
    ),
    twoFactor: resolveTwoFactorOptions(options.twoFactor, publicOrigin, fail),
  };
}
