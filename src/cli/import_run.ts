/**
 * Imports a command's implementation (a `*_run.ts` file next to this one) when the command runs.
 *
 * The specifier is a parameter, not a string literal, on purpose: when Deno builds the module
 * graph at start-up it follows every dynamic import written as a literal, so `--help` would
 * still read and resolve every command's dependencies (the npm packages included). The npm build
 * keeps working: tsc rewrites a relative `.ts` specifier to `.js` at run time
 * (`--rewriteRelativeImportExtensions`), and the bundled bin lives in this directory.
 */
export function importRun<T>(file: `./${string}_run.ts`): Promise<T> {
  return import(file);
}
