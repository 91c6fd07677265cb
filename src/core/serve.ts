import process from "node:process";
import { composeModules } from "./compose_modules.ts";
import type { Listen } from "../runtime/listener.ts";
import type { ModuleInstance } from "./module_instance.ts";
import { staticFiles, staticMounts } from "./static_files.ts";

/**
 * Options of {@link serve}.
 *
 * @example A single-page app beside the API, on a port of the environment's choosing
 * ```ts
 * import type { ServeOptions } from "@app/fragment-cli";
 * import process from "node:process";
 *
 * const options: ServeOptions = {
 *   port: Number(process.env.PORT ?? 8080),
 *   hostname: "0.0.0.0",
 *   staticDir: "./dist",
 *   onShutdown: () => console.log("bye"),
 * };
 * ```
 */
export interface ServeOptions {
  /** Port to listen on; 0 picks a free one. @default 8080 */
  port?: number;
  /** Host to bind, shown as given in the server address. @default "localhost" */
  hostname?: string;
  /**
   * Shut down gracefully on SIGINT and SIGTERM, then exit the process with code 0.
   * @default true
   */
  handleSignals?: boolean;
  /**
   * A folder whose files are served at the paths no module is mounted at (`index.html` at `/`),
   * e.g. a single-page app; GET and HEAD only, nothing outside the folder. Mounts come first.
   */
  staticDir?: string;
  /**
   * Folders served at URL paths, e.g. `{ "/": "./dist", "/admin": "./admin/dist" }`: a request
   * under a path (`/admin/app.js`) is answered from its folder alone (longest path first), and the
   * path itself (`/admin`) redirects to `/admin/`. `staticDir` is `{ "/": staticDir }`; a `"/"`
   * here as well is a `TypeError`. Mounts come first.
   */
  staticDirs?: Readonly<Record<string, string>>;
  /** Runs after the server stopped and background work finished, before the process exits. */
  onShutdown?: () => void | Promise<void>;
  /**
   * On SIGINT or SIGTERM, how long the shutdown may take (in-flight requests, running hooks)
   * before the process exits anyway, with code 1: a hook attempt cut short is taken again by
   * another process once its lease ends. Requests that arrive meanwhile are answered 503 with
   * `Retry-After` and `Connection: close`.
   * @default 10000
   */
  shutdownGraceMs?: number;
}

/**
 * A running server, as {@link serve} resolves it.
 *
 * @example Stop the server from a test
 * ```ts ignore
 * import { createModule, serve } from "@app/fragment-cli";
 *
 * const server = await serve([createModule({ name: "empty", routes: [] })], {
 *   port: 0,
 *   handleSignals: false,
 * });
 * console.log(server.url, server.port);
 * await server.shutdown();
 * ```
 */
export interface RunningServer {
  /** The address as the user asked for it, e.g. `http://localhost:8080`. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** Stops accepting requests, lets in-flight ones finish, stops background work. */
  shutdown(): Promise<void>;
  /** Resolves once the server has shut down. */
  finished: Promise<void>;
}

/**
 * Serves modules on the current runtime (Deno, Bun, or Node through `@hono/node-server`). Each
 * module answers under its mount route; other paths get 404 with the list of mounts. The
 * background work of the modules (durable hook workers) runs in the same process.
 *
 * @example
 * ```ts ignore
 * import { createModule, route, serve } from "@app/fragment-cli";
 *
 * const ping = createModule({
 *   name: "ping",
 *   routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],
 * });
 * const server = await serve([ping], { port: 8080 });
 * console.log(`listening on ${server.url}`);
 * ```
 */
export async function serve(
  modules: readonly ModuleInstance[],
  options: ServeOptions = {},
): Promise<RunningServer> {
  const hostname = options.hostname ?? "localhost";
  const composed = composeModules(modules, { fallback: staticFallback(options) });
  let draining = false;
  // Once shutting down, a request that still reaches us (a kept-alive connection) is refused
  // at once, so the client retries elsewhere, instead of starting work the shutdown cuts short.
  const fetch = (request: Request, connection?: unknown): Promise<Response> =>
    draining ? Promise.resolve(drainingResponse()) : composed(request, connection);
  const { listen } = await runtimeAdapter();
  const listener = await listen(fetch, { port: options.port ?? 8080, hostname });
  const backgrounds = modules.flatMap((m) => (m.background ? [m.background] : []));
  await Promise.all(backgrounds.map((b) => b.start()));

  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    stopping ??= (async () => {
      draining = true;
      try {
        await listener.close();
        // close(): the workers and the drains an application may have left running. A module of
        // an older copy of this package has only its background's stop().
        await Promise.all(
          modules.map((m) => typeof m.close === "function" ? m.close() : m.background?.stop()),
        );
        await options.onShutdown?.();
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        resolveFinished();
      }
    })();
  const graceMs = options.shutdownGraceMs ?? 10_000;
  const onSignal = (): void => {
    setTimeout(() => {
      console.error(
        `Shutdown did not finish within ${graceMs} ms: exiting with work in flight ` +
          "(hook attempts cut short run again once their lease ends)",
      );
      process.exit(1);
    }, graceMs).unref();
    shutdown().then(() => process.exit(0), (error) => {
      console.error("Shutdown failed:", error);
      process.exit(1);
    });
  };
  if (options.handleSignals ?? true) {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const url = `http://${host}:${listener.port}`;
  for (const module of modules) module.servedAt?.(url);
  return { url, port: listener.port, shutdown, finished };
}

/** The answer to a request that arrives while the server shuts down. */
function drainingResponse(): Response {
  return Response.json(
    { error: { code: "SERVICE_UNAVAILABLE", message: "The server is shutting down; retry" } },
    { status: 503, headers: { "retry-after": "1", connection: "close" } },
  );
}

/** Loads the listen function of the runtime we run on; only that runtime's file is imported. */
async function runtimeAdapter(): Promise<{ listen: Listen }> {
  if ("Deno" in globalThis) return await import("../runtime/deno.ts");
  if ("Bun" in globalThis) return await import("../runtime/bun.ts");
  return await import("../runtime/node.ts");
}

/** The handler of `staticDir` and `staticDirs`, if any. */
function staticFallback(
  options: ServeOptions,
): ((request: Request) => Promise<Response | null>) | undefined {
  const { staticDir, staticDirs } = options;
  if (staticDirs === undefined) return staticDir === undefined ? undefined : staticFiles(staticDir);
  if (staticDir !== undefined && "/" in staticDirs) {
    throw new TypeError('serve(): staticDir and staticDirs["/"] both name the folder served at /');
  }
  return staticMounts(staticDir === undefined ? staticDirs : { ...staticDirs, "/": staticDir });
}
