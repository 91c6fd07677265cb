import { Hono } from "hono";
import { DatabaseUnavailableError, StatementTimeoutError } from "../sql/mod.ts";
import { PaginationError } from "../pagination/mod.ts";
import { invalidHostResponse } from "./host_header.ts";
import { errorResponse, HttpError, httpErrorResponse } from "./http_error.ts";
import { requireJsonContentType } from "./json_content_type.ts";
import { socketAddress } from "./client_address.ts";
import { readBodyText } from "./read_body.ts";
import type { Route } from "./route.ts";
import { isUnderMount, routePaths } from "./route_pattern.ts";
import { parseJsonBody, validateRequestPart } from "./validate.ts";

/** What {@link createModuleFetch} needs to know about a module. */
export interface ModuleAppOptions {
  name: string;
  mountRoute: string;
  routes: readonly Route[];
  bodyLimit: number;
}

/**
 * Builds the request handler of one module on a Hono app: validation before every handler,
 * the one error shape, 405 with `Allow`, HEAD for GET routes, body limit, 415 for a declared
 * body not labelled JSON, 400 for a malformed `Host`, logged 500s. A trailing slash is optional
 * (see {@link routePaths}).
 */
export function createModuleFetch(
  options: ModuleAppOptions,
): (request: Request, connection?: unknown) => Promise<Response> {
  const { name, mountRoute, routes, bodyLimit } = options;
  const app = new Hono<{ Bindings: ConnectionBindings }>({ strict: true });
  const methods = [...new Set(routes.map((r) => r.method))];

  for (const r of routes) {
    app.on(r.method, routePaths(mountRoute, r, routes), async (c) => {
      const declared = Number(c.req.header("content-length") ?? "NaN");
      if (Number.isFinite(declared) && declared > bodyLimit) {
        await readBodyText(c.req.raw, bodyLimit);
      }
      // A route that validates by itself (after its credential check) gets the raw values.
      const input = r.input ?? "validated";
      const check = input === "validated" ? r : undefined;
      const params = validateRequestPart(check?.params, c.req.param(), "params");
      const query = validateRequestPart(check?.query, c.req.query(), "query");
      const body = r.body && input !== "raw"
        ? validateRequestPart(check?.body, await readJson(c.req.raw), "body")
        : undefined;
      const env = c.env;
      const result = await r.handler({
        params,
        query,
        body,
        request: c.req.raw,
        // Worked out only for a handler that reads it (most do not: about 3 µs a request).
        get remoteAddress() {
          return env?.remoteAddress ?? null;
        },
      });
      if (result instanceof Response) return result;
      if (result === undefined) return new Response(null, { status: 204 });
      return new Response(JSON.stringify(result), {
        headers: { "content-type": "application/json" },
      });
    });
  }

  app.notFound((c) => {
    // The methods the router itself would dispatch on this path (the path it matched against), so
    // that every method a 405 names in `Allow` reaches a handler.
    const allowed = new Set<string>(
      methods.filter((method) => app.router.match(method, c.req.path)[0].length > 0),
    );
    if (allowed.size === 0) {
      return errorResponse(404, "NOT_FOUND", `No route ${c.req.method} ${c.req.path}`);
    }
    if (allowed.has("GET")) allowed.add("HEAD");
    allowed.add("OPTIONS");
    const allow = [...allowed].join(", ");
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow } });
    return errorResponse(
      405,
      "METHOD_NOT_ALLOWED",
      `Method ${c.req.method} is not allowed on ${c.req.path}`,
      {},
      { allow },
    );
  });

  app.onError((error) => renderError(name, error));

  /** The JSON body of a route that declares one: 415 unless labelled JSON, 413, 400. */
  async function readJson(request: Request): Promise<unknown> {
    requireJsonContentType(request);
    return parseJsonBody(await readBodyText(request, bodyLimit));
  }

  return async function moduleFetch(request: Request, connection?: unknown): Promise<Response> {
    const badHost = invalidHostResponse(request);
    if (badHost) return badHost;
    if (!isUnderMount(new URL(request.url).pathname, mountRoute)) {
      return errorResponse(404, "NOT_FOUND", `This path is not under ${mountRoute}`);
    }
    try {
      let address: string | null | undefined;
      const bindings: ConnectionBindings = {
        get remoteAddress() {
          return address === undefined ? (address = socketAddress(request, connection)) : address;
        },
      };
      return await app.fetch(request, bindings);
    } catch (error) {
      return renderError(name, error);
    }
  };
}

/** What the module's Hono app sees of the connection (its `c.env`). */
interface ConnectionBindings {
  remoteAddress: string | null;
}

/**
 * Seconds a client should wait before retrying while the database is unreachable, or busy enough
 * that its pool has no free connection or a statement ran past its `statement_timeout`.
 */
const UNAVAILABLE_RETRY_AFTER = "5";

function renderError(moduleName: string, error: unknown): Response {
  if (error instanceof HttpError) return httpErrorResponse(error);
  // Domain errors of the database layer, translated at this one boundary.
  if (error instanceof PaginationError) return errorResponse(400, error.code, error.message);
  // A cancelled statement is an overload like an exhausted pool, answered the same way, but logged
  // under its own name: the server is up, one statement ran too long.
  if (error instanceof StatementTimeoutError) {
    console.error(`[${moduleName}] StatementTimeoutError: ${error.message}`);
    return errorResponse(
      503,
      "SERVICE_UNAVAILABLE",
      "A database statement took too long and was cancelled; retry later",
      {},
      { "retry-after": UNAVAILABLE_RETRY_AFTER },
    );
  }
  if (error instanceof DatabaseUnavailableError) {
    console.error(`[${moduleName}] database unavailable: ${error.message}`);
    return errorResponse(
      503,
      "SERVICE_UNAVAILABLE",
      "The database is unavailable; retry later",
      {},
      { "retry-after": UNAVAILABLE_RETRY_AFTER },
    );
  }
  console.error(`[${moduleName}] unhandled error:`, error);
  return errorResponse(500, "INTERNAL_ERROR", "Internal server error");
}
