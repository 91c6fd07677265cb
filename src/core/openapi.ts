/**
 * The OpenAPI 3.1 document of a module, generated from the same zod schemas that validate its
 * routes (zod's own JSON Schema 2020-12 converter: OpenAPI 3.1's schema dialect).
 *
 * @module
 */

import { z } from "zod";
import { VERSION } from "../version.ts";
import type { HttpMethod, Route, RouteErrors } from "./route.ts";
import { zodOf, type ZodSchema } from "./zod_schema.ts";

/**
 * A security scheme object of OpenAPI 3.1 (`components.securitySchemes`): how a module's routes
 * that name it in their `security` take a credential.
 *
 * @example A cookie session and a bearer token
 * ```ts
 * import type { OpenApiSecurityScheme } from "@app/fragment-cli";
 *
 * const schemes: Record<string, OpenApiSecurityScheme> = {
 *   session: { type: "apiKey", in: "cookie", name: "session" },
 *   bearer: { type: "http", scheme: "bearer", bearerFormat: "opaque" },
 * };
 * ```
 */
export type OpenApiSecurityScheme =
  | { type: "apiKey"; name: string; in: "header" | "query" | "cookie"; description?: string }
  | { type: "http"; scheme: string; bearerFormat?: string; description?: string };

/**
 * A JSON Schema (2020-12) as it appears in an {@link OpenApiDocument}: what zod's converter
 * writes, keyword by keyword.
 *
 * @example The schemas a document shares between its routes
 * ```ts
 * import type { JsonSchema, OpenApiDocument } from "@app/fragment-cli";
 *
 * function sharedSchemas(document: OpenApiDocument): string[] {
 *   const schemas: Record<string, JsonSchema> = document.components.schemas ?? {};
 *   return Object.keys(schemas);
 * }
 * ```
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * An OpenAPI 3.1 document (the parts this package writes; the rest is plain JSON).
 *
 * @example
 * ```ts
 * import type { ModuleInstance, OpenApiDocument } from "@app/fragment-cli";
 *
 * async function documentOf(module: ModuleInstance): Promise<OpenApiDocument> {
 *   const response = await module.fetch(new Request(`http://localhost${module.mountRoute}/openapi.json`));
 *   return await response.json();
 * }
 * ```
 */
export interface OpenApiDocument {
  /** The OpenAPI version. */
  openapi: "3.1.0";
  /** The title (the module's name, or the one given when merging) and the package version. */
  info: { title: string; version: string; description?: string };
  /** The module's mount route, which its paths are relative to (none once merged). */
  servers?: { url: string; description?: string }[];
  /** The operations by path (`{name}` for a parameter) and lower-case method. */
  paths: { [path: string]: { [method: string]: OpenApiOperation } };
  /** The schemas the operations share (`$ref`) and the security schemes they name. */
  components: {
    schemas?: { [name: string]: JsonSchema };
    securitySchemes?: { [name: string]: OpenApiSecurityScheme };
  };
  /** One tag per module, named after it. */
  tags?: { name: string; description?: string }[];
}

/**
 * One operation (a method of a path) of an {@link OpenApiDocument}.
 *
 * @example List a document's operations with their answers
 * ```ts
 * import type { OpenApiDocument, OpenApiOperation } from "@app/fragment-cli";
 *
 * function operations(document: OpenApiDocument): string[] {
 *   return Object.entries(document.paths).flatMap(([path, methods]) =>
 *     Object.entries(methods).map(([method, operation]: [string, OpenApiOperation]) =>
 *       `${method.toUpperCase()} ${path}: ${Object.keys(operation.responses).join(", ")}`
 *     )
 *   );
 * }
 * ```
 */
export interface OpenApiOperation {
  /** Unique in the document: the module's name and the route's method and path. */
  operationId: string;
  /** The route's `summary`. */
  summary?: string;
  /** The module's name. */
  tags: string[];
  /** The path and query parameters, each with its schema. */
  parameters?: {
    name: string;
    in: "path" | "query";
    required: boolean;
    schema: JsonSchema;
  }[];
  /** The JSON body, when the route declares one. */
  requestBody?: { required: true; content: { "application/json": { schema: JsonSchema } } };
  /** Every answer by status, with the schema of its JSON body when it has one. */
  responses: {
    [status: string]: {
      description: string;
      content?: { "application/json": { schema: JsonSchema } };
    };
  };
  /** The security schemes any one of which the route requires. */
  security?: { [scheme: string]: string[] }[];
}

/** What {@link moduleOpenApiDocument} needs to know about a module. */
export interface ModuleDocumentOptions {
  /** The module's name (the document's title and every operation's tag). */
  name: string;
  /** Where the module is mounted: the document's server URL; paths are relative to it. */
  mountRoute: string;
  /** The module's routes, with their schemas. */
  routes: readonly Route[];
  /** The security schemes its routes name. */
  securitySchemes?: { readonly [name: string]: OpenApiSecurityScheme };
}

/** The codes the core itself answers on every route (see `module_app.ts`). */
const FRAMING_ERRORS: RouteErrors = {
  400: ["INVALID_HOST"],
  413: ["PAYLOAD_TOO_LARGE"],
  500: ["INTERNAL_ERROR"],
};

/** What the core adds for a route whose schemas it checks or whose JSON body it reads. */
function coreErrors(route: Route): RouteErrors {
  const input = route.input ?? "validated";
  const errors: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (errors[status] ??= []).push(...codes);
  // "parsed": the handler validates the same schemas itself (after its credential check).
  if (input !== "raw" && (route.params || route.query || route.body)) {
    add(400, "VALIDATION_ERROR");
  }
  if (route.body && input !== "raw") {
    add(400, "INVALID_JSON", "INVALID_BODY");
    add(415, "UNSUPPORTED_MEDIA_TYPE");
  }
  return errors;
}

const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * Every error code a route can answer, by status: the core's framing codes, the ones its schemas
 * and body bring, and the ones the route declares. The document lists exactly these.
 *
 * @example
 * ```ts
 * import { routeErrorCodes } from "./openapi.ts";
 * import { route } from "./route.ts";
 *
 * const ping = route({ method: "GET", path: "/", handler: () => ({ pong: true }) });
 * console.log(routeErrorCodes(ping)[500]); // ["INTERNAL_ERROR"]
 * ```
 */
export function routeErrorCodes(route: Route): { [status: number]: string[] } {
  return mergeRouteErrors(FRAMING_ERRORS, coreErrors(route), route.errors);
}

/**
 * Merges lists of error codes by status, each code once, in the order first seen: for route
 * builders that add the codes of their own checks to a route's.
 *
 * @example
 * ```ts
 * import { mergeRouteErrors } from "./openapi.ts";
 *
 * const errors = mergeRouteErrors({ 401: ["UNAUTHENTICATED"] }, { 401: ["INVALID_CREDENTIALS"] });
 * console.log(errors[401]); // ["UNAUTHENTICATED", "INVALID_CREDENTIALS"]
 * ```
 */
export function mergeRouteErrors(
  ...lists: (RouteErrors | undefined)[]
): { [status: number]: string[] } {
  const merged: { [status: number]: string[] } = {};
  for (const list of lists) {
    for (const [status, codes] of Object.entries(list ?? {})) {
      const into = merged[Number(status)] ??= [];
      for (const code of codes) if (!into.includes(code)) into.push(code);
    }
  }
  return merged;
}

/** The one error body of the project, with the codes a status can carry. */
function errorSchema(codes: readonly string[]): JsonSchema {
  const schema: JsonSchema = {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", enum: [...codes] },
          message: { type: "string" },
        },
      },
    },
  };
  if (codes.includes("VALIDATION_ERROR")) {
    (schema.properties as JsonSchema).issues = {
      description: "With VALIDATION_ERROR: each problem and where it is (e.g. body.email)",
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    };
  }
  return schema;
}

/**
 * Where the shared definitions of converted schemas go: a recursive zod schema (e.g. `z.json()`)
 * converts with `$defs` and `$ref: "#/$defs/…"`, which inside an operation would point at the
 * document's root; they move to `components.schemas` under names unique in the document.
 */
interface SharedSchemas {
  prefix: string;
  schemas: { [name: string]: JsonSchema };
}

/** A zod schema as JSON Schema 2020-12, as a request (`input`) or a response (`output`). */
function jsonSchemaOf(
  schema: ZodSchema,
  io: "input" | "output",
  shared: SharedSchemas,
): JsonSchema {
  const converted = z.toJSONSchema(zodOf(schema), {
    target: "draft-2020-12",
    io,
    // A refinement or transform documents as the type it checks; never a thrown error.
    unrepresentable: "any",
  }) as JsonSchema;
  delete converted.$schema;
  const defs = converted.$defs as { [name: string]: JsonSchema } | undefined;
  if (!defs) return converted;
  delete converted.$defs;
  const renamed = new Map<string, string>();
  for (const name of Object.keys(defs)) {
    renamed.set(name, `${shared.prefix}${Object.keys(shared.schemas).length + renamed.size + 1}`);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== "object" || value === null) return value;
    const out: JsonSchema = {};
    for (const [key, item] of Object.entries(value)) {
      const target = key === "$ref" && typeof item === "string" && item.startsWith("#/$defs/")
        ? renamed.get(item.slice("#/$defs/".length))
        : undefined;
      out[key] = target ? `#/components/schemas/${target}` : rewrite(item);
    }
    return out;
  };
  for (const [name, definition] of Object.entries(defs)) {
    shared.schemas[renamed.get(name)!] = rewrite(definition) as JsonSchema;
  }
  return rewrite(converted) as JsonSchema;
}

/** Throws when a route names a security scheme the module does not declare. */
export function checkSecuritySchemes(
  moduleName: string,
  routes: readonly Route[],
  schemes: ModuleDocumentOptions["securitySchemes"],
): void {
  for (const route of routes) {
    for (const scheme of route.security ?? []) {
      if (!schemes?.[scheme]) {
        throw new TypeError(
          `Route ${route.method} ${route.path} of module "${moduleName}" names the security ` +
            `scheme "${scheme}", which securitySchemes does not declare`,
        );
      }
    }
  }
}

/** `/organizations/:organizationId` → `/organizations/{organizationId}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/** `GET /organizations/:organizationId/members` → `getOrganizationsByOrganizationIdMembers`. */
function operationId(method: HttpMethod, path: string): string {
  const words = path.split(/[/._~-]+/).filter(Boolean).map((segment) =>
    segment.startsWith(":") ? `By${capitalize(segment.slice(1))}` : capitalize(segment)
  );
  return method.toLowerCase() + words.join("");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function parameters(
  route: Route,
  shared: SharedSchemas,
): NonNullable<OpenApiOperation["parameters"]> {
  const list: NonNullable<OpenApiOperation["parameters"]> = [];
  const pathSchema = route.params ? jsonSchemaOf(route.params, "input", shared) : {};
  const pathProperties = (pathSchema.properties ?? {}) as { [name: string]: JsonSchema };
  for (const [, name] of route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    list.push({
      name,
      in: "path",
      required: true,
      schema: pathProperties[name] ?? { type: "string" },
    });
  }
  if (route.query) {
    const querySchema = jsonSchemaOf(route.query, "input", shared);
    const required = new Set((querySchema.required ?? []) as string[]);
    const properties = (querySchema.properties ?? {}) as { [name: string]: JsonSchema };
    for (const [name, schema] of Object.entries(properties)) {
      list.push({ name, in: "query", required: required.has(name), schema });
    }
  }
  return list;
}

function operation(route: Route, tag: string, shared: SharedSchemas): OpenApiOperation {
  const op: OpenApiOperation = {
    operationId: route.name ?? operationId(route.method, route.path),
    tags: [tag],
    responses: {},
  };
  if (route.summary) op.summary = route.summary;
  const list = parameters(route, shared);
  if (list.length > 0) op.parameters = list;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: jsonSchemaOf(route.body, "input", shared) } },
    };
  }
  for (const [status, schema] of Object.entries(route.responses ?? {})) {
    op.responses[status] = schema
      ? {
        description: REASONS[Number(status)] ?? "Answer",
        content: { "application/json": { schema: jsonSchemaOf(schema, "output", shared) } },
      }
      : { description: REASONS[Number(status)] ?? "Answer" };
  }
  if (Object.keys(op.responses).length === 0) {
    op.responses.default = { description: "The handler's answer (not documented)" };
  }
  for (const [status, codes] of Object.entries(routeErrorCodes(route))) {
    op.responses[status] = {
      description: `${REASONS[Number(status)] ?? "Error"}: ${codes.join(", ")}`,
      content: { "application/json": { schema: errorSchema(codes) } },
    };
  }
  if (route.security && route.security.length > 0) {
    op.security = route.security.map((scheme) => ({ [scheme]: [] }));
  }
  return op;
}

/**
 * The OpenAPI 3.1 document of one module: a path per route (relative to the module's mount, its
 * server URL), parameters, request body and every answer with its schema, the error answers with
 * their codes, and the security schemes. `createModule` serves it at `GET <mount>/openapi.json`.
 *
 * @example
 * ```ts
 * import { moduleOpenApiDocument } from "./openapi.ts";
 * import { route } from "./route.ts";
 * import { z } from "zod";
 *
 * const document = moduleOpenApiDocument({
 *   name: "ping",
 *   mountRoute: "/api/ping",
 *   routes: [route({
 *     method: "GET",
 *     path: "/",
 *     responses: { 200: z.object({ pong: z.boolean() }) },
 *     handler: () => ({ pong: true }),
 *   })],
 * });
 * console.log(Object.keys(document.paths)); // ["/"]
 * ```
 */
export function moduleOpenApiDocument(options: ModuleDocumentOptions): OpenApiDocument {
  const { name, mountRoute, routes } = options;
  checkSecuritySchemes(name, routes, options.securitySchemes);
  const paths: OpenApiDocument["paths"] = {};
  // Named after the module, so merged documents keep them apart.
  const shared: SharedSchemas = { prefix: `${name}_shared`, schemas: {} };
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(
      route,
      name,
      shared,
    );
  }
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: name, version: VERSION, description: `The ${name} module of fragment-cli.` },
    servers: [{ url: mountRoute }],
    paths,
    components: {},
    tags: [{ name }],
  };
  if (Object.keys(shared.schemas).length > 0) document.components.schemas = shared.schemas;
  if (options.securitySchemes && Object.keys(options.securitySchemes).length > 0) {
    document.components.securitySchemes = { ...options.securitySchemes };
  }
  return document;
}
