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
 * A route as declared by a module author: what {@link route} takes. `Params`, `Query` and `Body`
 * are what the handler receives; the other type parameters (the method and path as literals, what
 * the schemas accept, the responses and the error codes) are inferred by {@link route}, which keeps
 * them in the route's type for typed clients. Written by hand, the first three are enough.
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
export interface RouteDefinition<
  Params,
  Query,
  Body,
  Method extends HttpMethod = HttpMethod,
  Path extends string = string,
  ParamsInput = unknown,
  QueryInput = unknown,
  BodyInput = unknown,
  Responses extends RouteResponses = RouteResponses,
  // Written out: RouteErrors is not public (deno doc --lint refuses a public type naming it).
  Errors extends { readonly [status: number]: readonly string[] } = {
    readonly [status: number]: readonly string[];
  },
> {
  /** The HTTP method. */
  method: Method;
  /** Path relative to the module's mount, with `:name` parameters, e.g. `/users/:id`. */
  path: Path;
  /** Schema of the path parameters (all strings before validation). */
  params?: ZodSchema<Params, ParamsInput>;
  /** Schema of the query parameters (all strings before validation). */
  query?: ZodSchema<Query, QueryInput>;
  /** Schema of the JSON body. Declaring it makes a JSON body required. */
  body?: ZodSchema<Body, BodyInput>;
  /** Schemas of the answers by status (e.g. `{ 200: user, 204: null }`): see {@link RouteResponses}. */
  responses?: Responses;
  /**
   * The error codes the route answers by HTTP status (beyond the ones the core adds for every
   * route: see docs/openapi.md), e.g. `{ 404: ["NOT_FOUND"], 409: ["SLUG_TAKEN"] }`. Listed in the
   * OpenAPI document; list only codes the route really answers.
   */
  errors?: Errors;
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
 * A route as {@link route} returns it and a module stores it: the {@link RouteDefinition} it was
 * declared with, frozen. The handler's types are erased; what a client of the route needs is kept
 * in `Types`, at the type level only: the method and path as literals, the types its `params`,
 * `query` and `body` schemas accept (`z.input`), its `responses` schemas and its `errors` codes.
 * `createModuleClient` (`@app/fragment-cli/client`) reads them; a plain `Route` (`Types` unknown)
 * holds any route.
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
export interface Route<Types = unknown> {
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
  /**
   * Type level only, never set: what the route was declared with (see {@link route}'s return
   * type), for typed clients.
   */
  readonly types?: Types;
}

const PATH_PATTERN = /^(\/([A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*))*\/?$/;

/**
 * Declares a route. The types of `params`, `query` and `body` in the handler are inferred from
 * their zod schemas; validation always runs before the handler (never lazily). The returned
 * route's type keeps the declaration a client needs (the method and path, what the schemas accept,
 * `responses`, `errors`): `createModuleClient` of `@app/fragment-cli/client` calls it by
 * `"METHOD /path"` with those types. At run time the route is the definition, frozen.
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
  Method extends HttpMethod = HttpMethod,
  Path extends string = string,
  ParamsInput = unknown,
  QueryInput = unknown,
  BodyInput = unknown,
  Responses extends RouteResponses = Record<never, never>,
  const Errors extends { readonly [status: number]: readonly string[] } = Record<never, never>,
>(
  definition: RouteDefinition<
    Params,
    Query,
    Body,
    Method,
    Path,
    ParamsInput,
    QueryInput,
    BodyInput,
    Responses,
    Errors
  >,
): Route<{
  method: Method;
  path: Path;
  params: ParamsInput;
  query: QueryInput;
  // No body schema: the default `Body` (a body schema always parses to something else).
  body: [Body] extends [undefined] ? undefined : BodyInput;
  responses: Responses;
  errors: Errors;
}> {
  if (!PATH_PATTERN.test(definition.path) || !definition.path.startsWith("/")) {
    throw new TypeError(
      `Route path "${definition.path}" must start with "/" and contain only plain segments and :params`,
    );
  }
  // `Route<never>`: the types are the type checker's alone, no route carries a value for them.
  return Object.freeze({ ...definition }) as Route<never>;
}
