/**
 * Helpers of the typed client's tests: checking a result against the route's response schema (so
 * the client's types, taken from those schemas, are shown to describe what the server answers).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { z } from "zod";
import type { AuthClientErrorCode, AuthResult } from "../../src/client/mod.ts";

/**
 * Asserts a successful result whose data the response `schema` accepts unchanged (no missing,
 * extra or differently typed field), and returns the data.
 */
export function expectData<T>(result: AuthResult<T>, schema: z.ZodType<T, T>): T {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  const parsed = schema.safeParse(result.data);
  assert.ok(parsed.success, `the answer does not match its schema: ${parsed.error}`);
  assert.deepEqual(parsed.data, result.data, "the schema strips or changes nothing");
  return result.data as T;
}

/** Asserts a failed result with `status` and `code`, and returns its error. */
export function expectError<T>(
  result: AuthResult<T>,
  status: number,
  code: AuthClientErrorCode,
): NonNullable<AuthResult<T>["error"]> {
  assert.equal(result.data, null);
  assert.ok(result.error, "an error");
  assert.equal(result.error.status, status, JSON.stringify(result.error));
  assert.equal(result.error.code, code, JSON.stringify(result.error));
  assert.equal(typeof result.error.message, "string");
  return result.error;
}
