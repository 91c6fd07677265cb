import type { SearchHit } from "../search/mod.ts";

/** A section of a page found by `fragment-cli search`. */
export interface SectionResult {
  type: "heading" | "text";
  content: string;
  /** Absolute, with the `#anchor` of the section. */
  url: string;
}

/** One page of `fragment-cli search` results: the JSON output is an array of these. */
export interface PageResult {
  title: string;
  /** Absolute URL of the page (HTML). */
  url: string;
  /** The same page as Markdown: `url` + `.md`. */
  mdUrl: string;
  breadcrumbs: string[];
  /** The page's relevant sections, best first. */
  sections: SectionResult[];
}

/**
 * Groups ranked hits by page (their URL without `#…`), pages in the order their first hit came,
 * each with all its section hits in order. Relative URLs resolve against `base`.
 */
export function groupSearchHits(hits: readonly SearchHit[], base: URL): PageResult[] {
  const pages = new Map<string, PageResult & { titled: boolean; seen: Set<string> }>();
  for (const hit of hits) {
    const absolute = new URL(hit.url, base);
    const hash = absolute.hash;
    absolute.hash = "";
    const pageUrl = absolute.href;
    let page = pages.get(pageUrl);
    if (!page) {
      page = {
        title: titleFromUrl(absolute),
        url: pageUrl,
        mdUrl: `${pageUrl.replace(/\/$/, "")}.md`,
        breadcrumbs: [],
        sections: [],
        titled: false,
        seen: new Set(),
      };
      pages.set(pageUrl, page);
    }
    if (hit.breadcrumbs && hit.breadcrumbs.length > 0 && (hit.type === "page" || !page.titled)) {
      page.breadcrumbs = [...hit.breadcrumbs];
    }
    if (hit.type === "page") {
      page.title = hit.content;
      page.titled = true;
      continue;
    }
    const url = `${pageUrl}${hash}`;
    const key = `${hit.type}\n${hit.content}\n${url}`;
    if (page.seen.has(key)) continue;
    page.seen.add(key);
    page.sections.push({ type: hit.type, content: hit.content, url });
  }
  return [...pages.values()].map(({ title, url, mdUrl, breadcrumbs, sections }) => ({
    title,
    url,
    mdUrl,
    breadcrumbs,
    sections,
  }));
}

/** Longest section text shown in the Markdown output (the JSON output keeps it whole). */
const MAX_SECTION_CHARS = 240;

/**
 * The Markdown output: a count line, then per page its title, breadcrumbs, URL, Markdown URL and
 * its sections (headings in bold, each with its `#anchor`), pages separated by `---`.
 */
export function renderSearchMarkdown(
  query: string,
  pages: readonly PageResult[],
  total: number,
): string {
  if (pages.length === 0) return `No results for "${query}".\n`;
  const noun = total === 1 ? "page" : "pages";
  const showing = pages.length < total
    ? ` (showing ${pages.length}; raise --limit to see more)`
    : "";
  const blocks = pages.map((page) => {
    const lines = [`## ${page.title}`, ""];
    if (page.breadcrumbs.length > 0) lines.push(`Breadcrumbs: ${page.breadcrumbs.join(" › ")}`);
    lines.push(`URL: ${page.url}`, `Markdown: ${page.mdUrl}`);
    if (page.sections.length > 0) {
      lines.push("", "Relevant sections:");
      for (const section of page.sections) {
        const text = shorten(section.content.replace(/\s+/g, " ").trim());
        const shown = section.type === "heading" ? `**${text}**` : text;
        const where = section.url.startsWith(`${page.url}#`)
          ? section.url.slice(page.url.length)
          : section.url === page.url
          ? ""
          : section.url;
        lines.push(`- ${shown}${where ? ` (${where})` : ""}`);
      }
    }
    return lines.join("\n");
  });
  return `Found ${total} ${noun} for "${query}"${showing}\n\n${blocks.join("\n\n---\n\n")}\n`;
}

function shorten(text: string): string {
  return text.length <= MAX_SECTION_CHARS ? text : `${text.slice(0, MAX_SECTION_CHARS - 1)}…`;
}

function titleFromUrl(url: URL): string {
  const last = url.pathname.replace(/\/$/, "").split("/").pop();
  return last ? decodeURIComponent(last) : url.host;
}
