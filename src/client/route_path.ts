/**
 * The path of one call: a route's path with its `:name` parameters filled in.
 *
 * @module
 */

/**
 * `path` with each `:name` segment replaced by `params[name]`, encoded with
 * `encodeURIComponent`. A missing value, an empty one, `.` or `..` is refused with a
 * `TypeError`: the URL would reach another route (`/notes/` is `POST /notes`'s path, and URL
 * parsing resolves `/notes/..` to the mount itself), not this one with that parameter.
 *
 * @example
 * ```ts
 * import { fillPath } from "./route_path.ts";
 *
 * console.log(fillPath("/notes/:id", { id: "a b/c" })); // "/notes/a%20b%2Fc"
 * ```
 */
export function fillPath(path: string, params: { readonly [name: string]: unknown } = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint") {
      throw new TypeError(`Path parameter "${name}" of ${path} must be a string or a number`);
    }
    const text = String(value);
    if (text === "" || text === "." || text === "..") {
      throw new TypeError(`Path parameter "${name}" of ${path} cannot be "${text}"`);
    }
    return encodeURIComponent(text);
  });
}
