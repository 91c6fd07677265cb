/**
 * The auth module's HTTP contract as one type: for every route a client calls, the types of its
 * query, body (what a client sends) and answer. Each is a named type that the route's zod schema
 * is declared with through `exactSchema` (the body schemas in `credential_inputs.ts` and
 * `organizations/bodies.ts`, the answers in `responses.ts`: the very objects the routes declare,
 * which the OpenAPI document is generated from), so a schema cannot drift from its type. Types
 * only: the typed client (`src/client/`) is built on them with `import type`, so none of the
 * server's code reaches a browser bundle; `tests/client/auth_client_types.test.ts` checks them
 * against the schemas.
 *
 * @module
 */

import type { Route } from "../core/mod.ts";
import type { PageRequest } from "../pagination/mod.ts";
import type * as operations from "./operations.ts";
import type { AuthAcceptedInvitation } from "./organizations/responses.ts";

/**
 * The query of every list route (`pageSize`, `cursor`): the project's one page request.
 *
 * @example
 * ```ts
 * import type { AuthPageQuery } from "@app/fragment-cli/auth";
 *
 * const next: AuthPageQuery = { pageSize: 50, cursor: "eyJ2Ijox…" };
 * const query = new URLSearchParams({ pageSize: String(next.pageSize), cursor: next.cursor ?? "" });
 * const url = `/api/auth/organizations?${query}`;
 * ```
 */
export type AuthPageQuery = PageRequest;

/**
 * One route: what goes in (body, query) and what comes out (`null`: nothing, or a 204).
 *
 * @example
 * ```ts
 * import type { AuthContract, AuthRouteContract } from "@app/fragment-cli/auth";
 *
 * type Answer<R> = R extends AuthRouteContract<unknown, unknown, infer T> ? T : never;
 * type Me = Answer<AuthContract["me"]>; // AuthMe
 * ```
 */
export interface AuthRouteContract<Body, Query, Response> {
  /** The JSON body the route reads, `null` for none. */
  body: Body;
  /** The query string the route reads, `null` for none. */
  query: Query;
  /** The JSON answer, `null` for none (a 204). */
  response: Response;
}

/**
 * For every operation (by its name), the {@link AuthRouteContract} derived from its declaration:
 * the types of its body, query and answer.
 *
 * @example
 * ```ts
 * import type { AuthOperationContracts } from "@app/fragment-cli/auth";
 *
 * type MemberPage = AuthOperationContracts["listMembers"]["response"];
 * ```
 */
// The mapped types spell out their helpers inline and read the declared types through the
// declarations' type-level `types` member: a named helper, or the internal `AuthOperation`
// type, would make these public types reference private ones (deno doc --lint).
export type AuthOperationContracts = {
  [Name in keyof typeof operations]: (typeof operations)[Name] extends { readonly types?: infer T }
    ? AuthRouteContract<
      T extends { body: infer Body } ? Body : null,
      T extends { query: infer Query } ? Query extends null ? null : AuthPageQuery : null,
      T extends { response: infer Response } ? Response : never
    >
    : never;
};

/**
 * For every operation (by its name), its `authModule.api` method, as its declaration types it.
 *
 * @example
 * ```ts
 * import type { AuthOperationMethods } from "@app/fragment-cli/auth";
 *
 * type ListMembers = AuthOperationMethods["listMembers"]; // (actor, input) => Promise<page>
 * ```
 */
export type AuthOperationMethods = {
  [Name in keyof typeof operations]: (typeof operations)[Name] extends { readonly types?: infer T }
    ? T extends { api: infer Api } ? Api : never
    : never;
};

/**
 * The routes of the auth module a client calls, by operation, with their request and answer
 * types (the declared types of the routes' zod schemas): {@link AuthOperationContracts}, and
 * two more names for answers of one route (`session` for `getSession`, `acceptInvitation` for
 * `respondToInvitation` with `action: "accept"`).
 *
 * @example Type a hand-written call
 * ```ts
 * import type { AuthContract } from "@app/fragment-cli/auth";
 *
 * type SignUp = AuthContract["signUp"];
 * const body: SignUp["body"] = { email: "ada@example.com", password: "correct horse" };
 * const response = await fetch("/api/auth/sign-up", { method: "POST", body: JSON.stringify(body) });
 * const { token, user }: SignUp["response"] = await response.json();
 * ```
 */
export interface AuthContract extends AuthOperationContracts {
  /** `GET /session`: {@link AuthOperationContracts.getSession}. */
  session: AuthOperationContracts["getSession"];
  /** `PATCH /organizations/invitations/:invitationId` with `action: "accept"` */
  acceptInvitation: AuthRouteContract<
    AuthOperationContracts["respondToInvitation"]["body"],
    null,
    AuthAcceptedInvitation
  >;
  /** `PATCH /organizations/invitations/:invitationId` with `action: "reject"` or `"cancel"` */
  respondToInvitation: AuthRouteContract<
    AuthOperationContracts["respondToInvitation"]["body"],
    null,
    { invitation: AuthOperationContracts["respondToInvitation"]["response"]["invitation"] }
  >;
}

/**
 * For every operation (by its name), its route as `createModuleClient` reads it: the `Route` whose
 * types are the declaration's method and path (literals), `params`, `query` and `body`, its answer
 * (as a 200 schema's output, or a 204 for `null`) and its error codes: the declaration's `errors`,
 * the guard's (`UNAUTHENTICATED` and `CONFLICTING_CREDENTIALS` for a signed-in route,
 * `CSRF_REJECTED` for an unsafe method) and `SERVICE_UNAVAILABLE`.
 *
 * @example
 * ```ts
 * import type { AuthOperationRoutes } from "@app/fragment-cli/auth";
 *
 * type Path = NonNullable<AuthOperationRoutes["listMembers"]["types"]>["path"];
 * const path: Path = "/organizations/:organizationId/members";
 * ```
 */
// Spelled inline for the reason given above AuthOperationContracts; the error codes the guards add
// are those of `http/route_guards.ts` (CREDENTIAL_ERRORS, originErrors, DATABASE_ERRORS).
export type AuthOperationRoutes = {
  [Name in keyof typeof operations]: (typeof operations)[Name] extends {
    readonly guard: infer Guard;
    readonly types?: infer T;
  } ? T extends { method: infer Method; path: infer Path; response: infer Response } ? Route<{
        method: Method;
        path: Path;
        params: T extends { params: infer Params } ? Params : unknown;
        query: T extends { query: infer Query } ? Query : unknown;
        body: T extends { body: infer Body } ? Body : undefined;
        responses: [Response] extends [null] ? { readonly 204: null }
          : { readonly 200: { readonly _zod: { readonly output: Response } } };
        errors: {
          readonly [status: number]: readonly (
            | (T extends { errors: infer Code } ? Code : never)
            | (Guard extends "signedIn" ? "UNAUTHENTICATED" | "CONFLICTING_CREDENTIALS" : never)
            | (Method extends "GET" ? never : "CSRF_REJECTED")
            | "SERVICE_UNAVAILABLE"
          )[];
        };
      }>
    : never
    : never;
};

/**
 * A route of the auth module with its types (see {@link AuthOperationRoutes}): what the module's
 * instance type carries for `createModuleClient<AuthModule>` (or `<typeof auth>`), as the
 * messenger's carries `MessengerWebhookRoute`.
 *
 * @example Call the auth module through the generic client
 * ```ts
 * import { createModuleClient } from "@app/fragment-cli/client";
 * import type { AuthModule } from "@app/fragment-cli/auth";
 *
 * const client = createModuleClient<AuthModule>({ baseUrl: "/api/auth" });
 * const { data, error } = await client.request("GET /organizations/:organizationId", {
 *   params: { organizationId: "0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d" },
 * });
 * if (error?.code === "NOT_FOUND") console.log("not a member");
 * else if (data) console.log(data.organization.name);
 * ```
 */
export type AuthRoute = AuthOperationRoutes[keyof AuthOperationRoutes];
