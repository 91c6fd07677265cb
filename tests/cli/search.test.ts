import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runScript, type ScriptResult } from "../helpers/spawn_runtime.ts";
import { closedPort, listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { loadDocs } from "../../scripts/site/load_docs.ts";
import { createDocsSite } from "../../scripts/site/site.ts";
import { createDocsSearch, DOCS_INDEX, type SearchHit } from "../../src/search/mod.ts";

const cli = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const fixtureDocs = fileURLToPath(new URL("../fixtures/search_docs", import.meta.url));

interface PageJson {
  title: string;
  url: string;
  mdUrl: string;
  breadcrumbs: string[];
  sections: { type: string; content: string; url: string }[];
}

/** Runs `cli.ts search …` with no search address in the environment unless given. */
function search(args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  const base = { ...process.env };
  delete base.FRAGMENT_CLI_SEARCH_URL;
  return runScript(cli, ["search", ...args], { env: { ...base, ...env } });
}

function parseJson(result: ScriptResult): PageJson[] {
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** The one stderr line of a failure: `error: …`. */
function failureLine(result: ScriptResult): string {
  assert.equal(result.code, 1, result.stdout);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  return lines[0];
}

describe("fragment-cli search against the reference site", () => {
  let site: LocalServer;
  before(async () => {
    site = await listenLocal(createDocsSite(loadDocs(fixtureDocs)).fetch);
  });
  after(() => site.close());

  async function rawHits(query: string): Promise<SearchHit[]> {
    const response = await fetch(`${site.url}/api/search?query=${encodeURIComponent(query)}`);
    return await response.json();
  }

  it("groups the hits by page and keeps the site's rank order", async () => {
    const hits = await rawHits("lantern");
    const pages = parseJson(await search(["lantern", "--json", "--base-url", site.url]));
    const pageUrls = [...new Set(hits.map((h) => h.url.split("#")[0]))];
    assert.ok(pageUrls.length >= 3, "the fixture query matches three pages");
    assert.deepEqual(pages.map((p) => new URL(p.url).pathname), pageUrls);
    for (const page of pages) {
      const path = new URL(page.url).pathname;
      const own = hits.filter((h) => h.url.split("#")[0] === path);
      assert.equal(page.title, own.find((h) => h.type === "page")!.content);
      assert.deepEqual(
        page.sections,
        own.filter((h) => h.type !== "page").map((h) => ({
          type: h.type,
          content: h.content,
          url: `${site.url}${h.url}`,
        })),
      );
      assert.equal(page.mdUrl, `${page.url}.md`);
    }
    assert.deepEqual(pages[0].title, "Lanterns");
    assert.deepEqual(pages.find((p) => p.title === "Night harbour")!.breadcrumbs, ["Guides"]);
  });

  it("--limit counts pages, not raw hits", async () => {
    const hits = await rawHits("lantern");
    assert.ok(hits.slice(0, 2).every((h) => h.url.startsWith("/docs/lanterns")));
    const pages = parseJson(
      await search(["lantern", "--limit", "2", "--json", "--base-url", site.url]),
    );
    assert.equal(pages.length, 2);
    assert.ok(pages.every((p) => p.sections.length > 0));
    const markdown = await search(["lantern", "--limit", "2", "--base-url", site.url]);
    assert.equal(markdown.code, 0);
    assert.match(markdown.stdout, /^Found 3 pages for "lantern" \(showing 2; raise --limit/);
    assert.equal(markdown.stdout.match(/^## /gm)?.length, 2);
  });

  it("prints Markdown: per page title, breadcrumbs, URL, .md URL and sections", async () => {
    const result = await search(["lantern", "signals", "--base-url", `${site.url}/`]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.equal(
      result.stdout,
      [
        `Found 1 page for "lantern signals"`,
        "",
        "## Night harbour",
        "",
        "Breadcrumbs: Guides",
        `URL: ${site.url}/docs/guides/night-harbour`,
        `Markdown: ${site.url}/docs/guides/night-harbour.md`,
        "",
        "Relevant sections:",
        "- **Lantern signals** (#lantern-signals)",
        "- One lantern means berth free; two lanterns mean berth taken. (#lantern-signals)",
        "",
      ].join("\n"),
    );
  });

  it("--json prints only the JSON array on stdout", async () => {
    const result = await search(["bowline", "--json", "--base-url", site.url]);
    assert.equal(result.stderr, "");
    assert.deepEqual(parseJson(result), [{
      title: "Ropes",
      url: `${site.url}/docs/ropes`,
      mdUrl: `${site.url}/docs/ropes.md`,
      breadcrumbs: [],
      sections: [{
        type: "text",
        content: "A bowline holds under load. Hang a lantern from a bowline at the bow.",
        url: `${site.url}/docs/ropes#knots`,
      }],
    }]);
  });

  it("no results: says so and exits 0 ([] with --json)", async () => {
    const result = await search(["quasar", "--base-url", site.url]);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, 'No results for "quasar".\n');
    assert.deepEqual(parseJson(await search(["quasar", "--json", "--base-url", site.url])), []);
  });

  it("the sections' anchors exist on the served pages", async () => {
    const pages = parseJson(await search(["lantern", "--json", "--base-url", site.url]));
    for (const page of pages) {
      const html = await (await fetch(page.url)).text();
      for (const section of page.sections) {
        const anchor = new URL(section.url).hash.slice(1);
        if (anchor) assert.ok(html.includes(` id="${anchor}"`), `${page.url} has #${anchor}`);
      }
      const markdown = await fetch(page.mdUrl);
      assert.match(markdown.headers.get("content-type") ?? "", /^text\/markdown/);
      assert.match(await markdown.text(), new RegExp(`^# ${page.title}`));
    }
  });
});

describe("fragment-cli search against a site that fails", () => {
  const servers: LocalServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  async function server(
    ...args: Parameters<typeof listenLocal>
  ): Promise<LocalServer> {
    const started = await listenLocal(...args);
    servers.push(started);
    return started;
  }

  it("HTTP 500: exit 1, one line naming the URL and the status", async () => {
    const failing = await server(() => new Response("boom", { status: 500 }));
    const line = failureLine(await search(["hooks", "--base-url", failing.url]));
    assert.equal(
      line,
      `error: ${failing.url}/api/search?query=hooks answered HTTP 500 Internal Server Error`,
    );
  });

  it("not JSON: exit 1, one line naming the URL and the cause", async () => {
    const html = await server(() =>
      new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } })
    );
    const line = failureLine(await search(["hooks", "--json", "--base-url", html.url]));
    assert.match(
      line,
      new RegExp(
        `^error: ${html.url}/api/search\\?query=hooks answered text/html that is not JSON`,
      ),
    );
  });

  it("JSON of another shape: exit 1, one line saying where it differs", async () => {
    const wrong = await server(() => Response.json({ results: [] }));
    const line = failureLine(await search(["hooks", "--base-url", wrong.url]));
    assert.match(line, /answered JSON that is not a list of search hits/);
    const badType = await server(() =>
      Response.json([{ id: "a", type: "section", content: "x", url: "/docs/a" }])
    );
    assert.match(
      failureLine(await search(["hooks", "--base-url", badType.url])),
      /not a list of search hits \(at 0\.type: /,
    );
  });

  it("no answer: exit 1 after --timeout, one line naming the URL", async () => {
    const silent = await server({ raw: () => {} });
    const line = failureLine(
      await search(["hooks", "--timeout", "0.3", "--base-url", silent.url]),
    );
    assert.equal(line, `error: ${silent.url}/api/search?query=hooks did not answer within 0.3 s`);
  });

  it("an explicit --base-url that cannot be reached does not fall back", async () => {
    const port = await closedPort();
    const line = failureLine(await search(["hooks", "--base-url", `http://127.0.0.1:${port}`]));
    assert.match(
      line,
      new RegExp(`^error: cannot reach http://127\\.0\\.0\\.1:${port}/api/search`),
    );
  });

  it("a bare host means https", async () => {
    const port = await closedPort();
    const line = failureLine(await search(["hooks", "--base-url", `127.0.0.1:${port}`]));
    assert.match(
      line,
      new RegExp(`^error: cannot reach https://127\\.0\\.0\\.1:${port}/api/search`),
    );
  });
});

describe("fragment-cli search offline", () => {
  // A site answering from the bundled index: the fallback must print what the online path
  // prints for the same hits. (That the index matches docs/ is tests/search/docs_index.test.ts.)
  let site: LocalServer;
  before(async () => {
    const bundled = createDocsSearch(DOCS_INDEX);
    site = await listenLocal((request) =>
      Response.json(bundled.search(new URL(request.url).searchParams.get("query") ?? ""))
    );
  });
  after(() => site.close());

  it("falls back to the bundled index when the default site is unreachable, and says so", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    for (const query of ["migration", "runtime tests"]) {
      const offline = await search([query, "--json"], { FRAGMENT_CLI_SEARCH_URL: dead });
      assert.equal(offline.code, 0, offline.stderr);
      assert.match(
        offline.stderr,
        new RegExp(
          `^note: cannot reach ${dead}/api/search\\?query=\\S+: .+; searching the docs bundled with fragment-cli \\S+ instead\\n$`,
        ),
      );
      const pages: PageJson[] = JSON.parse(offline.stdout);
      assert.ok(pages.length > 0, query);
      const online = parseJson(await search([query, "--json", "--base-url", site.url]));
      assert.equal(
        JSON.stringify(pages).replaceAll(dead, "<site>"),
        JSON.stringify(online).replaceAll(site.url, "<site>"),
        query,
      );
    }
  });

  it("`search telegram webhook` finds the Telegram bots page first", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const pages = parseJson(
      await search(["telegram", "webhook", "--json"], { FRAGMENT_CLI_SEARCH_URL: dead }),
    );
    assert.equal(pages[0]?.url, `${dead}/docs/telegram`, JSON.stringify(pages.map((p) => p.url)));
    assert.equal(pages[0].title, "Telegram bots");
  });

  it("prints Markdown from the bundled index with the default site's URLs", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const result = await search(["migration"], { FRAGMENT_CLI_SEARCH_URL: dead });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Found \d+ pages? for "migration"/);
    assert.match(result.stdout, new RegExp(`^URL: ${dead}/docs/\\S+$`, "m"));
  });
});

describe("fragment-cli search against any site serving the search JSON", () => {
  let canned: LocalServer;
  const asked: string[] = [];
  before(async () => {
    canned = await listenLocal((request) => {
      asked.push(new URL(request.url).pathname + new URL(request.url).search);
      // Fumadocs answers page hits before their sections; grouping must not rely on it.
      return Response.json([
        {
          id: "hooks-1",
          type: "heading",
          content: "Durable hooks",
          url: "/docs/guides/hooks#durable-hooks",
          breadcrumbs: ["Guides", "Background work"],
        },
        {
          id: "hooks",
          type: "page",
          content: "Hooks",
          url: "/docs/guides/hooks",
          breadcrumbs: ["Guides", "Background work"],
        },
        {
          id: "webhook",
          type: "page",
          content: "Webhook",
          url: "https://docs.example.org/docs/webhook",
        },
        {
          id: "webhook-2",
          type: "text",
          content: "Retries with the same update_id are\nacknowledged once.",
          url: "https://docs.example.org/docs/webhook#retries",
          contentWithHighlights: [{ content: "ignored" }],
        },
        { id: "hooks-2", type: "text", content: "Hooks retry.", url: "/docs/guides/hooks#retry" },
      ]);
    });
  });
  after(() => canned.close());

  it("groups by page in first-seen order, with breadcrumbs and #anchors", async () => {
    const pages = parseJson(
      await search(["hook", "retry", "--json", "--base-url", `${canned.url}/sub`]),
    );
    assert.deepEqual(asked, ["/sub/api/search?query=hook+retry"]);
    assert.deepEqual(pages, [
      {
        title: "Hooks",
        url: `${canned.url}/docs/guides/hooks`,
        mdUrl: `${canned.url}/docs/guides/hooks.md`,
        breadcrumbs: ["Guides", "Background work"],
        sections: [
          {
            type: "heading",
            content: "Durable hooks",
            url: `${canned.url}/docs/guides/hooks#durable-hooks`,
          },
          { type: "text", content: "Hooks retry.", url: `${canned.url}/docs/guides/hooks#retry` },
        ],
      },
      {
        title: "Webhook",
        url: "https://docs.example.org/docs/webhook",
        mdUrl: "https://docs.example.org/docs/webhook.md",
        breadcrumbs: [],
        sections: [{
          type: "text",
          content: "Retries with the same update_id are\nacknowledged once.",
          url: "https://docs.example.org/docs/webhook#retries",
        }],
      },
    ]);
  });

  it("prints the same grouping as Markdown", async () => {
    const result = await search(["hook", "--base-url", canned.url]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      [
        'Found 2 pages for "hook"',
        "",
        "## Hooks",
        "",
        "Breadcrumbs: Guides › Background work",
        `URL: ${canned.url}/docs/guides/hooks`,
        `Markdown: ${canned.url}/docs/guides/hooks.md`,
        "",
        "Relevant sections:",
        "- **Durable hooks** (#durable-hooks)",
        "- Hooks retry. (#retry)",
        "",
        "---",
        "",
        "## Webhook",
        "",
        "URL: https://docs.example.org/docs/webhook",
        "Markdown: https://docs.example.org/docs/webhook.md",
        "",
        "Relevant sections:",
        "- Retries with the same update_id are acknowledged once. (#retries)",
        "",
      ].join("\n"),
    );
  });
});

describe("fragment-cli search usage errors", () => {
  for (
    const [args, reason] of [
      [[], /a <query> to search for is missing/],
      [["x", "--limit", "0"], /--limit must be a positive integer, got "0"/],
      [["x", "--limit", "ten"], /--limit must be a positive integer/],
      [["x", "--timeout", "0"], /--timeout must be a number of seconds above 0/],
      [["x", "--base-url", "ftp://example.org"], /--base-url must use http or https, got "ftp"/],
      [["x", "--jsn"], /Unknown option '--jsn'/],
    ] as const
  ) {
    it(`exits 2 for ${JSON.stringify(args)}`, async () => {
      const result = await search([...args]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      assert.match(result.stderr.split("\n")[0], reason);
      assert.match(result.stderr.split("\n")[1], /^Usage: fragment-cli search <query…>/);
    });
  }
});
