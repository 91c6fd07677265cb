/**
 * The reference site as a Web-standard `fetch` handler: every page of docs/ as HTML at
 * `/docs/<page>` and as Markdown at `/docs/<page>.md`, and `GET /api/search?query=<q>` answering
 * the Fumadocs-style search JSON that `fragment-cli search` reads.
 */
import { createDocsSearch } from "../../src/search/mod.ts";
import type { DocsPage } from "./docs_page.ts";
import { escapeHtml, renderLayout, renderPageBody, renderSearchBody } from "./render_html.ts";

/** A site: one handler for every request. */
export interface DocsSite {
  fetch(request: Request): Response;
}

/** Builds the site over parsed pages; HTML is rendered once, here. */
export function createDocsSite(pages: readonly DocsPage[]): DocsSite {
  const search = createDocsSearch(pages.flatMap((page) => page.records));
  const bySlug = new Map(pages.map((page) => [page.slug, page]));
  const html = new Map(
    pages.map((page) => [
      page.slug,
      renderLayout({ title: page.title, body: renderPageBody(page), pages }),
    ]),
  );
  const indexHtml = renderLayout({
    title: "Documentation",
    body: `<h1>fragment-cli documentation</h1>\n<ul>\n${
      pages.map((p) => `<li><a href="/docs/${escapeHtml(p.slug)}">${escapeHtml(p.title)}</a></li>`)
        .join("\n")
    }\n</ul>`,
    pages,
  });

  function route(url: URL): Response {
    const path = decodeURIComponent(url.pathname);
    if (path === "/api/search") {
      const query = url.searchParams.get("query") ?? "";
      return Response.json(search.search(query), {
        headers: { "access-control-allow-origin": "*" },
      });
    }
    if (path.startsWith("/api/")) {
      return Response.json({ error: { code: "NOT_FOUND", message: `No API route ${path}` } }, {
        status: 404,
      });
    }
    if (path === "/" || path === "/docs/") return Response.redirect(new URL("/docs", url), 302);
    if (path === "/docs") return htmlResponse(indexHtml);
    if (path === "/search") {
      const query = url.searchParams.get("query") ?? "";
      return htmlResponse(
        renderLayout({
          title: `Search: ${query}`,
          body: renderSearchBody(query, search.search(query)),
          pages,
          query,
        }),
      );
    }
    if (path.startsWith("/docs/")) {
      const rest = path.slice("/docs/".length);
      if (rest.endsWith(".md")) {
        const page = bySlug.get(rest.slice(0, -3));
        if (page) {
          return new Response(page.markdown, {
            headers: { "content-type": "text/markdown; charset=utf-8" },
          });
        }
      } else if (rest.endsWith("/") && bySlug.has(rest.slice(0, -1))) {
        return Response.redirect(new URL(`/docs/${rest.slice(0, -1)}`, url), 301);
      } else if (html.has(rest)) {
        return htmlResponse(html.get(rest)!);
      }
    }
    return htmlResponse(
      renderLayout({
        title: "Not found",
        body: `<h1>Not found</h1>\n<p>No page at <code>${
          escapeHtml(path)
        }</code>. <a href="/docs">All pages</a>.</p>`,
        pages,
      }),
      404,
    );
  }

  return {
    fetch(request: Request): Response {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return Response.json(
          { error: { code: "METHOD_NOT_ALLOWED", message: `${request.method} is not allowed` } },
          { status: 405, headers: { allow: "GET, HEAD" } },
        );
      }
      let response: Response;
      try {
        response = route(new URL(request.url));
      } catch (error) {
        if (!(error instanceof URIError)) throw error;
        response = Response.json({ error: { code: "BAD_REQUEST", message: "Malformed URL" } }, {
          status: 400,
        });
      }
      return request.method === "HEAD"
        ? new Response(null, { status: response.status, headers: response.headers })
        : response;
    },
  };
}

function htmlResponse(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
