/**
 * Serving folders of files (single-page apps) beside the modules: `fragment-cli serve --static
 * [<path>=]<dir>` and `serve(modules, { staticDir, staticDirs })`. Read-only and closed by default:
 * GET and HEAD only, no directory listing, no dotfiles, nothing outside the folder (encoded `..`,
 * backslashes, NUL bytes and symbolic links leading out are refused).
 *
 * @module
 */

import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { errorResponse } from "./http_error.ts";

/** Content types by file extension; anything else is served as `application/octet-stream`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

/** Files larger than this are not served (a static folder holds an app, not downloads). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

/**
 * A handler of the files under `dir`: it answers a request for an existing file (or a folder's
 * `index.html`, `/` included) and returns `null` for any other path, so the caller answers it
 * (the modules' 404). A path it refuses to map (traversal, dotfiles, bad encoding) is also `null`:
 * it names nothing servable. Methods other than GET and HEAD on a servable file are 405.
 */
export function staticFiles(dir: string): (request: Request) => Promise<Response | null> {
  const serveFolder = folder(dir);
  return (request) => serveFolder(request, new URL(request.url).pathname);
}

/**
 * A handler of several folders, each at a URL path (`{ "/": "./dist", "/admin": "./admin" }`):
 * a request under a mount's path (`/admin/app.js`) is answered from its folder alone, the longest
 * path first, as {@link staticFiles} answers (`null` for what the folder does not have); the
 * mount's path itself (`/admin`) redirects to its folder's index (`/admin/`), so that the page's
 * relative URLs resolve inside the mount. Throws a `TypeError` for a path that is not `/` or
 * plain `/segment`s (no trailing `/`, no dot segment, no percent-encoding).
 */
export function staticMounts(
  mounts: Readonly<Record<string, string>>,
): (request: Request) => Promise<Response | null> {
  const served = Object.entries(mounts).map(([path, dir]) => {
    if (!isStaticMountPath(path)) {
      throw new TypeError(
        `The static mount "${path}" must be "/" or a path like "/admin" (letters, digits, ` +
          `"-", "_", "~" and inner "."; no trailing "/")`,
      );
    }
    return { path, serveFolder: folder(dir) };
  }).sort((a, b) => b.path.length - a.path.length);
  return async (request) => {
    const url = new URL(request.url);
    for (const { path, serveFolder } of served) {
      if (path === "/") return await serveFolder(request, url.pathname);
      if (url.pathname === path) {
        if (request.method !== "GET" && request.method !== "HEAD") return null;
        return new Response(null, { status: 308, headers: { location: `${path}/${url.search}` } });
      }
      if (url.pathname.startsWith(`${path}/`)) {
        return await serveFolder(request, url.pathname.slice(path.length));
      }
    }
    return null;
  };
}

/**
 * Whether `path` may be a static mount's: `/`, or `/segment`s of letters, digits, `-`, `_`, `~`
 * and inner `.` (no trailing `/`, no dot segment, nothing to percent-decode).
 */
export function isStaticMountPath(path: string): boolean {
  return path === "/" || /^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/.test(path);
}

/** Answers a path of the folder `dir` (see {@link staticFiles}). */
function folder(dir: string): (request: Request, pathname: string) => Promise<Response | null> {
  // Resolved once, at the first request: the folder's real path, symbolic links followed.
  let root: Promise<string | null> | undefined;
  return async function serveStatic(request, pathname) {
    // A folder that is gone serves nothing (the callers check it exists when they start).
    root ??= realpath(dir).catch(() => null);
    const base = await root;
    if (base === null) return null;
    const segments = pathSegments(pathname);
    if (segments === null) return null;
    const file = await servableFile(base, segments);
    if (file === null) return null;
    if (request.method !== "GET" && request.method !== "HEAD") {
      return errorResponse(
        405,
        "METHOD_NOT_ALLOWED",
        `${request.method} is not allowed on a static file`,
        {},
        { allow: "GET, HEAD" },
      );
    }
    const headers = {
      "content-type": CONTENT_TYPES[extname(file.path).toLowerCase()] ??
        "application/octet-stream",
      "content-length": String(file.size),
      "x-content-type-options": "nosniff",
      // Development and small apps: the browser revalidates, so an edit shows on reload.
      "cache-control": "no-cache",
    };
    if (request.method === "HEAD") return new Response(null, { status: 200, headers });
    return new Response(new Uint8Array(await readFile(file.path)), { status: 200, headers });
  };
}

/**
 * The decoded path segments of a URL path, or `null` when one is not a plain file name: empty
 * (`//`), `.` or `..` (also percent-encoded), a dotfile, or containing `/`, `\`, NUL or other
 * control characters once decoded. A trailing `/` names the folder's index.
 */
function pathSegments(pathname: string): string[] | null {
  const raw = pathname.split("/").slice(1);
  if (raw.length > 0 && raw[raw.length - 1] === "") raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    let name: string;
    try {
      name = decodeURIComponent(part);
    } catch {
      return null;
    }
    // deno-lint-ignore no-control-regex
    if (name === "" || name.startsWith(".") || /[/\\\x00-\x1f\x7f]/.test(name)) return null;
    segments.push(name);
  }
  return segments;
}

/** The file the segments name under `base` (a folder's index.html), if it is inside `base`. */
async function servableFile(
  base: string,
  segments: readonly string[],
): Promise<{ path: string; size: number } | null> {
  let path = join(base, ...segments);
  try {
    let info = await stat(path);
    if (info.isDirectory()) {
      path = join(path, "index.html");
      info = await stat(path);
    }
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
    // A symbolic link may point anywhere: serve only what really lies under the folder.
    const real = await realpath(path);
    if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) return null;
    return { path: real, size: info.size };
  } catch {
    return null;
  }
}
