/**
 * One call to the auth module over `fetch`: URL building, headers, credentials, and turning the
 * answer into an {@link AuthResult}. Only Web APIs (fetch, URLSearchParams, JSON), so it runs in
 * browsers, Deno, Node and Bun alike.
 *
 * @module
 */

import type { AuthClientError, AuthClientErrorCode, AuthResult } from "./result.ts";

/**
 * The `fetch` the client calls: the global one, or one of the caller's (a cookie jar, tracing).
 *
 * @example Add a header to every call
 * ```ts
 * import { type AuthFetch, createAuthClient } from "@app/fragment-cli/client";
 *
 * const traced: AuthFetch = (url, init) => {
 *   const headers = new Headers(init.headers);
 *   headers.set("x-trace-id", crypto.randomUUID());
 *   return fetch(url, { ...init, headers });
 * };
 * const client = createAuthClient({ baseUrl: "/api/auth", fetch: traced });
 * ```
 */
export type AuthFetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Headers a client adds to its requests, by name. A `null` or `undefined` value is left out, so
 * the incoming request's `request.headers.get("cookie")` can be passed as it is.
 *
 * @example Call a module as the visitor of the page being rendered
 * ```ts
 * import { type ClientHeaders, createAuthClient } from "@app/fragment-cli/client";
 *
 * async function emailOf(request: Request): Promise<string | null> {
 *   const headers: ClientHeaders = { cookie: request.headers.get("cookie") };
 *   const client = createAuthClient({ baseUrl: "http://127.0.0.1:8080/api/auth", headers });
 *   const { data } = await client.me();
 *   return data?.user.email ?? null;
 * }
 * ```
 */
export type ClientHeaders = { readonly [name: string]: string | null | undefined };

/**
 * The `headers` option of a client: fixed headers, or a function called before every request
 * (it may be async), e.g. one that reads the request being served from an `AsyncLocalStorage`.
 *
 * @example The cookie of whichever request is being served
 * ```ts
 * import { AsyncLocalStorage } from "node:async_hooks";
 * import { createAuthClient, type HeadersOption } from "@app/fragment-cli/client";
 *
 * const incoming = new AsyncLocalStorage<Request>();
 * const headers: HeadersOption = () => ({ cookie: incoming.getStore()?.headers.get("cookie") });
 * export const auth = createAuthClient({ baseUrl: "http://127.0.0.1:8080/api/auth", headers });
 * // In the server's handler: incoming.run(request, () => render(request));
 * ```
 */
export type HeadersOption =
  | ClientHeaders
  | (() => ClientHeaders | null | undefined | Promise<ClientHeaders | null | undefined>);

/** How the client reaches the module (see `AuthClientOptions`). */
export interface TransportOptions {
  baseUrl: string;
  fetch?: AuthFetch;
  credentials?: RequestCredentials;
  token?: string | (() => string | null | undefined);
  headers?: HeadersOption;
}

/**
 * One request: method, path under the base URL, the query and JSON body if any, and this call's
 * own headers (over the client's) and abort signal.
 */
export interface CallInput {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: { readonly [name: string]: unknown };
  body?: unknown;
  headers?: ClientHeaders;
  signal?: AbortSignal;
}

/** Sends one request and resolves to its result; never rejects. */
export type Call = <T>(input: CallInput) => Promise<AuthResult<T>>;

/** Builds the {@link Call} of one client. */
export function createTransport(options: TransportOptions): Call {
  const base = options.baseUrl.replace(/\/+$/, "");
  const credentials = options.credentials ?? "include";
  return async <T>(input: CallInput): Promise<AuthResult<T>> => {
    const given = typeof options.headers === "function" ? await options.headers() : options.headers;
    const headers: Record<string, string> = { accept: "application/json" };
    // The call's own over the client's; a null or undefined value is no header, in either.
    for (const source of [given, input.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) {
        if (value !== null && value !== undefined) headers[name] = value;
      }
    }
    if (input.body !== undefined) headers["content-type"] = "application/json";
    const token = typeof options.token === "function" ? options.token() : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    // Looked up per call, so a test or polyfill replacing globalThis.fetch later is honoured.
    const send: AuthFetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    let response: Response;
    try {
      response = await send(base + input.path + queryString(input.query), {
        method: input.method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        credentials,
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (cause) {
      return failure({ status: 0, code: "NETWORK_ERROR", message: describe(cause) });
    }
    const text = await response.text().catch(() => null);
    if (response.ok) {
      if (response.status === 204) return { data: null as T, error: null };
      const data = parseJson(text);
      if (data === undefined) {
        return failure({
          status: response.status,
          code: "INVALID_RESPONSE",
          message: `Expected a JSON answer, got ${response.headers.get("content-type")}`,
        });
      }
      return { data: data as T, error: null };
    }
    return failure(errorOf(response, parseJson(text)));
  };
}

function failure<T>(error: AuthClientError): AuthResult<T> {
  return { data: null, error };
}

function queryString(query: CallInput["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The parsed JSON of `text`, `undefined` when it is none. */
function parseJson(text: string | null): unknown {
  if (text === null || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error of a non-2xx answer, from the module's `{"error": {"code", "message"}}` body. */
function errorOf(response: Response, body: unknown): AuthClientError {
  const error: AuthClientError = {
    status: response.status,
    code: "INVALID_RESPONSE",
    message: `HTTP ${response.status} without the module's error body`,
  };
  const payload = body as { error?: { code?: unknown; message?: unknown }; issues?: unknown };
  if (typeof payload?.error?.code === "string") {
    error.code = payload.error.code as AuthClientErrorCode;
    error.message = typeof payload.error.message === "string" ? payload.error.message : "";
  }
  if (Array.isArray(payload?.issues)) error.issues = payload.issues;
  const retryAfter = Number(response.headers.get("retry-after") ?? "NaN");
  if (Number.isFinite(retryAfter)) error.retryAfter = retryAfter;
  return error;
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
