/**
 * Reads the webhook body as text, counting bytes as they arrive: the module reads the raw text
 * itself (to keep it verbatim), so a chunked body without Content-Length must be bounded here.
 *
 * @module
 */

import { HttpError } from "../core/mod.ts";

/**
 * The body of `request` as UTF-8 text, at most `limit` bytes.
 *
 * @param request The request (its body not yet read).
 * @param limit The largest accepted size in bytes.
 * @returns The text.
 * @throws {HttpError} 413 `PAYLOAD_TOO_LARGE` beyond the limit, 400 `INVALID_BODY` for bytes that
 * are not UTF-8.
 */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "INVALID_BODY", "Request body is not valid UTF-8");
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds the limit of ${limit} bytes`,
  );
}
