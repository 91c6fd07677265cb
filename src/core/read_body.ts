import { HttpError } from "./http_error.ts";

/** The default request body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Options of {@link readBodyText}. */
export interface ReadBodyTextOptions {
  /**
   * Keep a leading UTF-8 byte order mark in the text (for storing a body verbatim).
   * @default false
   */
  keepByteOrderMark?: boolean;
}

/**
 * Reads a request body as UTF-8 text, refusing (413 `PAYLOAD_TOO_LARGE`) more than `limit` bytes
 * without buffering them: the declared Content-Length is checked first, then the stream is
 * counted as it arrives (chunked bodies have no Content-Length to trust). Bytes that are not
 * UTF-8 are a 400 `INVALID_BODY`. For handlers that need the raw text of a body they do not
 * declare as a `body` schema.
 *
 * @example
 * ```ts
 * import { readBodyText } from "@app/fragment-cli";
 *
 * const text = await readBodyText(new Request("http://x", { method: "POST", body: "hi" }), 1024);
 * console.log(text); // "hi"
 * ```
 */
export async function readBodyText(
  request: Request,
  limit: number,
  options: ReadBodyTextOptions = {},
): Promise<string> {
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
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: options.keepByteOrderMark ?? false })
      .decode(bytes);
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
