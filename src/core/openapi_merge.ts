import { VERSION } from "../version.ts";
import type { OpenApiDocument, OpenApiOperation } from "./openapi.ts";

/**
 * Merges the documents of several modules into one, as one server at the origin sees them: each
 * module's paths prefixed with its mount (its document's server URL). A security scheme or a
 * shared schema of the same name but different content is renamed after its module; an
 * operationId taken by another module gets the module's name in front. Two modules answering one
 * method and path is an error.
 *
 * @example
 * ```ts
 * import { createModule, mergeOpenApiDocuments, route } from "@app/fragment-cli";
 *
 * const ping = createModule({
 *   name: "ping",
 *   routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],
 * });
 * const response = await ping.fetch(new Request("http://localhost/api/ping/openapi.json"));
 * const merged = mergeOpenApiDocuments([await response.json()], { title: "app" });
 * console.log(Object.keys(merged.paths)); // ["/api/ping", "/api/ping/openapi.json"]
 * ```
 */
export function mergeOpenApiDocuments(
  documents: readonly OpenApiDocument[],
  info: { title: string; description?: string },
): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: info.title, version: VERSION },
    paths: {},
    components: {},
    tags: [],
  };
  if (info.description) merged.info.description = info.description;
  const operationIds = new Set<string>();
  for (const document of documents) {
    const moduleName = document.info.title;
    const mount = document.servers?.[0]?.url ?? "";
    const schemeNames = mergeNamed(
      merged.components.securitySchemes ??= {},
      document.components.securitySchemes ?? {},
      moduleName,
    );
    const schemaNames = mergeNamed(
      merged.components.schemas ??= {},
      document.components.schemas ?? {},
      moduleName,
    );
    for (const tag of document.tags ?? []) {
      if (!merged.tags!.some((t) => t.name === tag.name)) merged.tags!.push(tag);
    }
    for (const [path, item] of Object.entries(document.paths)) {
      const fullPath = path === "/" ? mount || "/" : `${mount}${path}`;
      const target = merged.paths[fullPath] ??= {};
      for (const [method, operation] of Object.entries(item)) {
        if (target[method]) {
          throw new Error(`${method.toUpperCase()} ${fullPath} is answered by two modules`);
        }
        const renamed = renameRefs(operation, schemaNames) as OpenApiOperation;
        if (renamed.security) {
          renamed.security = renamed.security.map((requirement) =>
            Object.fromEntries(
              Object.entries(requirement).map(([name, scopes]) => [
                schemeNames.get(name) ?? name,
                scopes,
              ]),
            )
          );
        }
        if (operationIds.has(renamed.operationId)) {
          renamed.operationId = `${moduleName}_${renamed.operationId}`;
        }
        operationIds.add(renamed.operationId);
        target[method] = renamed;
      }
    }
  }
  if (Object.keys(merged.components.schemas ?? {}).length === 0) delete merged.components.schemas;
  if (Object.keys(merged.components.securitySchemes ?? {}).length === 0) {
    delete merged.components.securitySchemes;
  }
  return merged;
}

/**
 * Adds `entries` to `into`; an entry whose name is taken by a different value gets the module's
 * name appended. Returns the renamings.
 */
function mergeNamed<T>(
  into: { [name: string]: T },
  entries: { [name: string]: T },
  moduleName: string,
): Map<string, string> {
  const renamings = new Map<string, string>();
  for (const [name, value] of Object.entries(entries)) {
    let target = name;
    for (let n = 1; into[target] !== undefined; n++) {
      if (JSON.stringify(into[target]) === JSON.stringify(value)) break;
      target = n === 1 ? `${name}_${moduleName}` : `${name}_${moduleName}${n}`;
    }
    into[target] = value;
    if (target !== name) renamings.set(name, target);
  }
  return renamings;
}

/** A copy of `value` whose `$ref`s to renamed shared schemas follow the new names. */
function renameRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, names));
  if (typeof value !== "object" || value === null) return value;
  const out: { [key: string]: unknown } = {};
  for (const [key, item] of Object.entries(value)) {
    const prefix = "#/components/schemas/";
    if (key === "$ref" && typeof item === "string" && item.startsWith(prefix)) {
      const name = item.slice(prefix.length);
      out[key] = `${prefix}${names.get(name) ?? name}`;
    } else {
      out[key] = renameRefs(item, names);
    }
  }
  return out;
}
