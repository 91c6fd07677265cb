import type { CliIo, Command, CommandArgs } from "./command.ts";
import { importRun } from "./import_run.ts";
import { DEFAULT_SEARCH_BASE_URL, SEARCH_URL_ENV } from "./search_defaults.ts";

/**
 * `fragment-cli search <query…>`: asks the reference site's `/api/search`, groups the hits by
 * page and prints Markdown or, with `--json`, only a JSON array of pages. When the default site
 * fails (offline, down, not answering in time) it searches the docs index bundled with the
 * package and says so on stderr; an explicit `--base-url` never falls back.
 */
export const searchCommand: Command = {
  name: "search",
  summary: "Search the reference docs (offline: the docs bundled with this version)",
  usage: "search <query…> [options]",
  options: {
    limit: {
      type: "string",
      valueName: "pages",
      description: "Maximum number of pages to show",
      default: "10",
    },
    json: {
      type: "boolean",
      description: "Print only a JSON array of {title, url, mdUrl, breadcrumbs, sections}",
    },
    "base-url": {
      type: "string",
      valueName: "url",
      description: `Site to search; a bare host means https; never falls back offline ` +
        `(${SEARCH_URL_ENV} replaces the default and keeps the fallback)`,
      default: DEFAULT_SEARCH_BASE_URL,
    },
    timeout: {
      type: "string",
      valueName: "seconds",
      description: "How long to wait for the site",
      default: "10",
    },
  },
  examples: [
    "search db migrate",
    "search organization invitations --limit 3",
    "search webhook secret --json",
    "search serve --base-url http://localhost:8000",
  ],
  run: async (args: CommandArgs, io: CliIo): Promise<number> =>
    (await importRun<typeof import("./search_run.ts")>("./search_run.ts")).runSearch(args, io),
};
