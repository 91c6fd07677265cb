/**
 * One Markdown page of `docs/`, parsed once: its title, its tokens (for the HTML), the anchor of
 * each heading and its search records. The records are what `GET /api/search` searches and what
 * `deno task docs:index` writes into the package as the offline index.
 */
import GithubSlugger from "github-slugger";
import { marked, type Token, type Tokens } from "marked";
import type { SearchRecord } from "../../src/search/mod.ts";

/** A parsed docs page. */
export interface DocsPage {
  /** The path under `docs/` without `.md`, e.g. `cli` or `guides/deploy`. */
  slug: string;
  /** The text of the first level-1 heading, else the slug. */
  title: string;
  /** Folders above the page, titled: `guides/deploy` → `["Guides"]`. */
  breadcrumbs: string[];
  markdown: string;
  tokens: Token[];
  /** The anchor of every heading token, GitHub-style (`## db migrate` → `db-migrate`). */
  headingIds: Map<Token, string>;
  records: SearchRecord[];
}

/** Parses the Markdown of the page at `docs/<slug>.md`. */
export function parseDocsPage(slug: string, markdown: string): DocsPage {
  const tokens = marked.lexer(markdown);
  // Anchors in document order, nested headings included, exactly as the HTML renders them, so
  // every `#anchor` of a search hit exists on the page.
  const slugger = new GithubSlugger();
  const headingIds = new Map<Token, string>();
  marked.walkTokens(tokens, (token) => {
    if (token.type === "heading") {
      headingIds.set(token, slugger.slug(inlineText((token as Tokens.Heading).tokens)));
    }
  });
  const titleToken = tokens.find((t): t is Tokens.Heading => t.type === "heading" && t.depth === 1);
  const title = titleToken ? inlineText(titleToken.tokens) : slug;
  const breadcrumbs = slug.split("/").slice(0, -1).map(titleCase);
  const pageUrl = `/docs/${slug}`;

  const records: SearchRecord[] = [{
    id: slug,
    page: slug,
    type: "page",
    content: title,
    url: pageUrl,
    ...(breadcrumbs.length > 0 ? { breadcrumbs } : {}),
    context: breadcrumbs.join(" › "),
  }];
  const trail: { depth: number; text: string }[] = [];
  let anchor: string | undefined;
  let textCount = 0;
  for (const token of tokens) {
    if (token === titleToken) continue;
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      while (trail.length > 0 && trail[trail.length - 1].depth >= heading.depth) trail.pop();
      const context = [title, ...trail.map((h) => h.text)].join(" › ");
      const text = inlineText(heading.tokens);
      trail.push({ depth: heading.depth, text });
      anchor = headingIds.get(token)!;
      records.push({
        id: `${slug}#${anchor}`,
        page: slug,
        type: "heading",
        content: text,
        url: `${pageUrl}#${anchor}`,
        context,
      });
      continue;
    }
    for (const content of blockTexts(token)) {
      if (content === "") continue;
      records.push({
        id: `${slug}:${++textCount}`,
        page: slug,
        type: "text",
        content,
        url: anchor ? `${pageUrl}#${anchor}` : pageUrl,
        context: [title, ...trail.map((h) => h.text)].join(" › "),
      });
    }
  }
  return { slug, title, breadcrumbs, markdown, tokens, headingIds, records };
}

/** The searchable texts of a block: one per paragraph, list item, blockquote or table row. */
function blockTexts(token: Token): string[] {
  switch (token.type) {
    case "paragraph":
    case "text":
      return [collapse(inlineText((token as Tokens.Paragraph).tokens ?? []) || token.raw)];
    case "blockquote":
      return [(token as Tokens.Blockquote).tokens.flatMap(blockTexts).join(" ")];
    case "list":
      return (token as Tokens.List).items.map((item) => item.tokens.flatMap(blockTexts).join(" "));
    case "table":
      return (token as Tokens.Table).rows.map((row) =>
        row.map((cell) => collapse(inlineText(cell.tokens))).join(" | ")
      );
    case "html":
      return [collapse(decodeEntities((token as Tokens.HTML).text.replace(/<[^>]*>/g, " ")))];
    default: // code (as Fumadocs: prose explains it, and code floods results), space, hr
      return [];
  }
}

/** The plain text of inline tokens: Markdown syntax and HTML tags dropped. */
export function inlineText(tokens: readonly Token[]): string {
  return tokens.map((token) => {
    if ("tokens" in token && token.tokens) return inlineText(token.tokens);
    switch (token.type) {
      case "br":
        return " ";
      case "html":
        return "";
      case "text":
        return decodeEntities(token.text);
      default: // codespan, escape, image (its alt text)
        return "text" in token ? String(token.text) : "";
    }
  }).join("");
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]);
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  nbsp: " ",
};

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function titleCase(folder: string): string {
  const words = folder.replace(/[-_]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
