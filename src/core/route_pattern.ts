/** Compiles a route path with `:params` into a matcher of whole paths. */
export function compileRoutePattern(path: string): RegExp {
  const source = path.split("/").map((segment) =>
    segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("/");
  return new RegExp(`^${source}$`);
}

/** Tells whether `pathname` is `mountRoute` itself or below it, on a path-segment boundary. */
export function isUnderMount(pathname: string, mountRoute: string): boolean {
  return pathname === mountRoute || pathname.startsWith(`${mountRoute}/`);
}
