/**
 * The one error type of the HTTP layer and the one JSON shape it renders to.
 *
 * @module
 */

/**
 * One validation problem, as listed under `"issues"` in a 400 `VALIDATION_ERROR` response.
 *
 * @example Show each problem next to its form field
 * ```ts
 * import type { ValidationIssue } from "@app/fragment-cli";
 *
 * const issue: ValidationIssue = { path: "body.email", message: "Invalid email address" };
 * const field = issue.path.split(".").slice(1).join("."); // "email"
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, e.g. `"body.email"` or `"query.pageSize"`. */
  path: string;
  /** What is wrong, in a sentence. */
  message: string;
}

/**
 * The JSON body of every error response: `{"error": {"code", "message"}}` plus optional extras.
 *
 * @example Branch on the code of a failed call
 * ```ts
 * import { createModule, type ErrorBody } from "@app/fragment-cli";
 *
 * const notes = createModule({ name: "notes", routes: [] });
 * const response = await notes.fetch(new Request("http://localhost/api/notes/42"));
 * if (!response.ok) {
 *   const body: ErrorBody = await response.json();
 *   console.log(response.status, body.error.code); // 404 "NOT_FOUND"
 * }
 * ```
 */
export interface ErrorBody {
  /** A stable SNAKE_CASE `code` clients branch on and a human-readable `message`. */
  error: { code: string; message: string };
  /** Every validation problem, on a 400 `VALIDATION_ERROR`. */
  issues?: ValidationIssue[];
  /** Further fields some errors carry (e.g. `availableRoutes` on an unmatched path). */
  [extra: string]: unknown;
}

/**
 * An error that becomes an HTTP response in the one error shape. Throw it from a route handler.
 *
 * @example Answer 404 from a handler
 * ```ts
 * import { HttpError } from "@app/fragment-cli";
 *
 * function findOrFail(found: boolean): void {
 *   if (!found) throw new HttpError(404, "NOT_FOUND", "Organization not found");
 * }
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status code. */
  readonly status: number;
  /** A stable SNAKE_CASE code clients can branch on. */
  readonly code: string;
  /** Extra top-level fields of the body (e.g. `issues`). */
  readonly extra: Record<string, unknown>;
  /** Extra response headers (e.g. `WWW-Authenticate`, `Allow`). */
  readonly headers: Record<string, string>;

  /**
   * An error answered with `status` and the body `{"error": {code, message}, ...extra}`.
   *
   * @param status The HTTP status code, e.g. 404.
   * @param code A stable SNAKE_CASE code, e.g. `NOT_FOUND`.
   * @param message A human-readable sentence.
   * @param options Extra body fields, response headers and the cause.
   */
  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

/**
 * Renders an error response in the one JSON shape of the project.
 *
 * @example
 * ```ts
 * import { errorResponse } from "./http_error.ts";
 *
 * const response = errorResponse(404, "NOT_FOUND", "No such page");
 * console.log(response.status); // 404
 * ```
 */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error: { code, message }, ...extra };
  return Response.json(body, { status, headers });
}

/** Renders an {@link HttpError} as a response. */
export function httpErrorResponse(error: HttpError): Response {
  return errorResponse(error.status, error.code, error.message, error.extra, error.headers);
}
