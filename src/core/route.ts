import type { z } from "zod";

/** The HTTP methods a route can declare. HEAD is answered for every GET route. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler receives: validated path params, query and JSON body, and the raw request. */
export interface RouteContext<Params, Query, Body> {
  /** Path parameters, validated by the route's `params` schema. */
  params: Params;
  /** Query parameters (first value of each), validated by the route's `query` schema. */
  query: Query;
  /** The JSON body, validated by the route's `body` schema; `undefined` when none is declared. */
  body: Body;
  /** The incoming request (headers, cookies, URL). Its body has already been consumed. */
  request: Request;
  /**
   * The address of the connection's peer when the server passed it to the module's `fetch` (see
   * `socketAddress`); `null` for an in-process `module.fetch(request)` call. Behind a proxy this
   * is the proxy's address.
   */
  remoteAddress: string | null;
}

/** A handler returns a `Response`, a JSON value (sent with 200) or nothing (204). */
export type RouteResult = Response | unknown;

/**
 * The answers of a route by HTTP status, each the zod schema of its JSON body, or `null` for an
 * answer without a body (204). They document the route (`GET <mount>/openapi.json`) and type
 * clients; the handler's result is not checked against them at run time.
 */
export type RouteResponses = { readonly [status: number]: z.ZodType | null };

/**
 * The error codes a route answers by HTTP status (beyond the ones the core adds for every route:
 * see docs/openapi.md), e.g. `{ 404: ["NOT_FOUND"], 409: ["SLUG_TAKEN"] }`. Listed in the
 * OpenAPI document; list only codes the route really answers.
 */
export type RouteErrors = { readonly [status: number]: readonly string[] };

/** Who checks a route's input: see {@link RouteDefinition.input}. */
export type RouteInput = "validated" | "parsed" | "raw";

/** A route as declared by a module author. */
export interface RouteDefinition<Params, Query, Body> {
  /** The HTTP method. */
  method: HttpMethod;
  /** Path relative to the module's mount, with `:name` parameters, e.g. `/users/:id`. */
  path: string;
  /** Schema of the path parameters (all strings before validation). */
  params?: z.ZodType<Params>;
  /** Schema of the query parameters (all strings before validation). */
  query?: z.ZodType<Query>;
  /** Schema of the JSON body. Declaring it makes a JSON body required. */
  body?: z.ZodType<Body>;
  /** Schemas of the answers by status (e.g. `{ 200: user, 204: null }`): see {@link RouteResponses}. */
  responses?: RouteResponses;
  /** Error codes the route answers by status: see {@link RouteErrors}. */
  errors?: RouteErrors;
  /**
   * Names of the module's security schemes any one of which the route requires (see
   * `CreateModuleOptions.securitySchemes`); omitted or empty for a public route.
   */
  security?: readonly string[];
  /** One line on what the route does (the OpenAPI operation's summary). */
  summary?: string;
  /**
   * Who checks the request's input. `"validated"` (default): the core validates `params`, `query`
   * and `body` before the handler. `"parsed"`: the handler validates them itself, after a check
   * that must come first (a credential, an origin); the core frames the request (body limit, JSON
   * content type and syntax) and passes the raw values. `"raw"`: as `"parsed"`, and the core
   * does not read the body either (the handler reads `request`). The schemas document the route
   * in every case.
   */
  input?: RouteInput;
  /** Runs only after every declared schema has accepted the request. */
  handler: (context: RouteContext<Params, Query, Body>) => RouteResult | Promise<RouteResult>;
}

/** A route with its types erased, as a module stores it. */
export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly responses?: RouteResponses;
  readonly errors?: RouteErrors;
  readonly security?: readonly string[];
  readonly summary?: string;
  readonly input?: RouteInput;
  readonly handler: (context: RouteContext<unknown, unknown, unknown>) => unknown;
}

const PATH_PATTERN = /^(\/([A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*))*\/?$/;

/**
 * Declares a route. The types of `params`, `query` and `body` in the handler are inferred from
 * their zod schemas; validation always runs before the handler (never lazily).
 *
 * @example
 * ```ts
 * import { route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greet = route({
 *   method: "GET",
 *   path: "/hello/:name",
 *   params: z.object({ name: z.string().min(1) }),
 *   handler: ({ params }) => ({ message: `Hello, ${params.name}` }),
 * });
 * ```
 */
export function route<
  Params = Record<string, string>,
  Query = Record<string, string>,
  Body = undefined,
>(definition: RouteDefinition<Params, Query, Body>): Route {
  if (!PATH_PATTERN.test(definition.path) || !definition.path.startsWith("/")) {
    throw new TypeError(
      `Route path "${definition.path}" must start with "/" and contain only plain segments and :params`,
    );
  }
  return Object.freeze({ ...definition }) as Route;
}
