import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadDocs } from "../../scripts/site/load_docs.ts";
import { createDocsSite } from "../../scripts/site/site.ts";
import { siteHref } from "../../scripts/site/render_html.ts";
import { runtimeArgs } from "../helpers/spawn_runtime.ts";
import type { SearchHit } from "../../src/search/mod.ts";

const fixtureDocs = fileURLToPath(new URL("../fixtures/search_docs", import.meta.url));
const realDocs = fileURLToPath(new URL("../../docs", import.meta.url));

function get(site: { fetch(r: Request): Response }, path: string, method = "GET"): Response {
  return site.fetch(new Request(`http://site.test${path}`, { method }));
}

describe("the reference site (createDocsSite)", () => {
  const pages = loadDocs(fixtureDocs);
  const site = createDocsSite(pages);

  it("serves every page as HTML and as its Markdown source", async () => {
    assert.deepEqual(pages.map((p) => p.slug), ["guides/night-harbour", "lanterns", "ropes"]);
    for (const page of pages) {
      const html = get(site, `/docs/${page.slug}`);
      assert.equal(html.status, 200);
      assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
      assert.match(await html.text(), new RegExp(`<h1 id="[^"]+">${page.title} `));
      const md = get(site, `/docs/${page.slug}.md`);
      assert.equal(md.headers.get("content-type"), "text/markdown; charset=utf-8");
      assert.equal(
        await md.text(),
        readFileSync(`${fixtureDocs}/${page.slug}.md`, "utf8"),
      );
    }
  });

  it("gives every heading the anchor its search hits point at", async () => {
    const html = await get(site, "/docs/lanterns").text();
    assert.match(html, /<h2 id="lighting-a-lantern">Lighting a lantern /);
    assert.match(html, /<h2 id="storing-lanterns">/);
    for (const record of pages.flatMap((p) => p.records)) {
      const [path, anchor] = record.url.split("#");
      if (!anchor) continue;
      const body = await get(site, path).text();
      assert.ok(body.includes(`id="${anchor}"`), record.url);
    }
  });

  it("turns links between .md pages into site links", async () => {
    const html = await get(site, "/docs/lanterns").text();
    assert.match(html, /<a href="ropes#knots">ropes<\/a>/);
    assert.equal(siteHref("../cli.md"), "../cli");
    assert.equal(siteHref("https://example.org/a.md"), "https://example.org/a.md");
    assert.equal(siteHref("/docs/a.md"), "/docs/a.md");
    assert.equal(siteHref("image.png"), "image.png");
  });

  it("answers /api/search with the ranked search JSON", async () => {
    const response = get(site, "/api/search?query=lantern");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const hits: SearchHit[] = await response.json();
    assert.equal(hits[0].type, "page");
    assert.equal(hits[0].url, "/docs/lanterns");
    for (const hit of hits) {
      assert.deepEqual(
        Object.keys(hit).sort(),
        hit.breadcrumbs ? ["breadcrumbs", "content", "id", "type", "url"] : [
          "content",
          "id",
          "type",
          "url",
        ],
      );
      assert.match(hit.url, /^\/docs\/[a-z/-]+(#[a-z0-9-]+)?$/);
    }
    // A page hit opens each page's group.
    const pageOf = (h: SearchHit) => h.url.split("#")[0];
    hits.forEach((hit, i) => {
      if (i > 0 && pageOf(hit) !== pageOf(hits[i - 1])) assert.equal(hit.type, "page");
    });
    assert.deepEqual(hits.find((h) => h.url === "/docs/guides/night-harbour")?.breadcrumbs, [
      "Guides",
    ]);
    assert.deepEqual(await get(site, "/api/search").json(), []);
    assert.deepEqual(await get(site, "/api/search?query=quasar").json(), []);
  });

  it("serves an index, a search page, redirects, 404, 405 and HEAD", async () => {
    const index = await get(site, "/docs").text();
    for (const page of pages) assert.ok(index.includes(`href="/docs/${page.slug}"`));
    const results = await get(site, "/search?query=bowline").text();
    assert.match(results, /<a href="\/docs\/ropes#knots">A bowline holds/);
    assert.equal(get(site, "/").headers.get("location"), "http://site.test/docs");
    assert.equal(get(site, "/docs/ropes/").headers.get("location"), "http://site.test/docs/ropes");
    assert.equal(get(site, "/docs/nope").status, 404);
    assert.equal(get(site, "/docs/nope.md").status, 404);
    const api404 = get(site, "/api/nope");
    assert.equal(api404.status, 404);
    assert.equal((await api404.json()).error.code, "NOT_FOUND");
    const post = get(site, "/api/search?query=x", "POST");
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
    const head = get(site, "/docs/ropes", "HEAD");
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
  });

  it("serves the project's docs/ with a page per part of the project", () => {
    const real = createDocsSite(loadDocs(realDocs));
    for (const slug of ["getting-started", "search"]) {
      assert.equal(get(real, `/docs/${slug}`).status, 200, slug);
    }
  });
});

describe("deno task site (scripts/site/main.ts)", () => {
  let child: ReturnType<typeof spawn>;
  let url: string;
  before(async () => {
    const script = fileURLToPath(new URL("../../scripts/site/main.ts", import.meta.url));
    child = spawn(process.execPath, runtimeArgs(script, ["--port", "0", "--host", "127.0.0.1"]), {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolve) => lines.once("line", resolve));
    url = /(http:\/\/\S+)\/docs/.exec(first)![1];
  });
  after(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  it("serves docs/ and /api/search on the port it prints", async () => {
    const md = await fetch(`${url}/docs/search.md`);
    assert.equal(md.status, 200);
    assert.equal(await md.text(), readFileSync(`${realDocs}/search.md`, "utf8"));
    const hits: SearchHit[] = await (await fetch(`${url}/api/search?query=search`)).json();
    assert.ok(hits.some((hit) => hit.url.startsWith("/docs/search")));
  });
});

describe("scripts/site/deploy.ts", () => {
  it("exports a Web-standard fetch handler as the default export", async () => {
    const { default: app } = await import("../../scripts/site/deploy.ts");
    const response = await app.fetch(new Request("http://deploy.test/docs/getting-started.md"));
    assert.equal(response.status, 200);
    assert.equal(
      await response.text(),
      readFileSync(`${realDocs}/getting-started.md`, "utf8"),
    );
  });
});
