// Kept apart from search_client.ts (which loads zod) so `search --help` stays cheap.

/**
 * The project's reference site, searched by `fragment-cli search` unless `--base-url` (or the
 * {@link SEARCH_URL_ENV} variable) says otherwise. It serves docs/ and `GET /api/search`.
 */
export const DEFAULT_SEARCH_BASE_URL = "https://fragment-cli.dev";

/** Environment variable that replaces {@link DEFAULT_SEARCH_BASE_URL} (a mirror, a local site). */
export const SEARCH_URL_ENV = "FRAGMENT_CLI_SEARCH_URL";
