import type { ZodSchema } from "./zod_schema.ts";

/**
 * The HTTP methods a route can declare. HEAD is answered for every GET route.
 *
 * @example
 * ```ts
 * import type { HttpMethod } from "@app/fragment-cli";
 *
 * const method: HttpMethod = "POST";
 * ```
 */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What a handler receives: validated path params, query and JSON body, and the raw request.
 *
 * @example A handler written apart from its route
 * ```ts
 * import { type RouteContext, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * function greet({ params }: RouteContext<{ name: string }, unknown, undefined>) {
 *   return { message: `Hello, ${params.name}` };
 * }
 * const hello = route({
 *   method: "GET",
 *   path: "/hello/:name",
 *   params: z.object({ name: z.string() }),
 *   handler: greet,
 * });
 * ```
 */
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

/**
 * The answers of a route by HTTP status, each the zod schema of its JSON body, or `null` for an
 * answer without a body (204). They document the route (`GET <mount>/openapi.json`) and type
 * clients; the handler's result is not checked against them at run time.
 *
 * @example
 * ```ts
 * import type { RouteResponses } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const responses: RouteResponses = { 200: z.object({ id: z.string() }), 204: null };
 * ```
 */
export type RouteResponses = { readonly [status: number]: ZodSchema | null };

/**
 * The error codes of a route by HTTP status: the type of {@link RouteDefinition.errors}, named for
 * the code that builds and merges them (the core, `auth`).
 */
export type RouteErrors = { readonly [status: number]: readonly string[] };

/** Who checks a route's input: the type of {@link RouteDefinition.input}. */
export type RouteInput = "validated" | "parsed" | "raw";

/**
 * A route as declared by a module author: what {@link route} takes.
 *
 * @example A definition kept in a variable, typed by its params, query and body
 * ```ts
 * import { route, type RouteDefinition } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const definition: RouteDefinition<{ id: string }, unknown, undefined> = {
 *   method: "GET",
 *   path: "/notes/:id",
 *   params: z.object({ id: z.string() }),
 *   responses: { 200: z.object({ id: z.string() }) },
 *   errors: { 404: ["NOT_FOUND"] },
 *   handler: ({ params }) => ({ id: params.id }),
 * };
 * const getNote = route(definition);
 * ```
 */
export interface RouteDefinition<Params, Query, Body> {
  /** The HTTP method. */
  method: HttpMethod;
  /** Path relative to the module's mount, with `:name` parameters, e.g. `/users/:id`. */
  path: string;
  /** Schema of the path parameters (all strings before validation). */
  params?: ZodSchema<Params>;
  /** Schema of the query parameters (all strings before validation). */
  query?: ZodSchema<Query>;
  /** Schema of the JSON body. Declaring it makes a JSON body required. */
  body?: ZodSchema<Body>;
  /** Schemas of the answers by status (e.g. `{ 200: user, 204: null }`): see {@link RouteResponses}. */
  responses?: RouteResponses;
  /**
   * The error codes the route answers by HTTP status (beyond the ones the core adds for every
   * route: see docs/openapi.md), e.g. `{ 404: ["NOT_FOUND"], 409: ["SLUG_TAKEN"] }`. Listed in the
   * OpenAPI document; list only codes the route really answers.
   */
  errors?: { readonly [status: number]: readonly string[] };
  /**
   * Names of the module's security schemes any one of which the route requires (see
   * `CreateModuleOptions.securitySchemes`); omitted or empty for a public route.
   */
  security?: readonly string[];
  /** One line on what the route does (the OpenAPI operation's summary). */
  summary?: string;
  /**
   * The operation's name: its OpenAPI `operationId` (e.g. `listMembers`). Without it, the id is
   * derived from the method and path (`getNotesById`).
   */
  name?: string;
  /**
   * Who checks the request's input. `"validated"` (default): the core validates `params`, `query`
   * and `body` before the handler. `"parsed"`: the handler validates them itself, after a check
   * that must come first (a credential, an origin); the core frames the request (body limit, JSON
   * content type and syntax) and passes the raw values. `"raw"`: as `"parsed"`, and the core
   * does not read the body either (the handler reads `request`). The schemas document the route
   * in every case.
   */
  input?: "validated" | "parsed" | "raw";
  /**
   * Runs only after every declared schema has accepted the request. It returns (or resolves to)
   * a `Response`, a JSON value (sent with 200) or nothing (204).
   */
  handler: (context: RouteContext<Params, Query, Body>) => unknown;
}

/**
 * A route with its types erased, as {@link route} returns it and a module stores it: the
 * {@link RouteDefinition} it was declared with, frozen.
 *
 * @example A module's routes built apart
 * ```ts
 * import { createModule, type Route, route } from "@app/fragment-cli";
 *
 * function healthRoutes(): Route[] {
 *   return [route({ method: "GET", path: "/health", handler: () => ({ ok: true }) })];
 * }
 * const health = createModule({ name: "health", routes: healthRoutes() });
 * ```
 */
export interface Route {
  /** See {@link RouteDefinition.method}. */
  readonly method: HttpMethod;
  /** See {@link RouteDefinition.path}. */
  readonly path: string;
  /** See {@link RouteDefinition.params}. */
  readonly params?: ZodSchema;
  /** See {@link RouteDefinition.query}. */
  readonly query?: ZodSchema;
  /** See {@link RouteDefinition.body}. */
  readonly body?: ZodSchema;
  /** See {@link RouteDefinition.responses}. */
  readonly responses?: RouteResponses;
  /** See {@link RouteDefinition.errors}. */
  readonly errors?: { readonly [status: number]: readonly string[] };
  /** See {@link RouteDefinition.security}. */
  readonly security?: readonly string[];
  /** See {@link RouteDefinition.summary}. */
  readonly summary?: string;
  /** See {@link RouteDefinition.name}. */
  readonly name?: string;
  /** See {@link RouteDefinition.input}. */
  readonly input?: "validated" | "parsed" | "raw";
  /** See {@link RouteDefinition.handler}. */
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
