/**
 * `deno task site [--port 8000] [--host localhost] [--docs docs]`: serves the reference site
 * (docs/ as HTML and Markdown, and `/api/search`) on any runtime, reading docs/ at start.
 * Prints `Reference site: http://<host>:<port>/docs (<n> pages)` once it listens.
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { parseArgs } from "node:util";
import { loadDocs } from "./load_docs.ts";
import { createDocsSite } from "./site.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    port: { type: "string", short: "p", default: "8000" },
    host: { type: "string", short: "H", default: "localhost" },
    docs: { type: "string", default: "docs" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`error: --port must be an integer from 0 to 65535, got "${values.port}"`);
  process.exit(2);
}
const pages = loadDocs(values.docs);
const site = createDocsSite(pages);
const server = serve({ fetch: site.fetch, port, hostname: values.host }, (info: AddressInfo) => {
  console.log(`Reference site: http://${values.host}:${info.port}/docs (${pages.length} pages)`);
});
const stop = (): void => {
  server.close(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
