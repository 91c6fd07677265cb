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

import type { PageRequest } from "../pagination/mod.ts";
import type { AuthOperation, AuthOperationTypes } from "./http/operation.ts";
import type * as operations from "./operations.ts";
import type { AuthAcceptedInvitation } from "./organizations/responses.ts";

/**
 * The query of every list route (`pageSize`, `cursor`): the project's one page request.
 *
 * @example
 * ```ts
 * import type { AuthPageQuery } from "@app/fragment-cli/auth";
 *
 * const next: AuthPageQuery = { pageSize: "50", cursor: "eyJ2Ijox…" };
 * const url = `/api/auth/organizations?${new URLSearchParams({ ...next })}`;
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

type Declared = typeof operations;
type TypesOf<O> = O extends AuthOperation<infer T extends AuthOperationTypes> ? T : never;
type PartOr<T, K extends string> = T extends { [P in K]: infer V } ? V : null;

/**
 * For every operation (by its name), the {@link AuthRouteContract} derived from its declaration:
 * the types of its body, query and answer.
 *
 * @example
 * ```ts
 * import type { PageRequest } from "../pagination/mod.ts";
import type { AuthOperationContracts } from "@app/fragment-cli/auth";
 *
 * type MemberPage = AuthOperationContracts["listMembers"]["response"];
 * ```
 */
export type AuthOperationContracts = {
  [Name in keyof Declared]: AuthRouteContract<
    PartOr<TypesOf<Declared[Name]>, "body">,
    PartOr<TypesOf<Declared[Name]>, "query"> extends null ? null : AuthPageQuery,
    TypesOf<Declared[Name]>["response"]
  >;
};

/**
 * For every operation (by its name), its `authModule.api` method, as its declaration types it.
 *
 * @example
 * ```ts
 * import type { PageRequest } from "../pagination/mod.ts";
import type { AuthOperationMethods } from "@app/fragment-cli/auth";
 *
 * type ListMembers = AuthOperationMethods["listMembers"]; // (actor, input) => Promise<page>
 * ```
 */
export type AuthOperationMethods = {
  [Name in keyof Declared]: TypesOf<Declared[Name]>["api"];
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
