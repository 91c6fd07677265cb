import { HttpError, type ValidationIssue } from "./http_error.ts";
import { zodOf, type ZodSchema } from "./zod_schema.ts";

/**
 * Validates one part of a request with its zod schema; a failure throws a 400
 * `VALIDATION_ERROR` listing every issue with its path (`body.email`). Routes do this before
 * every handler; export for wrappers that must check something else first (a credential).
 *
 * @example
 * ```ts
 * import { validateRequestPart } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const body = validateRequestPart(z.object({ name: z.string() }), { name: "ada" }, "body");
 * console.log(body.name); // "ada"
 * ```
 */
export function validateRequestPart<T>(
  schema: ZodSchema<T> | undefined,
  value: unknown,
  part: "params" | "query" | "body",
): T {
  if (!schema) return value as T;
  const result = zodOf(schema).safeParse(value);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
  throw new HttpError(400, "VALIDATION_ERROR", `Invalid request ${part}`, { extra: { issues } });
}

/** Parses JSON text; malformed or missing JSON is a 400, never a silent `undefined`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") {
    throw new HttpError(400, "INVALID_JSON", "Request body must be a JSON document");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "INVALID_JSON", "Request body is not valid JSON");
  }
}
