/**
 * A browser over HTTP for the provider flows: one cookie jar per host (ports share it, as in a
 * browser), redirects followed by hand so a test can stop at any step, form posts, and the app's
 * own origin answered by the module's `fetch` (no socket needed for the app; the provider is a
 * real server). `loginAt` drives `oidc-provider`'s development login and consent pages and answers
 * the callback URL the provider sends the browser back to, not yet opened.
 *
 * @example
 * ```ts ignore
 * const browser = httpBrowser({ origin: "http://app.localhost", fetch: module.fetch });
 * const callback = await loginAt(browser, `${app}/api/auth/oauth/acme/authorize`, "ada@example.com");
 * const done = await browser.request("GET", callback);
 * ```
 *
 * @module
 */
import assert from "node:assert/strict";

/** One answer, its body read. */
export interface Answer {
  url: string;
  status: number;
  headers: Headers;
  text: string;
  /** The `Location` resolved against `url`, or `null`. */
  location: string | null;
}

/** The browser. */
export interface HttpBrowser {
  /** The cookies kept for a host (`127.0.0.1`, `app.localhost`), by name. */
  cookiesOf(host: string): Map<string, string>;
  /**
   * One request, cookies sent and kept, no redirect followed; a form or a JSON body. Unsafe
   * methods carry the target's own `Origin` (a page of that origin sent them).
   */
  request(
    method: string,
    url: string,
    form?: Record<string, string>,
    json?: unknown,
  ): Promise<Answer>;
  /** A `fetch` in this browser (its cookies), for a client such as `createAuthClient`. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** GETs `url` and follows redirects until `stop(url)` or an answer that is not a redirect. */
  follow(url: string, stop?: (next: string) => boolean): Promise<Answer>;
}

/** A fresh browser; requests to `app.origin` go to `app.fetch`. */
export function httpBrowser(app: {
  origin: string;
  fetch(request: Request): Promise<Response>;
}): HttpBrowser {
  const jars = new Map<string, Map<string, string>>();
  const jarOf = (host: string) => {
    let jar = jars.get(host);
    if (!jar) jars.set(host, jar = new Map());
    return jar;
  };
  const browser: HttpBrowser = {
    cookiesOf: jarOf,
    async request(method, url, form, json) {
      const target = new URL(url);
      const jar = jarOf(target.hostname);
      const headers = new Headers({ "user-agent": "http-browser/1.0 (test)" });
      if (jar.size > 0) {
        headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
      }
      let body: string | undefined;
      if (method !== "GET" && method !== "HEAD") headers.set("origin", target.origin);
      if (form) {
        headers.set("content-type", "application/x-www-form-urlencoded");
        body = new URLSearchParams(form).toString();
      } else if (json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(json);
      }
      const init: RequestInit = { method, headers, body, redirect: "manual" };
      const response = target.origin === app.origin
        ? await app.fetch(new Request(url, init))
        : await fetch(url, init);
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(";").map((part) => part.trim());
        const at = pair.indexOf("=");
        const name = pair.slice(0, at);
        const expired = attributes.some((a) => /^max-age=0$/i.test(a)) ||
          attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now());
        if (expired) jar.delete(name);
        else jar.set(name, pair.slice(at + 1));
      }
      const location = response.headers.get("location");
      return {
        url,
        status: response.status,
        headers: response.headers,
        text: await response.text(),
        location: location === null ? null : new URL(location, url).href,
      };
    },
    async fetch(url, init) {
      const method = init.method ?? "GET";
      const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
      const answer = await browser.request(method, url, undefined, body);
      return new Response(answer.text || null, {
        status: answer.status,
        headers: answer.headers,
      });
    },
    async follow(url, stop = () => false) {
      let answer = await browser.request("GET", url);
      for (let hops = 0; answer.location !== null && hops < 20; hops++) {
        if (stop(answer.location)) return answer;
        answer = await browser.request("GET", answer.location);
      }
      return answer;
    },
  };
  return browser;
}

/** The action of the page's form (`oidc-provider`'s interaction pages have one). */
function formAction(answer: Answer): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(answer.text)?.[1];
  assert.ok(action, `no form at ${answer.url} (${answer.status}): ${answer.text.slice(0, 300)}`);
  return new URL(action.replaceAll("&amp;", "&"), answer.url).href;
}

/**
 * Opens `authorizeUrl` (the app's `/oauth/<id>/authorize`), logs in as `login` on the provider's
 * login page, consents, and answers the URL the provider sends the browser back to (the app's
 * callback), not yet opened. A provider that remembers the login and the consent skips the forms.
 */
export async function loginAt(
  browser: HttpBrowser,
  authorizeUrl: string,
  login: string,
  callbackPath = "/callback",
): Promise<string> {
  const isCallback = (next: string) => new URL(next).pathname.endsWith(callbackPath);
  let answer = await browser.follow(authorizeUrl, isCallback);
  for (let step = 0; step < 4; step++) {
    if (answer.location !== null && isCallback(answer.location)) return answer.location;
    assert.equal(
      answer.status,
      200,
      `${answer.url}: ${answer.status} ${answer.text.slice(0, 300)}`,
    );
    const consent = answer.text.includes('name="prompt" value="consent"');
    const form: Record<string, string> = consent
      ? { prompt: "consent" }
      : { prompt: "login", login, password: "any password" };
    const posted = await browser.request("POST", formAction(answer), form);
    assert.ok(posted.location, `${posted.url}: ${posted.status} ${posted.text.slice(0, 300)}`);
    answer = isCallback(posted.location)
      ? posted
      : await browser.follow(posted.location, isCallback);
  }
  assert.fail(`the provider never sent the browser back: ${answer.url} ${answer.status}`);
}
