/**
 * A `fetch` that keeps cookies, as a browser would for one site: what Node, Bun and Deno's own
 * `fetch` do not. For the typed client's cookie flow in tests; the client itself never handles
 * cookies (the browser does).
 *
 * @example
 * ```ts ignore
 * const jar = cookieJar();
 * const client = createAuthClient({ baseUrl, fetch: jar.fetch });
 * ```
 *
 * @module
 */

import type { AuthFetch } from "../../src/client/mod.ts";

/** A cookie-keeping fetch and a view of what it keeps. */
export interface CookieJar {
  fetch: AuthFetch;
  /** The cookies kept, by name. */
  cookies: Map<string, string>;
}

/** A fresh jar: sends the cookies it keeps, stores `Set-Cookie`s, drops `Max-Age=0` ones. */
export function cookieJar(base: AuthFetch = (url, init) => fetch(url, init)): CookieJar {
  const cookies = new Map<string, string>();
  return {
    cookies,
    fetch: async (url, init) => {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) {
        headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
      }
      const response = await base(url, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(";").map((part) => part.trim());
        const at = pair.indexOf("=");
        const name = pair.slice(0, at);
        const expired = attributes.some((a) => a.toLowerCase() === "max-age=0");
        if (expired) cookies.delete(name);
        else cookies.set(name, pair.slice(at + 1));
      }
      return response;
    },
  };
}
