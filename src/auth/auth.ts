/**
 * `auth()`: the auth module factory.
 *
 * @module
 */

import { createModule, type ModuleInstance } from "../core/mod.ts";
import { missingSecretWarning, processSecret } from "../runtime/secret.ts";
import { accountService } from "./account/account_service.ts";
import type { AuthApi } from "./api.ts";
import type { AuthRoute } from "./contract.ts";
import { createAuthApi } from "./create_api.ts";
import type { AuthServices } from "./http/operation.ts";
import { operationRoutes } from "./http/operation_routes.ts";
import { createAuthenticator } from "./sessions/authenticator.ts";
import { AUTH_SECURITY_SCHEMES, type AuthRouteDeps } from "./http/route_guards.ts";
import { meReader } from "./me/mod.ts";
import { createCredentialRateLimits } from "./abuse/credential_rate_limits.ts";
import { withCors } from "./http/cors.ts";
import { createRateLimiter } from "./abuse/rate_limiter.ts";
import { AUTH_MODULE_NAME, type AuthOptions, resolveAuthOptions } from "./options.ts";
import { organizationsFeature } from "./organizations/mod.ts";
import { authSchema } from "./schema.ts";
import { authTableNames } from "./tables.ts";
import { telegramService } from "./telegram/mod.ts";
import { emailLinkService } from "./email_link/mod.ts";
import { identityService, oauthService } from "./oauth/mod.ts";
import { passkeyService } from "./passkeys/mod.ts";
import { createSecretBox, twoFactorService } from "./two_factor/mod.ts";
import { createEmailVerification } from "./account/email_verification.ts";
import { verificationLinkOpener } from "./account/verification_link.ts";
import { durableHooks } from "../hooks/mod.ts";
import {
  accountEventHooks,
  accountLifecycle,
  createAccountEvents,
  emailLinkBuilder,
} from "./account/mod.ts";

/**
 * An instantiated auth module: a mountable module plus its server-side API. Its routes are typed
 * ({@link AuthRoute}): `createModuleClient<AuthModule>` of `@app/fragment-cli/client` calls any of
 * them by method and path, as the named `createAuthClient` does.
 *
 * @example Create an admin from a seed script
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter(".data/pglite");
 * await migrate(database, authSchema);
 * const module = auth({ database });
 * const admin = await module.api.createUser({
 *   email: "root@example.com",
 *   password: "correct horse",
 *   role: "admin",
 * });
 * ```
 *
 * @example Act for a user on the server, with the rules of the routes
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter();
 * await migrate(database, authSchema);
 * const module = auth({ database });
 * const admin = await module.api.createUser({ email: "root@example.com", password: "correct horse" });
 * const owner = { userId: admin.id };
 * const { organization } = await module.api.createOrganization(owner, { name: "Acme" });
 * await module.api.createInvitation(owner, { organizationId: organization.id, email: "grace@example.com" });
 * ```
 */
export interface AuthModule extends ModuleInstance<readonly AuthRoute[]> {
  /** Server-side operations for the embedding application. */
  readonly api: AuthApi;
}

let warnedMissingSecret = false;

/**
 * The key of the values the module signs: the deployment's secret, else this process's random
 * key, with one warning per process (not per instance: tests create hundreds).
 */
function signingSecret(secret: string | null): string {
  if (secret !== null) return secret;
  if (!warnedMissingSecret) {
    warnedMissingSecret = true;
    console.warn(missingSecretWarning(AUTH_MODULE_NAME));
  }
  return processSecret();
}

// Once per process: a test suite instantiates many modules.
let warnedRelativeLinks = false;
let warnedPrintedSignInLinks = false;

/**
 * Instantiates the auth module: users, credentials (cookie `service_auth` or Bearer token),
 * sessions, and the organizations API (unless `organizations: false`) over the given database.
 * Its schema ({@link authSchema}) must have been migrated (`fragment-cli serve` and
 * `fragment-cli db migrate` do it).
 *
 * @param options The database and the module's options; see {@link AuthOptions}.
 * @returns The module, mounted at `/api/auth` unless `mountRoute` says otherwise.
 *
 * @example Serve it on the embedded database
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 *
 * export const authModule = auth({ database: pgliteAdapter(".data/pglite") });
 * // POST /api/auth/sign-up {"email":"ada@example.com","password":"correct horse"}
 * ```
 */
export function auth(options: AuthOptions): AuthModule {
  const resolved = resolveAuthOptions(options);
  const db = resolved.database;
  const tables = authTableNames(resolved.namespace);
  const authenticator = createAuthenticator({
    db,
    tables,
    ttlSeconds: resolved.ttlSeconds,
    slidingRenewal: resolved.slidingRenewal,
  });
  const routeDeps: AuthRouteDeps = {
    authenticator,
    trustedOrigins: resolved.trustedOrigins,
    publicOrigin: resolved.publicOrigin,
  };
  // The account events ride on the organization events' worker (one per module), or on their
  // own when the organizations feature is off.
  const accountHooks = accountEventHooks(resolved.accountHooks);
  const organizations = resolved.organizations
    ? organizationsFeature({
      db,
      namespace: resolved.namespace,
      tables,
      options: resolved.organizations,
      secret: signingSecret(resolved.secret),
      extraHooks: accountHooks,
    })
    : null;
  const hooks = organizations?.notifications.hooks ??
    (Object.keys(accountHooks).length > 0
      ? durableHooks({ adapter: db, namespace: resolved.namespace, hooks: accountHooks })
      : null);
  const mountRoute = resolved.mountRoute ?? `/api/${AUTH_MODULE_NAME}`;
  const mailsOutside = !resolved.logsVerificationEmail;
  if (mailsOutside && resolved.publicOrigin === null && !warnedRelativeLinks) {
    warnedRelativeLinks = true;
    console.warn(
      "[auth] a mailer is set but publicOrigin is not: mailed links take the address serve() " +
        "listens at (or a localhost request's); set publicOrigin to the address users reach",
    );
  }
  if (mailsOutside && resolved.logsSignInEmail && !warnedPrintedSignInLinks) {
    // A printed sign-in link is a session for whoever reads the log: say so where mail is real.
    warnedPrintedSignInLinks = true;
    console.warn(
      "[auth] sendVerificationEmail is set but sendSignInEmail is not: the sign-in links of " +
        "POST /sign-in/email-link are printed to the console; set sendSignInEmail to mail them",
    );
  }
  const links = emailLinkBuilder({
    links: resolved.emailLinks,
    publicOrigin: resolved.publicOrigin,
    mountRoute,
  });
  const verification = createEmailVerification({
    db,
    tables,
    sendEmail: resolved.sendVerificationEmail,
    ttlSeconds: resolved.emailVerificationTtlSeconds,
    links,
  });
  const limits = createCredentialRateLimits({
    limiter: createRateLimiter({ db, tables }),
    rateLimit: resolved.rateLimit,
    trustProxy: resolved.trustProxy,
  });
  // The service layer: the routes below and `api` both call it.
  const accounts = accountService({
    db,
    tables,
    hasher: resolved.passwordHasher,
    ttlSeconds: resolved.ttlSeconds,
    verification,
    limits,
    onUserCreated: organizations?.onUserCreated,
  });
  const events = createAccountEvents(resolved.accountHooks, hooks);
  const permissions = organizations?.options.permissions ?? null;
  const telegram = resolved.telegram
    ? telegramService({
      db,
      tables,
      options: resolved.telegram,
      ttlSeconds: resolved.ttlSeconds,
      limits,
      events,
      permissions,
      signInProviders: [...(resolved.oauth?.providers.keys() ?? [])],
    })
    : null;
  const identities = resolved.oauth
    ? identityService({
      db,
      tables,
      ttlSeconds: resolved.ttlSeconds,
      events,
      onUserCreated: organizations?.onUserCreated,
      providers: [...resolved.oauth.providers.keys()],
    })
    : null;
  const oauth = resolved.oauth && identities
    ? oauthService({
      db,
      tables,
      options: resolved.oauth,
      mountRoute,
      limits,
      authenticator,
      identities,
      publicOrigin: resolved.publicOrigin,
      trustedOrigins: resolved.trustedOrigins,
    })
    : null;
  const emailLink = emailLinkService({
    db,
    tables,
    limits,
    links,
    sendSignInEmail: resolved.sendSignInEmail,
    signUp: resolved.emailLinkSignUp,
    ttlSeconds: resolved.ttlSeconds,
    origins: { publicOrigin: resolved.publicOrigin, trustedOrigins: resolved.trustedOrigins },
    onUserCreated: organizations?.onUserCreated,
    events,
  });
  const passkeys = passkeyService({
    db,
    tables,
    limits,
    origins: { publicOrigin: resolved.publicOrigin, trustedOrigins: resolved.trustedOrigins },
    ttlSeconds: resolved.ttlSeconds,
    events,
    signInProviders: [...(resolved.oauth?.providers.keys() ?? [])],
    organizationEvents: organizations?.notifications ?? null,
  });
  const twoFactor = twoFactorService({
    db,
    tables,
    hasher: resolved.passwordHasher,
    limits,
    events,
    // No warning here: the TOTP setup warns on its first use when no secret is configured.
    secretBox: createSecretBox(resolved.secret ?? processSecret(), "auth:totp:secret"),
    secretConfigured: resolved.secret !== null,
    issuer: resolved.twoFactor.issuer,
    ttlSeconds: resolved.ttlSeconds,
    origins: { publicOrigin: resolved.publicOrigin, trustedOrigins: resolved.trustedOrigins },
    organizationEvents: organizations?.notifications ?? null,
  });
  const me = meReader(db, tables, permissions, telegram !== null);
  const lifecycle = accountLifecycle({
    db,
    tables,
    hasher: resolved.passwordHasher,
    limits,
    links,
    sendPasswordResetEmail: resolved.sendPasswordResetEmail,
    sendEmailChangeEmail: resolved.sendEmailChangeEmail,
    passwordResetTtlSeconds: resolved.passwordResetTtlSeconds,
    emailChangeTtlSeconds: resolved.emailChangeTtlSeconds,
    events,
    organizationEvents: organizations?.notifications ?? null,
  });
  const instance = createModule({
    name: AUTH_MODULE_NAME,
    routes: operationRoutes({
      ...routeDeps,
      services: {
        accounts,
        me,
        organizations: organizations?.services as AuthServices["organizations"],
        lifecycle,
        verificationLink: verificationLinkOpener(accounts, links),
        telegram: telegram as AuthServices["telegram"],
        emailLink,
        oauth: oauth as AuthServices["oauth"],
        identities: identities as AuthServices["identities"],
        passkeys,
        twoFactor,
      },
      bodyOptions: organizations?.options ?? null,
      telegram: telegram !== null,
      oauth: oauth !== null,
    }),
    mountRoute: resolved.mountRoute,
    bodyLimit: resolved.bodyLimit,
    securitySchemes: AUTH_SECURITY_SCHEMES,
    database: { schema: authSchema, namespace: resolved.namespace, adapter: db },
    background: hooks ?? undefined,
    autoStart: resolved.autoStart,
  });
  const api = createAuthApi({
    db,
    tables,
    accounts,
    authenticator,
    me,
    hooks,
    organizations,
    lifecycle,
    links,
    telegram,
    emailLink,
    oauth,
    identities,
    passkeys,
    twoFactor,
  });
  // The trusted origins may read the answers too (CORS), not only send unsafe requests.
  return Object.freeze({
    ...instance,
    fetch: withCors(instance.fetch, resolved.trustedOrigins),
    api,
    servedAt: (url: string) => links.servedAt(url),
  });
}
