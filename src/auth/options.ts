/**
 * The options of the auth module and their validation at instantiation.
 *
 * @module
 */

import { ModuleConfigError } from "../core/mod.ts";
import { resolveNamespace, type SqlAdapter } from "../db/mod.ts";
import { type PasswordHasher, scryptPasswordHasher } from "./password_hasher.ts";
import {
  type AuthOrganizationsOptions,
  type ResolvedOrganizationsOptions,
  resolveOrganizationsOptions,
} from "./organizations/mod.ts";

/**
 * Options of `auth()`.
 *
 * @example
 * ```ts ignore
 * import { auth, postgresAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: postgresAdapter(process.env.DATABASE_URL!),
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
   * Origins besides the request's own that may send cookie-authenticated POST/PATCH/DELETE
   * requests (e.g. `"https://app.example.com"` for a front end on another origin).
   * @default []
   */
  trustedOrigins?: readonly string[];
  /**
   * How passwords are hashed. Replace it only to lower the cost in tests (or to observe it).
   * @default scryptPasswordHasher() (scrypt, N = 2^17, r = 8, p = 1)
   */
  passwordHasher?: PasswordHasher;
  /**
   * The organizations API: `false` mounts none of its routes (and `GET /me` answers empty
   * organization fields); an object configures it.
   * @default {} (enabled with the default roles owner, admin, member)
   */
  organizations?: false | AuthOrganizationsOptions;
}

/** The options after defaults and validation. */
export interface ResolvedAuthOptions {
  database: SqlAdapter;
  namespace: string;
  mountRoute: string | undefined;
  bodyLimit: number;
  ttlSeconds: number;
  slidingRenewal: boolean;
  trustedOrigins: ReadonlySet<string>;
  passwordHasher: PasswordHasher;
  organizations: ResolvedOrganizationsOptions | null;
}

/** The module name, also the default namespace and mount (`/api/auth`). */
export const AUTH_MODULE_NAME = "auth";

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
  const trusted = options.trustedOrigins ?? [];
  for (const origin of trusted) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      fail(`trustedOrigins: "${origin}" is not an origin like "https://app.example.com"`);
    }
  }
  const hasher = options.passwordHasher ?? scryptPasswordHasher();
  if (
    typeof hasher.hash !== "function" || typeof hasher.verify !== "function" ||
    typeof hasher.needsRehash !== "function" || typeof hasher.dummyHash !== "function"
  ) {
    fail("passwordHasher: expected hash, verify, needsRehash and dummyHash functions");
  }
  return {
    database: options.database,
    namespace,
    mountRoute: options.mountRoute,
    bodyLimit,
    ttlSeconds: days * 24 * 60 * 60,
    slidingRenewal: options.slidingRenewal ?? false,
    trustedOrigins: new Set(trusted),
    passwordHasher: hasher,
    organizations: resolveOrganizationsOptions(options.organizations),
  };
}
