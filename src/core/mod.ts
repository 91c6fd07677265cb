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
// What the root entry (mod.ts) re-exports, and nothing else: the internals other folders use
// (mergeRouteErrors, addressKey, isModuleInstance, …) are imported from their files.
export {
  type HttpMethod,
  type Route,
  route,
  type RouteContext,
  type RouteDefinition,
  type RouteResponses,
} from "./route.ts";
export type { ZodSchema } from "./zod_schema.ts";
export { type ErrorBody, HttpError, type ValidationIssue } from "./http_error.ts";
export type {
  ModuleBackground,
  ModuleBackgroundControl,
  ModuleDatabase,
  ModuleEndpoint,
  ModuleInstance,
} from "./module_instance.ts";
export { createModule, type CreateModuleOptions } from "./create_module.ts";
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiSecurityScheme,
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
export { clientAddress, type TrustProxy } from "./client_address.ts";
export { readBodyText } from "./read_body.ts";
