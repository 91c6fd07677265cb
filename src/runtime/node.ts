import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AddressInUseError, type Listen } from "./listener.ts";

/** How long shutdown waits for in-flight requests before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Listens with Node's http server through `@hono/node-server`. */
export const listen: Listen = (fetch, { port, hostname }) => {
  const server = createAdaptorServer({ fetch }) as Server;
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new AddressInUseError(hostname, port, { cause: error })
          : error,
      );
    });
    server.listen(port, hostname, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
};
