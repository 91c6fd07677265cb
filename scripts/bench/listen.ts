/**
 * How the reference servers of the benchmark listen: the same server each runtime's adapter of
 * `serve()` uses (`Deno.serve`, `Bun.serve`, Node's http through `@hono/node-server`), so the
 * reference and our side differ only in the handler. The one bench file that knows the runtime.
 *
 * @module
 */
import { createAdaptorServer } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";

/** Listens on 127.0.0.1 and a free port; prints `listening on http://127.0.0.1:<port>`. */
export async function listenForBench(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<number> {
  let port: number;
  if ("Deno" in globalThis) {
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, fetch);
    port = server.addr.port;
  } else if ("Bun" in globalThis) {
    // @ts-ignore: Bun's global only exists on Bun.
    port = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch }).port;
  } else {
    const server = createAdaptorServer({ fetch }) as Server;
    port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
    );
  }
  console.log(`listening on http://127.0.0.1:${port}`);
  return port;
}
