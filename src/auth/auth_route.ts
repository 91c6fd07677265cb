/**
 * Route builders of the auth module. `authedRoute` authenticates BEFORE it validates the input,
 * so an anonymous caller learns nothing but 401, and a cross-site cookie request nothing but 403:
 * the core only frames the request (body limit, JSON syntax), then this wrapper checks the
 * credential, the origin, and only then the params, query and body schemas.
 *
 * @module
 */

import { z } from "zod";
import {
  type HttpMethod,
  type Route,
  route,
  type RouteContext,
  validateRequestPart,
} from "../core/mod.ts";
import type { AuthContext, Authenticator } from "./authenticator.ts";
import { sessionCookie } from "./cookies.ts";
import { checkSameOrigin } from "./credentials.ts";

/** What an authenticated handler receives. */
export interface AuthedRouteContext<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  request: Request;
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
  handler: (context: AuthedRouteContext<Params, Query, Body>) => unknown;
}

/** What every authenticated route needs from its module instance. */
export interface AuthRouteDeps {
  authenticator: Authenticator;
  trustedOrigins: ReadonlySet<string>;
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
  return route({
    method: definition.method,
    path: definition.path,
    // Declared so the core reads the body (size limit, JSON syntax); checked below, after auth.
    body: definition.body ? z.unknown() : undefined,
    handler: async ({ params, query, body, request }) => {
      const auth = await deps.authenticator.require(request);
      checkSameOrigin(request, auth.transport, deps.trustedOrigins);
      const result = await definition.handler({
        params: validateRequestPart(definition.params, params, "params"),
        query: validateRequestPart(definition.query, query, "query"),
        body: validateRequestPart(definition.body, body, "body"),
        request,
        auth,
      });
      const response = toResponse(result);
      const setsCookie = response.headers.has("set-cookie");
      if (auth.renewedUntil && auth.transport === "cookie" && !setsCookie) {
        response.headers.append(
          "set-cookie",
          sessionCookie(request, auth.token, auth.renewedUntil),
        );
      }
      return response;
    },
  });
}

/** Declares a route open to anonymous callers (sign-up, sign-in). */
export function publicRoute<
  Params = Record<string, string>,
  Query = Record<string, string>,
  Body = undefined,
>(
  definition: {
    method: HttpMethod;
    path: string;
    params?: z.ZodType<Params>;
    query?: z.ZodType<Query>;
    body?: z.ZodType<Body>;
    /** `remoteAddress` is the socket's peer; rate limits read the client address from it. */
    handler: (context: RouteContext<Params, Query, Body>) => unknown;
  },
): Route {
  return route<Params, Query, Body>({
    ...definition,
    handler: async (context) => toResponse(await definition.handler(context)),
  });
}
