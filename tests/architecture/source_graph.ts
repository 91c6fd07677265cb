/**
 * The package's sources as the architecture tests see them: every `.ts` file of `src/` plus the
 * root entries `mod.ts` and `cli.ts`, each with the folder it belongs to and its relative imports
 * resolved to repository paths.
 *
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import { type ImportRef, maskSource, scanImports } from "./import_scanner.ts";

/** The repository root (this file is at tests/architecture/). */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** The root entries: they may import anything, and nothing may import them. */
export const ROOT_FILES: readonly string[] = ["mod.ts", "cli.ts"];

/** One source file: its repository path (`src/sql/adapter.ts`), folder and text. */
export interface SourceFile {
  path: string;
  folder: string;
  source: string;
  /** The source with comments blanked, strings kept (see `maskSource`). */
  withoutComments: string;
  imports: ImportRef[];
}

/** One relative import, resolved. */
export interface Edge {
  from: string;
  to: string;
  fromFolder: string;
  toFolder: string;
  typeOnly: boolean;
  line: number;
}

/**
 * The folder a repository path belongs to: `src/<folder>/…` → `<folder>`; a file directly in
 * `src/` → its name without `.ts` (`version`); a root entry → `root`; anything else → its first
 * segment (`generated`, `tests`, …).
 */
export function folderOf(path: string): string {
  if (ROOT_FILES.includes(path)) return "root";
  const parts = path.split("/");
  if (parts[0] === "src") {
    return parts.length === 2 ? parts[1].replace(/\.ts$/, "") : parts[1];
  }
  return parts[0];
}

/** Reads `src/**\/*.ts` and the root entries. */
export function readSources(): SourceFile[] {
  const inSrc = (readdirSync(posix.join(ROOT, "src"), { recursive: true }) as string[])
    .map((p) => p.split("\\").join("/"))
    .filter((p) => p.endsWith(".ts"))
    .map((p) => `src/${p}`);
  return [...ROOT_FILES, ...inSrc].sort().map((path) => {
    const source = readFileSync(posix.join(ROOT, path), "utf8");
    return {
      path,
      folder: folderOf(path),
      source,
      withoutComments: maskSource(source).withoutComments,
      imports: scanImports(source),
    };
  });
}

/** The relative imports of `files`, resolved to repository paths (bare specifiers are left out). */
export function edgesOf(files: readonly { path: string; imports: ImportRef[] }[]): Edge[] {
  return files.flatMap((file) =>
    file.imports
      .filter((ref) => ref.specifier.startsWith("./") || ref.specifier.startsWith("../"))
      .map((ref) => {
        const to = posix.normalize(posix.join(posix.dirname(file.path), ref.specifier));
        return {
          from: file.path,
          to,
          fromFolder: folderOf(file.path),
          toFolder: folderOf(to),
          typeOnly: ref.typeOnly,
          line: ref.line,
        };
      })
  );
}

/**
 * The imports that break `allowed` (folder → the folders it may import; its own folder always),
 * one line each: `file:line → imported file (folder a may not import folder b)`.
 */
export function violations(
  edges: readonly Edge[],
  allowed: Readonly<Record<string, readonly string[]>>,
): string[] {
  return edges
    .filter((e) => e.fromFolder !== e.toFolder && !allowed[e.fromFolder]?.includes(e.toFolder))
    .map((e) => `${e.from}:${e.line} → ${e.to} (${e.fromFolder} may not import ${e.toFolder})`);
}

/** A cycle of the folder graph of `edges` (`["a", "b", "a"]`), or `undefined` if there is none. */
export function findCycle(edges: readonly Edge[]): string[] | undefined {
  return findCycleOf(
    edges.filter((e) => e.fromFolder !== e.toFolder).map((e) => [e.fromFolder, e.toFolder]),
  );
}

/** A cycle between files (type-only imports count: they tie the files' meaning), if any. */
export function findFileCycle(edges: readonly Edge[]): string[] | undefined {
  return findCycleOf(edges.map((e) => [e.from, e.to]));
}

/** A cycle of a directed graph given by its arcs, as the nodes on it (the first repeated last). */
function findCycleOf(arcs: readonly (readonly [string, string])[]): string[] | undefined {
  const next = new Map<string, Set<string>>();
  for (const [from, to] of arcs) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    const at = path.indexOf(node);
    if (at !== -1) return [...path.slice(at), node];
    if (done.has(node)) return undefined;
    path.push(node);
    for (const to of [...(next.get(node) ?? [])].sort()) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return undefined;
  };
  for (const node of [...next.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The lines of code of a source without its comments: the lines left that are not blank. */
export function linesOfCode(withoutComments: string): number {
  return withoutComments.split("\n").filter((line) => line.trim() !== "").length;
}

/** `path:line: text` of each line of `files` whose code (comments left out) matches `pattern`. */
export function mentions(
  files: readonly Pick<SourceFile, "path" | "withoutComments">[],
  pattern: RegExp,
): string[] {
  return files.flatMap((file) =>
    file.withoutComments.split("\n").flatMap((text, i) =>
      pattern.test(text) ? [`${file.path}:${i + 1}: ${text.trim()}`] : []
    )
  );
}
