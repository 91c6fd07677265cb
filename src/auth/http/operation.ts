/**
 * The declaration of one auth operation: everything about it in one object, from which the
 * module derives its route (`http/operation_routes.ts`), its `authModule.api` method
 * (`http/operation_api.ts`), its `AuthContract` entry (`contract.ts`), its OpenAPI operation and
 * the typed client's call (`src/client/`). The declarations live beside their concept (e.g.
 * `organizations/member_operations.ts`) and are gathered by `operations.ts`; the name of the
 * exported constant is the operation's name: the `auth.api` method, the OpenAPI `operationId` and
 * the `AuthContract` key. See "Adding an operation" in docs/architecture.md.
 *
 * A declaration imports zod schemas and types only, never a service, a store or a driver: the
 * browser client bundles the declarations for their methods and paths.
 *
 * @module
 */

import type { z } from "zod";
import type { HttpMethod, RouteResponses } from "../../core/mod.ts";
import type { AuthErrorCode } from "../errors.ts";
import type { AccountService, ClientInfo } from "../account/account_service.ts";
import type { AccountLifecycle } from "../account/lifecycle.ts";
import type { VerificationLinkOpener } from "../account/verification_link.ts";
import type { Actor } from "../actor.ts";
import type { MeReader } from "../me/mod.ts";
import type { OrganizationsServices } from "../organizations/services.ts";
import type { TelegramService } from "../telegram/telegram_service.ts";
import type { EmailLinkService } from "../email_link/email_link_service.ts";
import type { IdentityService } from "../oauth/identity_service.ts";
import type { OAuthService } from "../oauth/oauth_service.ts";
import type { PasskeyService } from "../passkeys/passkey_service.ts";
import type { TwoFactorService } from "../two_factor/two_factor_service.ts";

/**
 * The types of one operation, given as the type argument of its {@link AuthOperation}: its route's
 * `method` and `path` as literals (the declaration's values must be these), what the route reads
 * (`params`, `query`, `body`: leave out what it does not read), what it answers (`response`,
 * `null` for a 204), the codes of its `errors` (`errors`), what the service call resolves to
 * (`result`, when it is not the answer itself) and the signature of its `authModule.api` method
 * (`api`). With its guard, they type the module's routes for `createModuleClient` (`AuthRoute`).
 */
export interface AuthOperationTypes {
  /** The HTTP method of its route. */
  method: HttpMethod;
  /** Its route's path inside the module's mount, with `:name` parameters. */
  path: string;
  /** The path parameters, parsed. */
  params?: unknown;
  /** The query parameters, parsed. */
  query?: unknown;
  /** The JSON body, parsed. */
  body?: unknown;
  /** The HTTP answer's JSON body, `null` for a 204. */
  response: unknown;
  /**
   * The codes its `errors` list, as a union: the typed clients' error codes for the route. A
   * code in `errors` missing here does not compile. Leave out for an operation without `errors`.
   */
  errors?: AuthErrorCode;
  /** What `call` resolves to. @default response */
  result?: unknown;
  /** `true` for an operation anyone may call (no credential). */
  anonymous?: true;
  /** The `authModule.api` method. */
  api: (...args: never[]) => Promise<unknown>;
}

type Part<T, K extends string> = T extends { [P in K]: infer V } ? V : unknown;

/** What `call` receives: the path parameters, the query and the body in one object. */
export type AuthOperationInput<T extends AuthOperationTypes> =
  & Part<T, "params">
  & Part<T, "query">
  & Part<T, "body">;

/** What `call` resolves to: `result` when declared, else `response`. */
export type AuthOperationResult<T extends AuthOperationTypes> = T extends { result: infer R } ? R
  : T["response"];

/** The services an operation calls (types only here: the module instance passes them). */
export interface AuthServices {
  /** Accounts, credentials and email verification. */
  accounts: AccountService;
  /** The `/me` answer as JSON text. */
  me: MeReader;
  /** The organizations feature (only operations with `feature: "organizations"` read it). */
  organizations: OrganizationsServices;
  /** The account lifecycle: password, sessions, address change, deletion. */
  lifecycle: AccountLifecycle;
  /** `GET /verify-email`: verifies a mailed link's token, names where the browser goes next. */
  verificationLink: VerificationLinkOpener;
  /** Telegram accounts (only operations with `feature: "telegram"` read it). */
  telegram: TelegramService;
  /** Passwordless sign-in by email link. */
  emailLink: EmailLinkService;
  /** The sign-in flow with providers (only operations with `feature: "oauth"` read it). */
  oauth: OAuthService;
  /** Connected provider accounts (only operations with `feature: "oauth"` read it). */
  identities: IdentityService;
  /** Passkeys: registering and managing them, signing in with one. */
  passkeys: PasskeyService;
  /** Second factors (TOTP, recovery codes) and the second step of a sign-in. */
  twoFactor: TwoFactorService;
}

/** The options body schemas may depend on (the organizations feature's configuration). */
export interface AuthBodyOptions {
  /** `organizations.roles`. */
  roles: readonly string[];
  /** `organizations.maxMetadataBytes`. */
  maxMetadataBytes: number;
}

/**
 * An optional part of the module: `organizations` (on by default), `telegram` and `oauth` (off
 * by default).
 */
export type AuthFeature = "organizations" | "telegram" | "oauth";

/** The features a module instance has. */
export interface EnabledFeatures {
  /** The options body schemas depend on; `null` with `organizations: false`. */
  bodyOptions: AuthBodyOptions | null;
  /** Whether `telegram` is configured. */
  telegram: boolean;
  /** Whether `oauth` is configured. */
  oauth: boolean;
}

/** Whether an operation's feature is enabled. */
export function featureEnabled(operation: AuthOperation, features: EnabledFeatures): boolean {
  if (operation.feature === "organizations") return features.bodyOptions !== null;
  if (operation.feature === "telegram") return features.telegram;
  if (operation.feature === "oauth") return features.oauth;
  return true;
}

/**
 * Who may call an operation: `"anonymous"`, anyone (its unsafe requests still pass the origin
 * check); `"signedIn"`, a credential's user (401 without one). Finer rules (organization member,
 * owner or admin) depend on the data and are the service's: they answer 404 or 403.
 */
export type AuthGuard = "anonymous" | "signedIn";

/** The codes of an operation's `errors` (any, for an operation whose types are erased). */
type CodesOf<T extends AuthOperationTypes> = AuthOperationTypes extends T ? string
  : T extends { errors: infer Code } ? Code
  : never;

/** The guard of an operation of types `T` (either, for an operation whose types are erased). */
type GuardOf<T extends AuthOperationTypes> = AuthOperationTypes extends T ? AuthGuard
  : T extends { anonymous: true } ? "anonymous"
  : "signedIn";

/**
 * One operation of the auth module. See the module's JSDoc, and docs/architecture.md for an
 * example.
 */
export interface AuthOperation<T extends AuthOperationTypes = AuthOperationTypes> {
  /** The HTTP method of its route: `T`'s `method`. */
  readonly method: T["method"];
  /** Its route's path inside the module's mount, with `:name` parameters: `T`'s `path`. */
  readonly path: T["path"];
  /** One line on what it does (OpenAPI `summary`). */
  readonly summary: string;
  /** Who may call it. */
  readonly guard: GuardOf<T>;
  /**
   * The feature it belongs to: absent from the routes and refused by `api` when disabled
   * (`organizations: false`; `telegram` or `oauth` unset).
   */
  readonly feature?: AuthFeature;
  /** The schema of the path parameters. */
  readonly params?: z.ZodType<Part<T, "params">>;
  /** The schema of the query parameters. */
  readonly query?: z.ZodType<Part<T, "query">>;
  /** The schema of the JSON body, or its factory when it depends on the options. */
  readonly body?:
    | z.ZodType<Part<T, "body">>
    | ((options: AuthBodyOptions) => z.ZodType<Part<T, "body">>);
  /** The answers' schemas by status (`null`: no body). */
  readonly responses: RouteResponses;
  /**
   * The codes it answers by status, beyond the guard's (credential, origin) and the core's; each
   * one of `T`'s `errors`.
   */
  readonly errors?: { readonly [status: number]: readonly CodesOf<T>[] };
  /**
   * The `service_auth` cookie the route sets (from the answer's `token`, `expiresAt`; none for a
   * sign-in that answers the challenge of its second step) or clears (answering 204 without a
   * result, the result's JSON with one).
   */
  readonly cookie?: "issue" | "clear";
  /** The service call, shared by the route and `api`. */
  readonly call: (
    services: AuthServices,
    input: AuthOperationInput<T>,
    actor: GuardOf<T> extends "anonymous" ? null : Actor,
    client: ClientInfo,
  ) => Promise<AuthOperationResult<T>> | AuthOperationResult<T>;
  /** What `api` returns from the call's result. @default the result itself */
  readonly api?: (result: AuthOperationResult<T>) => Awaited<ReturnType<T["api"]>>;
  /** What the route answers from the call's result (a body, or a `Response`). @default the result */
  readonly reply?: (result: AuthOperationResult<T>) => unknown;
  /**
   * Type level only, never set: the types it was declared with, which the public contract types
   * (`AuthOperationContracts`, `AuthOperationMethods`) read without naming this internal type.
   */
  readonly types?: T;
}

/** The types an operation was declared with. */
export type TypesOf<O> = O extends AuthOperation<infer T> ? T : never;
