import { z } from "zod";
import type { SearchHit } from "../search/mod.ts";
import { CliError, UsageError } from "./command.ts";

import { DEFAULT_SEARCH_BASE_URL, SEARCH_URL_ENV } from "./search_defaults.ts";

export { DEFAULT_SEARCH_BASE_URL, SEARCH_URL_ENV };

/** The site could not be asked: a network error or no answer in time. */
export class SiteUnavailableError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SiteUnavailableError";
  }
}

/** The site answered, but not with search results: an HTTP error, bad JSON or a wrong shape. */
export class SiteAnswerError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = "SiteAnswerError";
  }
}

/**
 * Reads a site address: a full http(s) URL (its path kept, so a site under `/docs-site/` works)
 * or a bare host, which means https. Anything else is a usage error naming `source`.
 */
export function parseBaseUrl(input: string, source = "--base-url"): URL {
  const text = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`${source} must be an http(s) URL or a host name, got "${input}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${source} must use http or https, got "${url.protocol.slice(0, -1)}"`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source} must not have a query or fragment, got "${input}"`);
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** `<base>/api/search?query=<query>`. */
export function searchEndpoint(base: URL, query: string): URL {
  const url = new URL("api/search", base);
  url.searchParams.set("query", query);
  return url;
}

const hitsSchema = z.array(
  z.object({
    id: z.string(),
    type: z.enum(["page", "heading", "text"]),
    content: z.string(),
    url: z.string(),
    breadcrumbs: z.array(z.string()).optional(),
  }),
);

/**
 * Asks `endpoint` for search hits. Throws {@link SiteUnavailableError} when it cannot be reached
 * or does not answer (headers and body) within `timeoutMs`, {@link SiteAnswerError} when the
 * answer is not a search hit list. Each message is one line naming the URL and the cause.
 */
export async function fetchSearchHits(endpoint: URL, timeoutMs: number): Promise<SearchHit[]> {
  const signal = AbortSignal.timeout(timeoutMs);
  const where = endpoint.href;
  let text: string;
  let response: Response;
  try {
    response = await fetch(endpoint, { signal, headers: { accept: "application/json" } });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) {
      throw new SiteUnavailableError(`${where} did not answer within ${timeoutMs / 1000} s`, {
        cause: error,
      });
    }
    throw new SiteUnavailableError(`cannot reach ${where}: ${networkCause(error)}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    throw new SiteAnswerError(
      `${where} answered HTTP ${response.status}${
        response.statusText ? ` ${response.statusText}` : ""
      }`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const type = response.headers.get("content-type") ?? "no content type";
    throw new SiteAnswerError(
      `${where} answered ${type} that is not JSON (${firstLine(error)})`,
    );
  }
  const parsed = hitsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.length > 0 ? `at ${issue.path.join(".")}: ` : "";
    throw new SiteAnswerError(
      `${where} answered JSON that is not a list of search hits (${path}${issue.message})`,
    );
  }
  return parsed.data;
}

/** The most telling line of a network failure: Node hides it in `cause`, Deno and Bun do not. */
function networkCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message) return firstLine(cause);
  return firstLine(error);
}

function firstLine(error: unknown): string {
  // Deno repeats the URL and wraps the cause: "error sending request for url (…): client error
  // (Connect): dns error: …"; the URL is already in our message.
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]
    .replace(/^error sending request for url \([^)]*\): /, "")
    .replace(/^client error \(Connect\): /, "");
}
