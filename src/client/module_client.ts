/**
 * `createModuleClient`: a typed client for any module, called by method and path
 * (`client.request("GET /notes/:id", { params: { id } })`). Its types come from the module's
 * routes (`import type`); at run time it needs only `fetch` and the `"METHOD /path"` string of
 * each call, so neither zod nor any server code is in its import graph.
 *
 * @module
 */

import type { ModuleClientErrorCode, ModuleResult } from "./result.ts";
import type { ModuleRoutes, RouteCall, RouteRequest } from "./module_routes.ts";
import { fillPath } from "./route_path.ts";
import {
  type AuthFetch,
  type Call,
  type CallInput,
  createTransport,
  type HeadersOption,
} from "./transport.ts";

/**
 * How {@link createModuleClient} reaches the module.
 *
 * @example A server-side client that forwards the visitor's cookie
 * ```ts
 * import type { ModuleClientOptions } from "@app/fragment-cli/client";
 *
 * function optionsFor(incoming: Request): ModuleClientOptions {
 *   return {
 *     baseUrl: "http://127.0.0.1:8080/api/notes",
 *     headers: { cookie: incoming.headers.get("cookie") },
 *   };
 * }
 * ```
 */
export interface ModuleClientOptions {
  /**
   * The module's URL: relative in a browser on the same origin (`"/api/notes"`), or absolute
   * (`"https://api.example.com/api/notes"`). A trailing `/` is ignored.
   */
  baseUrl: string;
  /** The `fetch` to call (default: `globalThis.fetch`), e.g. one that keeps cookies on a server. */
  fetch?: AuthFetch;
  /**
   * Whether a browser sends and accepts cookies (`RequestInit.credentials`). @default "include"
   */
  credentials?: RequestCredentials;
  /**
   * Headers added to every request (a `null` or `undefined` value is left out), or a function
   * called before each request that returns them (it may be async). On a server, a `cookie` here
   * is sent as is: the way to call a module as the visitor of the page being rendered (browsers
   * refuse to set it).
   */
  headers?: HeadersOption;
}

/**
 * A typed client of one module (see {@link createModuleClient}). `Routes` is the module's
 * {@link ModuleRoutes}.
 *
 * @example A function that takes the client of the docs' `notes` module
 * ```ts
 * import type { ModuleClient, ModuleRoutes } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * async function deliver(client: ModuleClient<ModuleRoutes<MessengerModule>>, updateId: number) {
 *   const { error } = await client.request("POST /messenger/webhook", {
 *     body: { update_id: updateId },
 *   });
 *   return error?.code ?? "OK";
 * }
 * ```
 */
export interface ModuleClient<Routes extends { [key: string]: RouteCall }> {
  /**
   * Calls the route `key` (`"METHOD /path"`, the path as the route declares it) with its
   * `params`, `query` and `body`; resolves to `{ data, error }`, never rejects for an HTTP or
   * network failure. Rejects with a `TypeError` only for a malformed key or a path parameter that
   * is missing, empty, `.` or `..` (the types rule both out). Leave `Call` to its default, the
   * route's {@link RouteCall}: a type parameter of its own makes each call cost the compiler about
   * a third of what indexing `Routes[Key]` in every position costs.
   */
  request<Key extends keyof Routes & string, Call extends RouteCall = Routes[Key]>(
    key: Key,
    ...input: Record<never, never> extends RouteRequest<NoInfer<Call>>
      ? [input?: RouteRequest<NoInfer<Call>>]
      : [input: RouteRequest<NoInfer<Call>>]
  ): Promise<ModuleResult<Call["data"], Call["errorCode"] | ModuleClientErrorCode>>;
}

const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * Creates a typed client for any module: `Module` is the type of a module defined with
 * `defineModule` (`typeof notes`), of an instance (`typeof instance`), or of its routes. Each
 * call names its route by method and path; the `params`, `query` and `body` it takes are what
 * the route's schemas accept, and it resolves to `{ data, error }`: `data` typed from the route's
 * 2xx `responses`, `error.code` one of its `errors` codes or of {@link ModuleClientErrorCode}. A
 * wrong path, a missing parameter or a misspelt body field does not compile.
 *
 * At run time the client sends JSON with `fetch` and nothing else: types are imported with
 * `import type`, so a browser bundle holds neither zod nor the module's code.
 *
 * @param options Where the module is and how to reach it; see {@link ModuleClientOptions}.
 * @returns The client.
 *
 * @example A client of the `notes` module of docs/modules.md
 * ```ts ignore
 * import { createModuleClient } from "@app/fragment-cli/client";
 * import type { notes } from "./notes.ts";
 *
 * const client = createModuleClient<typeof notes>({ baseUrl: "/api/notes" });
 * const created = await client.request("POST /notes", { body: { text: "Buy milk" } });
 * if (created.data) {
 *   const { data, error } = await client.request("GET /notes/:id", {
 *     params: { id: created.data.id },
 *     query: { format: "short" },
 *   });
 *   if (error?.code === "NOT_FOUND") console.log("deleted meanwhile");
 *   else if (data) console.log(data.text);
 * }
 * ```
 *
 * @example The webhook of the messenger module, from a test or a relay
 * ```ts
 * import { createModuleClient } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * const webhook = createModuleClient<MessengerModule>({
 *   baseUrl: "http://localhost:8080/api/messenger",
 *   headers: { "x-messenger-bot-api-secret-token": "s3cret" },
 * });
 * const { error } = await webhook.request("POST /messenger/webhook", { body: { update_id: 7 } });
 * if (error) console.log(error.status, error.code);
 * ```
 */
export function createModuleClient<Module>(
  options: ModuleClientOptions,
): ModuleClient<ModuleRoutes<Module>> {
  return { request: routeRequest<ModuleRoutes<Module>>(createTransport(options)) };
}

/**
 * The `request` of a client over `call` (one client's transport): what {@link createModuleClient}
 * returns, and what the named calls of `createAuthClient` are written over. Internal: not exported
 * from the client's entry.
 */
export function routeRequest<Routes extends { [key: string]: RouteCall }>(
  call: Call,
): ModuleClient<Routes>["request"] {
  // deno-lint-ignore require-await -- a malformed call rejects instead of throwing.
  return (async (key: string, input: Partial<RouteRequest<RouteCall>> = {}) => {
    const space = key.indexOf(" ");
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    if (space < 0 || !METHODS.has(method) || !path.startsWith("/")) {
      throw new TypeError(`"${key}" is not a route key such as "GET /notes/:id"`);
    }
    return call({
      method: method as CallInput["method"],
      path: fillPath(path, input.params as { [name: string]: unknown } | undefined),
      query: input.query as CallInput["query"],
      body: input.body,
      headers: input.headers,
      signal: input.signal,
    });
  }) as ModuleClient<Routes>["request"];
}
