import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type DocsPage, parseDocsPage } from "./docs_page.ts";

/**
 * Reads every `*.md` file under `dir` (sub-folders included) as a docs page, sorted by slug so
 * the order, and so the generated index, does not depend on the file system.
 */
export function loadDocs(dir: string): DocsPage[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk(dir);
  return files
    .map((file) => ({ file, slug: relative(dir, file).split(sep).join("/").slice(0, -3) }))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map(({ file, slug }) => parseDocsPage(slug, readFileSync(file, "utf8")));
}
