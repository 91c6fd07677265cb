/**
 * A throwaway HTTP server on 127.0.0.1 and a free port, for tests that need a real socket: a
 * Web `fetch` handler or a raw Node listener (to answer badly, or never).
 *
 * @example
 * ```ts
 * import { listenLocal } from "./local_server.ts";
 *
 * const server = await listenLocal(() => Response.json([]));
 * await fetch(`${server.url}/api/search?query=x`);
 * await server.close();
 * ```
 */
import { createAdaptorServer } from "@hono/node-server";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening server. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** Cuts open connections (a handler that never answers holds one) and stops listening. */
  close(): Promise<void>;
}

/** Listens with a Web `fetch` handler or, when `raw` is set, a Node request listener. */
export function listenLocal(
  handler: ((request: Request) => Response | Promise<Response>) | { raw: RequestListener },
): Promise<LocalServer> {
  const server: Server = "raw" in handler
    ? createServer(handler.raw)
    // Bun runs every test file in one process: the adapter must not swap the global Response
    // for its own, or Bun.serve in later files refuses the handlers' responses.
    : createAdaptorServer({ fetch: handler, overrideGlobalObjects: false }) as Server;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A port nothing listens on (bound once, then released), for connection-refused tests. */
export async function closedPort(): Promise<number> {
  const server = await listenLocal({ raw: () => {} });
  await server.close();
  return server.port;
}
