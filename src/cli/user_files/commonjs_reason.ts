import { readFileSync } from "node:fs";
import { basename, dirname, extname, join, relative } from "node:path";
import process from "node:process";

/** The errors Node throws when it evaluates `import`/`export` in a file it loads as CommonJS. */
const ESM_SYNTAX_IN_COMMONJS =
  /^(Cannot use import statement outside a module|Unexpected token 'export')/;

/**
 * The cause and the fix when the runtime failed to import a user's file because it loaded an ES
 * module as CommonJS: a `.cts`/`.cjs` file, or a `.ts`/`.js` file under a package.json that says
 * `"type": "commonjs"` (Node ≥ 22.18 strips types but keeps the package's module type; Node's
 * own error is a bare SyntaxError). `null` for every other failure.
 */
export function commonJsReason(path: string, error: unknown): string | null {
  if (!(error instanceof SyntaxError) || !ESM_SYNTAX_IN_COMMONJS.test(error.message)) return null;
  // Node's stack starts with the file it failed to compile: the user's file or one it imports.
  const failing = /^(.+):\d+\n/.exec(error.stack ?? "")?.[1] ?? path;
  const reason = commonJsCause(failing);
  if (reason === null || failing === path) return reason;
  return `${relative(process.cwd(), failing)}: ${reason}`;
}

function commonJsCause(path: string): string | null {
  const extension = extname(path);
  const esmName = basename(path, extension) + (/^\.c?ts$/.test(extension) ? ".mts" : ".mjs");
  if (extension === ".cts" || extension === ".cjs") {
    return `${extension} files are CommonJS, but this one uses import/export: ` +
      `rename it to ${esmName}`;
  }
  const manifest = nearestPackageJson(dirname(path));
  if (manifest?.type !== "commonjs") return null;
  const where = relative(process.cwd(), manifest.path) || manifest.path;
  return `this file is loaded as CommonJS ("type": "commonjs" in ${where}), but it uses ` +
    `import/export: rename it to ${esmName}, or set "type": "module" in ${where}`;
}

/** The package.json Node consults for a file in `directory`, with its `type`. */
function nearestPackageJson(directory: string): { path: string; type: unknown } | null {
  for (let dir = directory;; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    try {
      return { path, type: JSON.parse(readFileSync(path, "utf8")).type };
    } catch (error) {
      // Node stops at the first package.json it finds, even one it cannot parse.
      if ((error as { code?: string }).code !== "ENOENT") return null;
    }
    if (dirname(dir) === dir) return null;
  }
}
