/**
 * The module system: declare routes with zod schemas, instantiate modules, mount and serve them.
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
 * console.log(response.status); // 200
 * ```
 *
 * @module
 */
export {
  type HttpMethod,
  type Route,
  route,
  type RouteContext,
  type RouteDefinition,
  type RouteErrors,
  type RouteInput,
  type RouteResponses,
} from "./route.ts";
export { type ErrorBody, errorResponse, HttpError, type ValidationIssue } from "./http_error.ts";
export {
  isModuleInstance,
  MODULE_BRAND,
  type ModuleBackground,
  type ModuleBackgroundControl,
  type ModuleDatabase,
  type ModuleEndpoint,
  type ModuleInstance,
  type MountedRoute,
} from "./module_instance.ts";
export { createModule, type CreateModuleOptions, OPENAPI_PATH } from "./create_module.ts";
export {
  type JsonSchema,
  mergeRouteErrors,
  type ModuleDocumentOptions,
  moduleOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiSecurityScheme,
  routeErrorCodes,
} from "./openapi.ts";
export { mergeOpenApiDocuments } from "./openapi_merge.ts";
export {
  defineModule,
  type InstantiateOptions,
  ModuleConfigError,
  type ModuleFactory,
  type ModuleSetup,
  type ModuleSpec,
} from "./define_module.ts";
export { composeModules, type ComposeOptions, DuplicateMountError } from "./compose_modules.ts";
export { type RunningServer, serve, type ServeOptions } from "./serve.ts";
export { AddressInUseError } from "../runtime/listener.ts";
export { validateRequestPart } from "./validate.ts";
export {
  addressKey,
  clientAddress,
  normalizeAddress,
  socketAddress,
  type TrustProxy,
} from "./client_address.ts";
export { DEFAULT_BODY_LIMIT, readBodyText, type ReadBodyTextOptions } from "./read_body.ts";
