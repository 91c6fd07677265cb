import { backgroundControl } from "./background_control.ts";
import { z } from "zod";
import { DEFAULT_BODY_LIMIT } from "./read_body.ts";
import { createModuleFetch } from "./module_app.ts";
import {
  MODULE_BRAND,
  type ModuleBackground,
  type ModuleDatabase,
  type ModuleInstance,
} from "./module_instance.ts";
import {
  checkSecuritySchemes,
  moduleOpenApiDocument,
  type OpenApiSecurityScheme,
} from "./openapi.ts";
import { type Route, route } from "./route.ts";

/**
 * Options of {@link createModule}.
 *
 * @example A module whose routes need a bearer token, documented as such
 * ```ts
 * import { createModule, type CreateModuleOptions, route } from "@app/fragment-cli";
 *
 * const options: CreateModuleOptions = {
 *   name: "admin",
 *   routes: [route({ method: "GET", path: "/stats", security: ["bearer"], handler: () => ({}) })],
 *   securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
 *   bodyLimit: 64 * 1024,
 * };
 * const admin = createModule(options);
 * ```
 */
export interface CreateModuleOptions<Routes extends readonly Route[] = readonly Route[]> {
  /** Module name: lower-case letters, digits and dashes, starting with a letter. */
  name: string;
  /** The module's routes; their types become the instance's (see {@link ModuleInstance}). */
  routes: Routes;
  /** Where to mount the module. @default `/api/<name>` */
  mountRoute?: string;
  /** Largest accepted request body in bytes; larger bodies get 413. @default 1 MiB */
  bodyLimit?: number;
  /** The module's database binding, when it has a schema. */
  database?: ModuleDatabase;
  /** Background work (durable hook workers), run by the module's `background` control. */
  background?: ModuleBackground;
  /**
   * Start the background work with the module's first request. Set it to `false` to start it
   * yourself (`background.start()`, `serve()`) or to run it with `background.drain()` only.
   * @default true
   */
  autoStart?: boolean;
  /**
   * The security schemes the routes name in their `security` (documented in
   * `GET <mount>/openapi.json`), e.g. `{ bearerToken: { type: "http", scheme: "bearer" } }`.
   */
  securitySchemes?: { readonly [name: string]: OpenApiSecurityScheme };
}

/**
 * The path of the module's OpenAPI document, inside its mount.
 *
 * @example
 * ```ts
 * import { OPENAPI_PATH } from "./create_module.ts";
 *
 * console.log(`/api/auth${OPENAPI_PATH}`); // "/api/auth/openapi.json"
 * ```
 */
export const OPENAPI_PATH = "/openapi.json";

/** Enough of an OpenAPI document to type a client of the `openapi.json` route. */
const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({}))),
});

const NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
const MOUNT_PATTERN = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * Instantiates a module from its parts. Most authors use {@link defineModule}, which validates a
 * config first; first-party modules with a server-side API build on this directly.
 *
 * @example
 * ```ts
 * import { createModule, route } from "@app/fragment-cli";
 *
 * const ping = createModule({
 *   name: "ping",
 *   routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],
 * });
 * const response = await ping.fetch(new Request("http://localhost/api/ping"));
 * console.log(await response.json()); // { pong: true }
 * ```
 */
export function createModule<Routes extends readonly Route[] = readonly Route[]>(
  options: CreateModuleOptions<Routes>,
): ModuleInstance<Routes> {
  const { name, routes } = options;
  if (!NAME_PATTERN.test(name)) {
    throw new TypeError(
      `Module name "${name}" must be lower-case letters, digits and dashes, starting with a letter`,
    );
  }
  const mountRoute = options.mountRoute ?? `/api/${name}`;
  if (!MOUNT_PATTERN.test(mountRoute)) {
    throw new TypeError(
      `mountRoute "${mountRoute}" of module "${name}" must look like "/api/${name}" (no trailing slash)`,
    );
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 0) {
    throw new TypeError(`bodyLimit of module "${name}" must be a non-negative integer of bytes`);
  }
  // Checked now: the document itself is built at its first request.
  checkSecuritySchemes(name, routes, options.securitySchemes);
  let document: string | undefined;
  const documentText = (): string =>
    document ??= JSON.stringify(moduleOpenApiDocument({
      name,
      mountRoute,
      routes: allRoutes,
      securitySchemes: options.securitySchemes,
    }));
  const allRoutes: readonly Route[] =
    routes.some((r) => r.method === "GET" && r.path === OPENAPI_PATH)
      ? routes
      : [...routes, openApiRoute(documentText)];
  const seen = new Set<string>();
  for (const r of allRoutes) {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) throw new TypeError(`Module "${name}" declares ${key} twice`);
    seen.add(key);
  }
  if (options.autoStart !== undefined && typeof options.autoStart !== "boolean") {
    throw new TypeError(`autoStart of module "${name}" must be a boolean`);
  }
  const answer = createModuleFetch({ name, mountRoute, routes: allRoutes, bodyLimit });
  const lifecycle = options.background
    ? backgroundControl(name, options.background, options.autoStart ?? true)
    : undefined;
  const fetch = lifecycle
    ? (request: Request, connection?: unknown): Promise<Response> => {
      lifecycle.startOnRequest();
      return answer(request, connection);
    }
    : answer;
  const close = async (): Promise<void> => {
    await lifecycle?.close();
  };
  return Object.freeze({
    brand: MODULE_BRAND,
    name,
    mountRoute,
    routes: Object.freeze(allRoutes.map((r) => ({
      method: r.method,
      path: r.path === "/" ? mountRoute : `${mountRoute}${r.path}`,
    }))),
    fetch,
    database: options.database,
    background: lifecycle?.control,
    close,
    [Symbol.asyncDispose]: close,
  });
}

/**
 * `GET <mount>/openapi.json`: the module's document, generated at the first request and kept
 * (the routes of an instance never change). Public: it describes the API, not anyone's data.
 */
function openApiRoute(documentText: () => string): Route {
  return route({
    method: "GET",
    path: OPENAPI_PATH,
    summary: "The OpenAPI 3.1 document of this module",
    name: "getOpenApiDocument",
    responses: { 200: openApiDocumentSchema },
    handler: () =>
      new Response(documentText(), {
        headers: { "content-type": "application/json", "cache-control": "no-cache" },
      }),
  });
}
