/**
 * The types that turn a module's routes into client calls: what `route()` records of each route
 * (its {@link RouteTypes}), the flat map of a module's routes by `"METHOD /path"`
 * ({@link ModuleRoutes}) and what a call of one sends ({@link RouteRequest}). Types only: the
 * client reads them with `import type`, so no schema, no zod and no server code reaches a bundle.
 *
 * The mapped types are written out rather than built from unexported helpers: a public type that
 * names a private one fails `deno doc --lint`.
 *
 * @module
 */

import type { HttpMethod } from "../core/mod.ts";
import type { ClientHeaders } from "./transport.ts";

/**
 * What `route()` records of a route at the type level (the `types` of a `Route`): the method and
 * path as literals, the types a client sends as `params`, `query` and `body` (each schema's
 * `z.input`; `unknown` when the route declares no schema, `undefined` for a route without a body),
 * the `responses` schemas by status and the `errors` codes by status.
 *
 * @example The types of a route, read back
 * ```ts
 * import { route } from "@app/fragment-cli";
 * import type { RouteTypes } from "@app/fragment-cli/client";
 * import { z } from "zod";
 *
 * const getNote = route({
 *   method: "GET",
 *   path: "/notes/:id",
 *   params: z.object({ id: z.string() }),
 *   handler: ({ params }) => ({ id: params.id }),
 * });
 * type GetNote = NonNullable<typeof getNote.types>;
 * const path: GetNote["path"] = "/notes/:id";
 * const check: RouteTypes = null as unknown as GetNote;
 * ```
 */
export interface RouteTypes {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /** The path inside the module's mount, with `:name` parameters. */
  readonly path: string;
  /** What the `params` schema accepts; `unknown` without one (then: the path's parameters). */
  readonly params: unknown;
  /** What the `query` schema accepts; `unknown` without one (then: any string values). */
  readonly query: unknown;
  /** What the `body` schema accepts; `undefined` when the route reads no body. */
  readonly body: unknown;
  /** The `responses` schemas by status (`null`: no body). */
  readonly responses: {
    readonly [status: number]: { readonly _zod: { readonly output: unknown } } | null;
  };
  /** The `errors` codes by status. */
  readonly errors: { readonly [status: number]: readonly string[] };
}

/**
 * The {@link RouteTypes} of every typed route of a module, as a union: from the type of a module
 * defined with `defineModule` (`typeof notes`), of one of its instances (`typeof instance`, or a
 * named instance type such as `MessengerModule`), or of an array of routes. A route whose method
 * or path is not a literal (built with its types erased) is left out: a client cannot call it by
 * name.
 *
 * @example The paths of a module's routes
 * ```ts
 * import type { ModuleRouteTypes } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * type Paths = ModuleRouteTypes<MessengerModule>["path"]; // "/messenger/webhook"
 * ```
 */
// One alias that recurses from a factory to its instance to its routes: the same steps nested in
// one conditional type cost about four times as many type instantiations (200 routes: 1.3 M).
export type ModuleRouteTypes<Module> = Module extends readonly (infer Each)[]
  ? Each extends { readonly types?: infer Types }
    ? Types extends RouteTypes
      ? string extends Types["path"] ? never : HttpMethod extends Types["method"] ? never : Types
    : never
  : never
  : Module extends (...args: never) => infer Instance ? ModuleRouteTypes<Instance>
  : Module extends { readonly routeTypes?: infer Routes } ? ModuleRouteTypes<Routes>
  : never;

/**
 * The path parameters a path names, each a string or a number (sent encoded with
 * `encodeURIComponent`): `"/notes/:id"` gives `{ id: string | number }`.
 *
 * @example
 * ```ts
 * import type { RoutePathParams } from "@app/fragment-cli/client";
 *
 * const params: RoutePathParams<"/organizations/:organizationId/members/:memberId"> = {
 *   organizationId: "7c1f",
 *   memberId: 42,
 * };
 * ```
 */
export type RoutePathParams<Path extends string> = Path extends
  `${string}/:${infer Name}/${infer Rest}`
  ? { [Key in Name]: string | number } & RoutePathParams<`/${Rest}`>
  : Path extends `${string}/:${infer Name}` ? { [Key in Name]: string | number }
  : Record<never, never>;

/**
 * The data of a route's successful answer: the output of its 2xx `responses` schemas (`null` for
 * a 204 without a body), `unknown` when it declares none. It is what the handler is meant to
 * answer, as JSON carries it: declare JSON types in response schemas (an ISO date string, not a
 * `Date`).
 *
 * @example
 * ```ts
 * import type { RouteData } from "@app/fragment-cli/client";
 * import { z } from "zod";
 *
 * const note = z.object({ id: z.string(), text: z.string() });
 * type Created = RouteData<{ 201: typeof note; 400: typeof note }>; // { id: string; text: string }
 * ```
 */
export type RouteData<Responses> = number extends keyof Responses ? unknown
  : {
    [
      Status in keyof Responses as `${Status & (string | number)}` extends `2${string}` ? Status
        : never
    ]: Responses[Status] extends { readonly _zod: { readonly output: infer Output } } ? Output
      : null;
  } extends infer Answers ? [keyof Answers] extends [never] ? unknown : Answers[keyof Answers]
  : never;

/**
 * One route as a client calls it: what it sends (`params`, `query`, `body`: `undefined` for a
 * part it does not send) and what it gets (`data`, and `errorCode`: the codes its `errors`
 * declare).
 *
 * @example
 * ```ts
 * import type { RouteCall } from "@app/fragment-cli/client";
 *
 * const call: RouteCall = {
 *   params: { id: "7c1f" },
 *   query: undefined,
 *   body: undefined,
 *   data: { id: "7c1f", text: "Buy milk" },
 *   errorCode: "NOT_FOUND",
 * };
 * ```
 */
export interface RouteCall {
  /** The path parameters, `undefined` when the path has none. */
  params: unknown;
  /** The query; any string, number or boolean values when the route declares no schema. */
  query: unknown;
  /** The JSON body, `undefined` when the route reads none. */
  body: unknown;
  /** The data of a successful answer (see {@link RouteData}). */
  data: unknown;
  /** The codes the route declares in its `errors`. */
  errorCode: string;
}

/**
 * A module's routes as a client calls them: a {@link RouteCall} for each typed route, by
 * `"METHOD /path"` (the path inside the module's mount, as the route declares it). `Module` is
 * what {@link ModuleRouteTypes} reads.
 *
 * @example
 * ```ts
 * import type { ModuleRoutes } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * type Webhook = ModuleRoutes<MessengerModule>["POST /messenger/webhook"];
 * const update: Webhook["body"] = { update_id: 1, message: { text: "hi" } };
 * ```
 */
export type ModuleRoutes<Module> = {
  [Types in ModuleRouteTypes<Module> as `${Types["method"]} ${Types["path"]}`]: {
    params: unknown extends Types["params"]
      ? [keyof RoutePathParams<Types["path"]>] extends [never] ? undefined
      : RoutePathParams<Types["path"]>
      : Types["params"];
    query: unknown extends Types["query"]
      ? { readonly [name: string]: string | number | boolean | undefined }
      : Types["query"];
    body: Types["body"];
    data: RouteData<Types["responses"]>;
    errorCode: Types["errors"][keyof Types["errors"]][number];
  };
};

/**
 * What one call sends: `params` when the path has parameters, `query` (required only when its
 * schema requires a field), `body` when the route reads one, and this call's `headers` (over the
 * client's) and abort `signal`.
 *
 * @example
 * ```ts
 * import type { ModuleRoutes, RouteRequest } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * const request: RouteRequest<ModuleRoutes<MessengerModule>["POST /messenger/webhook"]> = {
 *   body: { update_id: 1 },
 *   headers: { "x-messenger-bot-api-secret-token": "s3cret" },
 *   signal: AbortSignal.timeout(5_000),
 * };
 * ```
 */
export type RouteRequest<Call extends RouteCall> =
  & ([Call["params"]] extends [undefined] ? { params?: undefined } : { params: Call["params"] })
  & (Record<never, never> extends Call["query"] ? { query?: Call["query"] }
    : { query: Call["query"] })
  & ([Call["body"]] extends [undefined] ? { body?: undefined }
    : undefined extends Call["body"] ? { body?: Call["body"] }
    : { body: Call["body"] })
  & {
    /**
     * Headers of this call, over the client's `headers` (e.g. the cookie of the request served);
     * a `null` or `undefined` value adds nothing (and leaves the client's in place).
     */
    headers?: ClientHeaders;
    /** Aborts the call: it then resolves to a `NETWORK_ERROR`. */
    signal?: AbortSignal;
  };
