import type { z } from "zod";
import { HttpError, type ValidationIssue } from "./http_error.ts";

/** Validates one part of a request; a failure becomes a 400 listing every issue. */
export function validatePart(
  schema: z.ZodType | undefined,
  value: unknown,
  part: "params" | "query" | "body",
): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
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
