/**
 * fragment-cli: modules ("fragments") that bundle Web-standard HTTP routes, a versioned Postgres
 * schema and durable background hooks, and mount anywhere.
 *
 * @example A module with one route, answered in memory
 * ```ts
 * import { defineModule, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greeter = defineModule({
 *   name: "greeter",
 *   routes: () => [
 *     route({
 *       method: "GET",
 *       path: "/hello/:name",
 *       params: z.object({ name: z.string() }),
 *       handler: ({ params }) => ({ message: `Hello, ${params.name}` }),
 *     }),
 *   ],
 * });
 * const instance = greeter();
 * const response = await instance.fetch(new Request("http://localhost/api/greeter/hello/ada"));
 * console.log(await response.json()); // { message: "Hello, ada" }
 * ```
 *
 * @module
 */
// The root entry: what an application needs to define, compose, serve and store modules. The
// rest of each layer is under its subpath (`@app/fragment-cli/sql`, `/schema`, `/migrate`,
// `/hooks`, `/pagination`, `/auth`, `/messenger`, `/client`, `/cli`); tests/package/public_api.test.ts
// keeps this list at 80 symbols or fewer.
export {
  AddressInUseError,
  clientAddress,
  composeModules,
  type ComposeOptions,
  createModule,
  type CreateModuleOptions,
  defineModule,
  DuplicateMountError,
  type ErrorBody,
  HttpError,
  type HttpMethod,
  type InstantiateOptions,
  type JsonSchema,
  mergeOpenApiDocuments,
  type ModuleBackground,
  type ModuleBackgroundControl,
  ModuleConfigError,
  type ModuleDatabase,
  type ModuleEndpoint,
  type ModuleFactory,
  type ModuleInstance,
  type ModuleSetup,
  type ModuleSpec,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiSecurityScheme,
  readBodyText,
  type Route,
  route,
  type RouteContext,
  type RouteDefinition,
  type RouteResponses,
  type RunningServer,
  serve,
  type ServeOptions,
  type TrustProxy,
  validateRequestPart,
  type ValidationIssue,
  type ZodSchema,
} from "./src/core/mod.ts";
export {
  databaseFromEnv,
  DatabaseUnavailableError,
  pgliteAdapter,
  type PgliteAdapterOptions,
  postgresAdapter,
  type PostgresAdapterOptions,
  type SqlAdapter,
  SqlError,
  type SqlQuerier,
  type SqlTransaction,
} from "./src/sql/mod.ts";
export {
  column,
  defineSchema,
  type InsertRowOf,
  type RowOf,
  type Schema,
  type SchemaBuilder,
} from "./src/schema/mod.ts";
export { migrate, type MigrateOptions, type MigrateResult } from "./src/migrate/mod.ts";
export {
  type DurableHooks,
  durableHooks,
  type DurableHooksOptions,
  type HookContext,
  type HookHandler,
  withHookOrdering,
  withHookTable,
} from "./src/hooks/mod.ts";
export {
  auth,
  type AuthActor,
  type AuthApi,
  type AuthMe,
  type AuthModule,
  type AuthOptions,
  type AuthUser,
} from "./src/auth/mod.ts";
export {
  messenger,
  MESSENGER_SECRET_HEADER,
  type MessengerEvent,
  type MessengerHandler,
  type MessengerModule,
  type MessengerOptions,
  telegramOutbox,
} from "./src/messenger/mod.ts";
export { VERSION } from "./src/version.ts";
