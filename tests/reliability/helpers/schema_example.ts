/**
 * The smallest value a route's input schema accepts, and the places of its strings: what the
 * unstorable-text sweep puts U+0000 and lone surrogates into, one place at a time, so every string
 * field of every route is tried whatever the route fuzzer's seed.
 *
 * @module
 */
/** A JSON Schema object, as a module's OpenAPI document holds them. */
export type JsonSchema = { [key: string]: unknown };

/** A path into a JSON value: property names and array indexes. */
export type ValuePath = Array<string | number>;

/** Looks up a `$ref` of the document (`#/components/schemas/Name`). */
export type RefResolver = (ref: string) => JsonSchema;

/** Values for string formats and names whose checks a plain text would fail. */
function exampleText(schema: JsonSchema, name: string): string {
  if (schema.format === "email" || /email/i.test(name)) return "sweep@example.com";
  if (schema.format === "uuid" || /Id$/.test(name)) return crypto.randomUUID();
  if (schema.format === "uri" || schema.format === "url" || /url$/i.test(name)) {
    return "https://example.com/sweep";
  }
  if (schema.format === "date-time") return new Date().toISOString();
  const min = typeof schema.minLength === "number" ? schema.minLength : 1;
  return "sweep".padEnd(min, "x");
}

/**
 * A small value `schema` accepts: with every property it declares, or (`every: false`) with its
 * required ones only, at any depth.
 */
export function exampleOf(
  schema: JsonSchema,
  resolve: RefResolver,
  name = "",
  every = true,
): unknown {
  if (typeof schema.$ref === "string") return exampleOf(resolve(schema.$ref), resolve, name, every);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const union of [schema.anyOf, schema.oneOf]) {
    if (Array.isArray(union)) {
      const options = (union as JsonSchema[]).filter((option) => option.type !== "null");
      return exampleOf(options[0] ?? union[0], resolve, name, every);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return exampleOf(schema.allOf[0] as JsonSchema, resolve, name, every);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return exampleText(schema, name);
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array": {
      const items = (schema.items ?? {}) as JsonSchema;
      const count = typeof schema.minItems === "number" ? schema.minItems : 1;
      return Array.from(
        { length: Math.max(count, 1) },
        () => exampleOf(items, resolve, name, every),
      );
    }
    case "object": {
      const properties = (schema.properties ?? {}) as { [key: string]: JsonSchema };
      const required = new Set((schema.required ?? []) as string[]);
      const value: { [key: string]: unknown } = {};
      for (const [key, property] of Object.entries(properties)) {
        if (every || required.has(key)) value[key] = exampleOf(property, resolve, key, every);
      }
      return value;
    }
    default:
      return "sweep";
  }
}

/** The paths of every string in `value`. */
export function stringPaths(value: unknown, at: ValuePath = []): ValuePath[] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...at, i]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...at, key]));
  }
  return [];
}

/**
 * A copy of `value` with `replacement` at `path`; where `value` lacks a step of the path, it is
 * taken from `fallback` (the example with every property), so an optional field is added whole.
 */
export function replacedAt(
  value: unknown,
  path: ValuePath,
  replacement: unknown,
  fallback: unknown = value,
): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const source = value ?? fallback;
  const copy = (Array.isArray(source) ? [...source] : { ...(source as object) }) as {
    [key: string | number]: unknown;
  };
  const next = (fallback as { [key: string | number]: unknown } | undefined)?.[head];
  copy[head] = replacedAt(copy[head] ?? next, rest, replacement, next);
  return copy;
}
