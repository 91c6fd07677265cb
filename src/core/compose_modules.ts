import { invalidHostResponse } from "./host_header.ts";
import { errorResponse } from "./http_error.ts";
import type { ModuleInstance } from "./module_instance.ts";
import { isUnderMount } from "./route_pattern.ts";

/**
 * Raised when two modules would be mounted on the same route.
 *
 * @example
 * ```ts
 * import { composeModules, createModule, DuplicateMountError } from "@app/fragment-cli";
 *
 * const a = createModule({ name: "a", routes: [], mountRoute: "/api/shared" });
 * const b = createModule({ name: "b", routes: [], mountRoute: "/api/shared" });
 * try {
 *   composeModules([a, b]);
 * } catch (error) {
 *   if (error instanceof DuplicateMountError) console.log(error.mountRoute); // "/api/shared"
 * }
 * ```
 */
export class DuplicateMountError extends Error {
  /** The mount route both modules claim. */
  readonly mountRoute: string;
  /**
   * An error naming both modules and the route they claim.
   *
   * @param mountRoute The route both modules claim.
   * @param first The name of the module mounted there first.
   * @param second The name of the module that claimed it again.
   */
  constructor(mountRoute: string, first: string, second: string) {
    super(`Modules "${first}" and "${second}" are both mounted on ${mountRoute}`);
    this.name = "DuplicateMountError";
    this.mountRoute = mountRoute;
  }
}

/**
 * Options of {@link composeModules}.
 *
 * @example Answer the paths no module has with a page of your own
 * ```ts
 * import { composeModules, type ComposeOptions, createModule } from "@app/fragment-cli";
 *
 * const options: ComposeOptions = {
 *   fallback: async (request) =>
 *     new URL(request.url).pathname === "/" ? new Response("<h1>Home</h1>") : null,
 * };
 * const fetch = composeModules([createModule({ name: "empty", routes: [] })], options);
 * ```
 */
export interface ComposeOptions {
  /**
   * Answers the requests no module is mounted for (e.g. static files); `null` leaves them to the
   * 404 with the list of mounts. Mounts always come first.
   */
  fallback?: (request: Request) => Promise<Response | null>;
}

/**
 * Combines modules into one `fetch` handler. Each module answers the paths under its mount route
 * (on a segment boundary: `/api/auth` does not catch `/api/authx`); any other path gets 404 with
 * the list of mounts: `{"error": {...}, "availableRoutes": ["/api/auth", …]}`. A malformed `Host`
 * header is a 400 `INVALID_HOST` before any routing (runtimes build the URL from it).
 *
 * @example
 * ```ts
 * import { composeModules, createModule, route } from "@app/fragment-cli";
 *
 * const ping = createModule({
 *   name: "ping",
 *   routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],
 * });
 * const fetch = composeModules([ping]);
 * console.log((await fetch(new Request("http://localhost/nope"))).status); // 404
 * ```
 */
export function composeModules(
  modules: readonly ModuleInstance[],
  options: ComposeOptions = {},
): (request: Request, connection?: unknown) => Promise<Response> {
  const byMount = new Map<string, ModuleInstance>();
  for (const module of modules) {
    const existing = byMount.get(module.mountRoute);
    if (existing && existing !== module) {
      throw new DuplicateMountError(module.mountRoute, existing.name, module.name);
    }
    byMount.set(module.mountRoute, module);
  }
  // Longest mount first, so `/api/a/b` wins over `/api/a` for its own paths.
  const ordered = [...byMount.values()].sort((a, b) => b.mountRoute.length - a.mountRoute.length);
  const availableRoutes = [...byMount.keys()].sort();
  return async function composedFetch(request: Request, connection?: unknown): Promise<Response> {
    const badHost = invalidHostResponse(request);
    if (badHost) return badHost;
    let pathname: string;
    try {
      pathname = new URL(request.url).pathname;
    } catch {
      return errorResponse(400, "BAD_REQUEST", "Request URL is not valid");
    }
    const module = ordered.find((m) => isUnderMount(pathname, m.mountRoute));
    // The runtime's connection argument goes through untouched: the module reads the address.
    if (module) return await module.fetch(request, connection);
    const fallback = await options.fallback?.(request);
    if (fallback) return fallback;
    return errorResponse(404, "NOT_FOUND", `No module is mounted at ${pathname}`, {
      availableRoutes,
    });
  };
}
