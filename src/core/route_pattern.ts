/** Tells whether `pathname` is `mountRoute` itself or below it, on a path-segment boundary. */
export function isUnderMount(pathname: string, mountRoute: string): boolean {
  return pathname === mountRoute || pathname.startsWith(`${mountRoute}/`);
}

/**
 * The full paths a route answers on: its declared path under the mount, and the same path with
 * the trailing slash added or removed, so that `GET /` of a module mounted at `/api/ping` answers
 * `/api/ping` and `/api/ping/`, and `/users` answers `/users/` too. The twin is left out when
 * another route of the same method declares it: a declared path always wins.
 */
export function routePaths(
  mountRoute: string,
  route: { method: string; path: string },
  routes: readonly { method: string; path: string }[],
): string[] {
  const full = (path: string): string => path === "/" ? mountRoute : `${mountRoute}${path}`;
  const path = full(route.path);
  const twin = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
  const declared = routes.some((r) => r.method === route.method && full(r.path) === twin);
  return declared ? [path] : [path, twin];
}
