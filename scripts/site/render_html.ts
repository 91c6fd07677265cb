/**
 * HTML of the reference site: a page of docs/ rendered by `marked` (heading anchors as in the
 * search records, links between `.md` files turned into site links) in one small layout.
 */
import { Marked, type Tokens } from "marked";
import type { SearchHit } from "../../src/search/mod.ts";
import type { DocsPage } from "./docs_page.ts";

/** The HTML body of a docs page (without the layout). */
export function renderPageBody(page: DocsPage): string {
  const renderer = new Marked({
    gfm: true,
    renderer: {
      heading(token: Tokens.Heading): string {
        const id = page.headingIds.get(token) ?? "";
        const inner = this.parser.parseInline(token.tokens);
        return `<h${token.depth} id="${escapeHtml(id)}">${inner} <a class="anchor" href="#${
          escapeHtml(id)
        }" aria-label="Link to this section">#</a></h${token.depth}>\n`;
      },
      link(token: Tokens.Link): false {
        // Rewrite in place (idempotent), then let marked render the link as usual.
        token.href = siteHref(token.href);
        return false;
      },
    },
  });
  // The page's own tokens, so the heading anchors are those of its search records.
  return renderer.parser(page.tokens);
}

/**
 * `cli.md#serve` → `cli#serve`: a relative link to another docs page points at its HTML. Links
 * with a scheme, absolute paths and non-Markdown files stay as written.
 */
export function siteHref(href: string): string {
  const match = /^(?![a-z][a-z0-9+.-]*:|\/)([^#?]*)\.md((?:[?#].*)?)$/i.exec(href);
  return match ? `${match[1]}${match[2]}` : href;
}

/** A full HTML document: navigation with every page, a search box, `body` as the content. */
export function renderLayout(
  options: { title: string; body: string; pages: readonly DocsPage[]; query?: string },
): string {
  const nav = options.pages
    .map((p) => `<li><a href="/docs/${escapeHtml(p.slug)}">${escapeHtml(p.title)}</a></li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · fragment-cli</title>
<style>
body{font:16px/1.6 system-ui,sans-serif;margin:0;display:flex;color:#1f2328}
nav{width:16rem;padding:1rem;border-right:1px solid #d0d7de;min-height:100vh;box-sizing:border-box}
nav ul{list-style:none;padding:0}main{padding:1rem 2rem;max-width:52rem;min-width:0}
pre{background:#f6f8fa;padding:.8rem;overflow:auto}code{font-size:90%}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem}
a.anchor{opacity:.3;text-decoration:none}input{width:100%;box-sizing:border-box;padding:.3rem}
</style>
</head>
<body>
<nav>
<a href="/docs"><strong>fragment-cli</strong></a>
<form action="/search" method="get" role="search">
<input type="search" name="query" placeholder="Search the docs" value="${
    escapeHtml(options.query ?? "")
  }">
</form>
<ul>
${nav}
</ul>
</nav>
<main>
${options.body}
</main>
</body>
</html>
`;
}

/** The HTML body of the `/search` page: the hits grouped under their page. */
export function renderSearchBody(query: string, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return `<h1>Search</h1>\n<p>No results for “${escapeHtml(query)}”.</p>`;
  const items = hits.map((hit) => {
    const link = `<a href="${escapeHtml(hit.url)}">${escapeHtml(hit.content)}</a>`;
    if (hit.type === "page") return `</ul>\n<h2>${link}</h2>\n<ul>`;
    return hit.type === "heading" ? `<li><strong>${link}</strong></li>` : `<li>${link}</li>`;
  });
  return `<h1>Search: ${escapeHtml(query)}</h1>\n<ul>${items.join("\n")}</ul>`;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
