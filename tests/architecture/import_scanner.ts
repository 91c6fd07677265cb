/**
 * A small import scanner for the architecture tests: no parser dependency, so it runs unchanged on
 * Deno, Node and Bun. It first masks the source (comments blanked; for the import scan also the
 * text of strings, templates and regular expressions), keeping every offset and newline, so a
 * regular expression over the mask cannot match `import` inside a comment or a string, and the
 * specifier is read back from the source at the same offset.
 *
 * @module
 */

/** One import or re-export of a source file. */
export interface ImportRef {
  /** The specifier as written: `../sql/mod.ts`, `hono`, `node:fs`. */
  specifier: string;
  /** `import type …` / `export type … from`: erased at run time. `import { type A }` is not. */
  typeOnly: boolean;
  /** `import("…")` with a literal specifier. */
  dynamic: boolean;
  /** 1-based line of the `import` / `export` keyword. */
  line: number;
}

/** The source with its comments blanked, and with comments and literal texts blanked. */
export interface MaskedSource {
  /** Comments replaced by spaces; strings kept. For "does this name appear in code". */
  withoutComments: string;
  /** Also the contents of strings, templates and regexes blanked (their delimiters kept). */
  codeOnly: string;
}

// After one of these (or at the start), a `/` begins a regular expression, not a division.
const REGEX_AFTER_CHAR = new Set("(,=:[!&|?{};+-*%<>~^".split(""));
const REGEX_AFTER_WORD = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "yield",
  "await",
]);

/** Masks `source` (see {@link MaskedSource}); lengths and newlines are those of `source`. */
export function maskSource(source: string): MaskedSource {
  const noComments: string[] = [];
  const code: string[] = [];
  // Keeps a character in both masks, blanks it in both, or blanks it in the code mask only.
  const keep = (c: string) => (noComments.push(c), code.push(c));
  const blank = (c: string) => {
    const space = c === "\n" ? "\n" : " ";
    noComments.push(space);
    code.push(space);
  };
  const literal = (c: string) => (noComments.push(c), code.push(c === "\n" ? "\n" : " "));
  // One entry per `${` being read inside a template: the depth of `{` opened since.
  const templateBraces: number[] = [];
  let i = 0;
  const n = source.length;

  const lastSignificant = (): { char: string; word: string } => {
    let j = code.length - 1;
    while (j >= 0 && /\s/.test(code[j])) j--;
    if (j < 0) return { char: "", word: "" };
    let k = j;
    while (k >= 0 && /[\w$]/.test(code[k])) k--;
    return { char: code[j], word: code.slice(k + 1, j + 1).join("") };
  };

  // Reads the text of a template from after its opening backtick (or a `}` closing `${`).
  const readTemplate = () => {
    while (i < n) {
      const c = source[i];
      if (c === "\\") {
        literal(c);
        if (i + 1 < n) literal(source[i + 1]);
        i += 2;
      } else if (c === "`") {
        keep(c);
        i++;
        return;
      } else if (c === "$" && source[i + 1] === "{") {
        keep("$");
        keep("{");
        i += 2;
        templateBraces.push(0);
        return;
      } else {
        literal(c);
        i++;
      }
    }
  };

  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < n && source[i] !== "\n") blank(source[i++]);
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      while (i < stop) blank(source[i++]);
    } else if (c === '"' || c === "'") {
      keep(c);
      i++;
      while (i < n && source[i] !== c && source[i] !== "\n") {
        if (source[i] === "\\" && i + 1 < n) literal(source[i++]);
        literal(source[i++]);
      }
      if (i < n) keep(source[i++]);
    } else if (c === "`") {
      keep(c);
      i++;
      readTemplate();
    } else if (c === "{" && templateBraces.length > 0) {
      templateBraces[templateBraces.length - 1]++;
      keep(c);
      i++;
    } else if (c === "}" && templateBraces.length > 0) {
      keep(c);
      i++;
      if (templateBraces[templateBraces.length - 1] === 0) {
        templateBraces.pop();
        readTemplate();
      } else {
        templateBraces[templateBraces.length - 1]--;
      }
    } else if (c === "/") {
      const before = lastSignificant();
      const startsRegex = before.char === "" || REGEX_AFTER_CHAR.has(before.char) ||
        REGEX_AFTER_WORD.has(before.word);
      if (!startsRegex) {
        keep(c);
        i++;
        continue;
      }
      keep(c);
      i++;
      let inClass = false;
      while (i < n && source[i] !== "\n") {
        const r = source[i];
        if (r === "\\" && i + 1 < n) {
          literal(source[i++]);
          literal(source[i++]);
          continue;
        }
        if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        literal(source[i++]);
      }
      if (i < n && source[i] === "/") keep(source[i++]);
    } else {
      keep(c);
      i++;
    }
  }
  return { withoutComments: noComments.join(""), codeOnly: code.join("") };
}

const CLAUSE = String
  .raw`(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\}|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+[\w$]+))?)`;
// `import X from "…"`, `import type { A } from "…"`, `export * from "…"`, multi-line `{ … }`.
const STATIC_FROM = new RegExp(
  String.raw`(?<![\w$.])(import|export)(\s+type)?\s*${CLAUSE}\s*from\s*(["'])`,
  "g",
);
// `import "./side_effect.ts"`.
const SIDE_EFFECT = /(?<![\w$.])import\s*(["'])/g;
// `import("…")`, also `typeof import("…")` (a type, erased).
const DYNAMIC = /(?<![\w$.])(typeof\s+)?import\s*\(\s*(["'`])/g;

/** Every import of `source` with a literal specifier, in source order. */
export function scanImports(source: string): ImportRef[] {
  const { codeOnly } = maskSource(source);
  const found: { index: number; ref: ImportRef }[] = [];
  const specifierAt = (quoteIndex: number): string | undefined => {
    const quote = source[quoteIndex];
    const end = source.indexOf(quote, quoteIndex + 1);
    const text = source.slice(quoteIndex + 1, end);
    // A template with an expression is not a literal specifier: nothing to resolve statically.
    return end === -1 || (quote === "`" && text.includes("${")) ? undefined : text;
  };
  const lineOf = (index: number) => codeOnly.slice(0, index).split("\n").length;
  const add = (index: number, quoteIndex: number, typeOnly: boolean, dynamic: boolean) => {
    const specifier = specifierAt(quoteIndex);
    if (specifier === undefined) return;
    found.push({ index, ref: { specifier, typeOnly, dynamic, line: lineOf(index) } });
  };
  for (const m of codeOnly.matchAll(STATIC_FROM)) {
    add(m.index, m.index + m[0].length - 1, m[2] !== undefined, false);
  }
  for (const m of codeOnly.matchAll(SIDE_EFFECT)) {
    add(m.index, m.index + m[0].length - 1, false, false);
  }
  for (const m of codeOnly.matchAll(DYNAMIC)) {
    add(m.index, m.index + m[0].length - 1, m[1] !== undefined, true);
  }
  return found.sort((a, b) => a.index - b.index).map((f) => f.ref);
}
