import process from "node:process";
import type { SearchHit } from "../search/mod.ts";
import { VERSION } from "../version.ts";
import { type CliIo, type CommandArgs, UsageError } from "./command.ts";
import {
  DEFAULT_SEARCH_BASE_URL,
  fetchSearchHits,
  parseBaseUrl,
  SEARCH_URL_ENV,
  searchEndpoint,
  SiteAnswerError,
  SiteUnavailableError,
} from "./search_client.ts";
import { groupSearchHits, renderSearchMarkdown } from "./search_results.ts";

/** Runs `search`; loaded only when the command runs (see `search_command.ts`). */
export async function runSearch(args: CommandArgs, io: CliIo): Promise<number> {
  const query = args.positionals.join(" ").trim();
  if (query === "") throw new UsageError("a <query> to search for is missing");
  const limit = parsePositiveInteger(args.values.limit, "--limit", 10);
  const timeoutMs = parseSeconds(args.values.timeout, "--timeout", 10) * 1000;
  const explicit = args.values["base-url"];
  const envUrl = process.env[SEARCH_URL_ENV];
  const base = typeof explicit === "string"
    ? parseBaseUrl(explicit)
    : envUrl
    ? parseBaseUrl(envUrl, SEARCH_URL_ENV)
    : parseBaseUrl(DEFAULT_SEARCH_BASE_URL);

  let hits: SearchHit[];
  try {
    hits = await fetchSearchHits(searchEndpoint(base, query), timeoutMs);
  } catch (error) {
    const siteFailed = error instanceof SiteUnavailableError || error instanceof SiteAnswerError;
    if (typeof explicit === "string" || !siteFailed) throw error;
    // The default site is a convenience: whatever went wrong with it, the same docs ship in the
    // package, so answer from them and say why.
    io.stderr(
      `note: ${error.message}; searching the docs bundled with fragment-cli ${VERSION} instead\n`,
    );
    const { createDocsSearch, DOCS_INDEX } = await import("../search/mod.ts");
    hits = createDocsSearch(DOCS_INDEX).search(query);
  }

  const pages = groupSearchHits(hits, base);
  const shown = pages.slice(0, limit);
  io.stdout(
    args.values.json === true
      ? `${JSON.stringify(shown, null, 2)}\n`
      : renderSearchMarkdown(query, shown, pages.length),
  );
  return 0;
}

function parsePositiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value.trim()) || number < 1) {
    throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  }
  return number;
}

function parseSeconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (typeof value !== "string" || value.trim() === "" || !(number > 0) || number > 3600) {
    throw new UsageError(
      `${name} must be a number of seconds above 0 (at most 3600), got "${value}"`,
    );
  }
  return number;
}
