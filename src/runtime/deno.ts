import { AddressInUseError, type Listen } from "./listener.ts";

/** Listens with `Deno.serve`. The only file of the HTTP layer that knows Deno. */
export const listen: Listen = (fetch, { port, hostname }) => {
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      { port, hostname, onListen: () => {} },
      (request, info) => fetch(request, info),
    );
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new AddressInUseError(hostname, port, { cause: error });
    }
    throw error;
  }
  return Promise.resolve({
    port: server.addr.port,
    close: () => server.shutdown(),
  });
};
