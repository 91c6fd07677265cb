/**
 * The reference site as a deployable module (Deno Deploy, `deno serve`, Bun, Cloudflare-style
 * runtimes): `export default { fetch }` over the docs/ folder of this repository.
 *
 * ```sh
 * deno serve -A --port 8000 scripts/site/deploy.ts
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { loadDocs } from "./load_docs.ts";
import { createDocsSite } from "./site.ts";

const site = createDocsSite(loadDocs(fileURLToPath(new URL("../../docs", import.meta.url))));

export default { fetch: site.fetch } satisfies { fetch(request: Request): Response };
