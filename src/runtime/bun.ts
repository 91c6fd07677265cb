import { AddressInUseError, type Listen } from "./listener.ts";

interface BunServer {
  port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
interface BunGlobal {
  serve(options: {
    port: number;
    hostname: string;
    fetch: (request: Request, server: unknown) => Promise<Response>;
  }): BunServer;
}

/** Listens with `Bun.serve`. The only file of the HTTP layer that knows Bun. */
export const listen: Listen = (fetch, { port, hostname }) => {
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  let server: BunServer;
  try {
    server = bun.serve({ port, hostname, fetch });
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") {
      throw new AddressInUseError(hostname, port, { cause: error });
    }
    throw error;
  }
  return Promise.resolve({ port: server.port, close: () => server.stop(false) });
};
