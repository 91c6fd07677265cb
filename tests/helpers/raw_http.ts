/**
 * One raw HTTP/1.1 request over a socket, for what `fetch` would not send as written: a chosen
 * `Host` line, or a path with `..` segments, backslashes or encoded bytes left unnormalized.
 *
 * @example
 * ```ts ignore
 * import { rawRequest } from "./raw_http.ts";
 *
 * const response = await rawRequest(8080, { method: "GET", path: "/../x", host: "localhost" });
 * console.log(response.status, response.body);
 * ```
 *
 * @module
 */
import { connect } from "node:net";

/**
 * Sends one request with exactly the request line and `Host` line given to 127.0.0.1:`port` and
 * answers the status and the body text (a chunked body decoded). `body` goes as JSON.
 */
export function rawRequest(
  port: number,
  request: { method: string; path: string; host: string; body?: string },
): Promise<{ status: number; headers: string; body: string }> {
  const body = request.body ?? "";
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${request.host}`,
    "Connection: close",
    ...(body ? ["Content-Type: application/json", `Content-Length: ${body.length}`] : []),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? "0");
      const end = text.indexOf("\r\n\r\n");
      const headers = end < 0 ? text : text.slice(0, end);
      const rest = end < 0 ? "" : text.slice(end + 4);
      // A chunked body: keep the payload, drop the size lines.
      const chunked = /transfer-encoding:\s*chunked/i.test(headers);
      resolve({ status, headers, body: chunked ? dechunk(rest) : rest });
    });
  });
}

function dechunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
