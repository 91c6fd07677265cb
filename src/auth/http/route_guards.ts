/**
 * Route builders of the auth module. Both check the origin of unsafe requests BEFORE they validate
 * the input: the core only frames the request (Host, body limit, JSON content type and syntax),
 * then `authedRoute` checks the credential (401) and, for cookie requests, the origin (403), and
 * `publicRoute` checks the origin of every unsafe request (403: login CSRF); only then are the
 * params, query and body schemas checked.
 *
 * @module
 */

import type { z } from "zod";
import {
  type HttpMethod,
  type OpenApiSecurityScheme,
  type Route,
  route,
  type RouteContext,
  type RouteResponses,
  validateRequestPart,
} from "../../core/mod.ts";
import { mergeRouteErrors } from "../../core/openapi.ts";
import type { RouteErrors } from "../../core/route.ts";
import type { AuthContext, Authenticator } from "../sessions/authenticator.ts";
import { AUTH_SESSION_COOKIE, sessionCookie } from "../sessions/cookies.ts";
import { checkRequestOrigin, deploymentOrigin, type OriginPolicy } from "./origin_check.ts";

/** What an authenticated handler receives. */
export interface AuthedRouteContext<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  request: Request;
  /** The socket's peer address, `null` when the server gave none (rate limits read it). */
  remoteAddress: string | null;
  /** The caller and their credential. */
  auth: AuthContext;
}

/** An authenticated route as the auth module declares it. */
export interface AuthedRouteDefinition<Params, Query, Body> {
  method: HttpMethod;
  path: string;
  params?: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  /** The answers' schemas by status (documented in `GET /openapi.json`). */
  responses: RouteResponses;
  /** The codes the handler answers by status, beyond the credential's and the origin's. */
  errors?: RouteErrors;
  summary?: string;
  /** The operation's name (its OpenAPI `operationId`). */
  name?: string;
  handler: (context: AuthedRouteContext<Params, Query, Body>) => unknown;
}

/** The security schemes of the auth module: the session cookie, or the same token as Bearer. */
export const AUTH_SECURITY_SCHEMES: { readonly [name: string]: OpenApiSecurityScheme } = Object
  .freeze({
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: AUTH_SESSION_COOKIE,
      description: "The session cookie set by sign-up and sign-in (HttpOnly, SameSite=Lax)",
    },
    bearerToken: {
      type: "http",
      scheme: "bearer",
      description: "The token of sign-up and sign-in, in `Authorization: Bearer <token>`",
    },
  });

/** Any one of the auth module's schemes authenticates a request. */
const AUTH_SECURITY: readonly string[] = Object.freeze(Object.keys(AUTH_SECURITY_SCHEMES));

const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a credential check answers (400 with both a cookie and a different Bearer token). */
const CREDENTIAL_ERRORS: RouteErrors = {
  400: ["CONFLICTING_CREDENTIALS"],
  401: ["UNAUTHENTICATED"],
  503: ["SERVICE_UNAVAILABLE"],
};

/** Every public route reads or writes the database. */
const DATABASE_ERRORS: RouteErrors = { 503: ["SERVICE_UNAVAILABLE"] };

/** The origin check refuses only unsafe methods. */
function originErrors(method: HttpMethod): RouteErrors {
  return UNSAFE_METHODS.has(method) ? { 403: ["CSRF_REJECTED"] } : {};
}

/** What every authenticated route needs from its module instance (its origin policy included). */
export interface AuthRouteDeps extends OriginPolicy {
  authenticator: Authenticator;
}

/** Turns a handler's result into a response that caches nowhere (it is someone's data). */
export function toResponse(result: unknown, status = 200): Response {
  const response = result instanceof Response
    ? result
    : result === undefined
    ? new Response(null, { status: 204 })
    : Response.json(result, { status });
  response.headers.set("cache-control", "no-store");
  return response;
}

/** A JSON response with a status other than 200 (201 unless told). */
export function created(body: unknown, status = 201): Response {
  return Response.json(body, { status });
}

/**
 * Declares a route that requires a credential: 401 without one, 403 `CSRF_REJECTED` for a
 * cookie-authenticated cross-origin unsafe request, then 400 for invalid input. A session renewed
 * by this request gets its cookie re-issued.
 */
export function authedRoute<
  Params = Record<string, string>,
  Query = Record<string, string>,
  Body = undefined,
>(deps: AuthRouteDeps, definition: AuthedRouteDefinition<Params, Query, Body>): Route {
  return route<unknown, unknown, unknown>({
    method: definition.method,
    path: definition.path,
    params: definition.params,
    query: definition.query,
    // The core reads the body (size limit, JSON syntax); the schemas are checked below, after auth.
    body: definition.body,
    input: "parsed",
    responses: definition.responses,
    errors: mergeRouteErrors(CREDENTIAL_ERRORS, originErrors(definition.method), definition.errors),
    security: AUTH_SECURITY,
    summary: definition.summary,
    name: definition.name,
    handler: async ({ params, query, body, request, remoteAddress }) => {
      const auth = await deps.authenticator.require(request);
      // A Bearer header cannot be attached by a cross-site page: only cookie requests are checked.
      if (auth.transport === "cookie") checkRequestOrigin(request, deps);
      const result = await definition.handler({
        params: validateRequestPart(definition.params, params, "params"),
        query: validateRequestPart(definition.query, query, "query"),
        body: validateRequestPart(definition.body, body, "body"),
        request,
        remoteAddress,
        auth,
      });
      const response = toResponse(result);
      const setsCookie = response.headers.has("set-cookie");
      if (auth.renewedUntil && auth.transport === "cookie" && !setsCookie) {
        response.headers.append(
          "set-cookie",
          sessionCookie(
            deploymentOrigin(request, deps.publicOrigin),
            auth.token,
            auth.renewedUntil,
          ),
        );
      }
      return response;
    },
  });
}

/**
 * Declares a route open to anonymous callers (sign-up, sign-in, verification): an unsafe request
 * from another origin is refused with 403 `CSRF_REJECTED` before its input is validated, whatever
 * credential it carries, so a hostile page cannot sign a victim in to the attacker's account.
 */
export function publicRoute<
  Params = Record<string, string>,
  Query = Record<string, string>,
  Body = undefined,
>(
  policy: OriginPolicy,
  definition: {
    method: HttpMethod;
    path: string;
    params?: z.ZodType<Params>;
    query?: z.ZodType<Query>;
    body?: z.ZodType<Body>;
    /** The answers' schemas by status (documented in `GET /openapi.json`). */
    responses: RouteResponses;
    /** The codes the handler answers by status, beyond the origin check's. */
    errors?: RouteErrors;
    summary?: string;
    /** The operation's name (its OpenAPI `operationId`). */
    name?: string;
    /** `remoteAddress` is the socket's peer; rate limits read the client address from it. */
    handler: (context: RouteContext<Params, Query, Body>) => unknown;
  },
): Route {
  return route<unknown, unknown, unknown>({
    method: definition.method,
    path: definition.path,
    params: definition.params,
    query: definition.query,
    // The core reads the body (content type, size limit, JSON syntax); checked below.
    body: definition.body,
    input: "parsed",
    responses: definition.responses,
    errors: mergeRouteErrors(originErrors(definition.method), DATABASE_ERRORS, definition.errors),
    summary: definition.summary,
    name: definition.name,
    handler: async ({ params, query, body, request, remoteAddress }) => {
      checkRequestOrigin(request, policy);
      return toResponse(
        await definition.handler({
          params: validateRequestPart(definition.params, params, "params"),
          query: validateRequestPart(definition.query, query, "query"),
          body: validateRequestPart(definition.body, body, "body"),
          request,
          remoteAddress,
        }),
      );
    },
  });
}
