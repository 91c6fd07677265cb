import { HttpError } from "./http_error.ts";

/** The default request body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a request body as text, refusing (413) more than `limit` bytes without buffering them:
 * the declared Content-Length is checked first, then the stream is counted as it arrives
 * (chunked bodies have no Content-Length to trust).
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(limit);
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
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "INVALID_BODY", "Request body is not valid UTF-8");
  }
}

function payloadTooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds the limit of ${limit} bytes`,
  );
}
