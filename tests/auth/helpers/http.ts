/**
 * A small HTTP client for auth tests: requests through a module's `fetch`, with a credential sent
 * as the cookie or as a Bearer header.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ModuleInstance } from "../../../src/core/mod.ts";

/** How a test presents its credential. */
export type Transport = "cookie" | "bearer";

/** Options of one request. */
export interface CallOptions {
  /** The credential token, sent as `transport` says. */
  token?: string;
  /** How to send `token`. @default "bearer" */
  transport?: Transport;
  /** A JSON body. */
  body?: unknown;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** The origin of the request URL. @default "http://localhost" */
  base?: string;
}

/** A response with its parsed JSON body (`null` when empty). */
export interface CallResult {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Sends one request to the module and parses the answer. */
export async function call(
  module: ModuleInstance,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) {
    if ((options.transport ?? "bearer") === "cookie") {
      headers.set("cookie", `service_auth=${options.token}`);
    } else {
      headers.set("authorization", `Bearer ${options.token}`);
    }
  }
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const response = await module.fetch(
    new Request(`${options.base ?? "http://localhost"}${module.mountRoute}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** Asserts an error response: status, code, and the one error shape. */
export function assertError(result: CallResult, status: number, code: string): void {
  assert.equal(
    result.status,
    status,
    `expected ${status} ${code}, got ${result.status} ${JSON.stringify(result.body)}`,
  );
  assert.equal(result.body?.error?.code, code, JSON.stringify(result.body));
  assert.equal(typeof result.body.error.message, "string");
}

let counter = 0;

/** A fresh, unique email address for a test. */
export function uniqueEmail(label = "user"): string {
  counter++;
  return `${label}-${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/** Signs a new user up; returns their token and user. */
export async function signUp(
  module: ModuleInstance,
  email: string = uniqueEmail(),
  password = "correct horse battery",
): Promise<
  { token: string; user: { id: string; email: string; role: string; emailVerified: boolean } }
> {
  const result = await call(module, "POST", "/sign-up", { body: { email, password } });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return { token: result.body.token, user: result.body.user };
}
