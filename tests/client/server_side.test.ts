// The clients on a server: a small Hono backend (its own HTTP server) calls the auth module and a
// module of the application (served together on another port, PGlite) as the visitor whose
// browser called it, by forwarding the browser's cookie in `headers`. `createAuthClient` gets the
// cookie as fixed headers, built per request; `createModuleClient` is created once with a
// `headers` function that reads the request being served from an AsyncLocalStorage. The
// backend's own sign-in and sign-out routes forward the module's `Set-Cookie` answers to the
// browser. The application module reads the user in-process, with `auth.api.getRequestAuth`.
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { createModule, HttpError, route, type RunningServer, serve } from "../../src/core/mod.ts";
import { auth, type AuthModule, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { type AuthFetch, createAuthClient, createModuleClient } from "../../src/client/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { type CookieJar, cookieJar } from "./cookie_jar.ts";

const PASSWORD = "correct horse battery";

let db: SqlAdapter;
let authModule: AuthModule;
let modules: RunningServer;
let backend: LocalServer;
let emails = 0;
const email = (tag: string) => `server-${tag}-${++emails}@example.com`;

/** The application's module: who the caller is, read in-process from the auth module. */
function profileModule(authApi: AuthModule["api"]) {
  return createModule({
    name: "profile",
    routes: [
      route({
        method: "GET",
        path: "/whoami",
        errors: { 401: ["UNAUTHENTICATED"] },
        handler: async ({ request }) => {
          const context = await authApi.getRequestAuth(request);
          if (!context) throw new HttpError(401, "UNAUTHENTICATED", "Sign in first");
          return { email: context.user.email };
        },
      }),
    ],
  });
}

/**
 * The backend: `/account` and `/whoami` answer the visitor's email through the two clients;
 * `/sign-in` and `/sign-out` call the auth module and hand its cookie changes to the browser.
 */
function backendApp(authUrl: string, profile: ReturnType<typeof profileModule>, origin: string) {
  const incoming = new AsyncLocalStorage<Request>();
  const profileClient = createModuleClient<typeof profile>({
    baseUrl: `${origin}${profile.mountRoute}`,
    headers: () => ({ cookie: incoming.getStore()?.headers.get("cookie") }),
  });
  /** A client calling as the visitor of `request`, and the `Set-Cookie`s the module answered. */
  const authFor = (request: Request) => {
    const setCookies: string[] = [];
    const keep: AuthFetch = async (url, init) => {
      const response = await fetch(url, init);
      setCookies.push(...response.headers.getSetCookie());
      return response;
    };
    const client = createAuthClient({
      baseUrl: authUrl,
      headers: { cookie: request.headers.get("cookie") },
      fetch: keep,
    });
    return { client, setCookies };
  };
  const app = new Hono();
  app.use((c, next) => incoming.run(c.req.raw, next));
  app.get("/account", async (c) => {
    const { data, error } = await authFor(c.req.raw).client.me();
    if (error) return c.json({ error: error.code }, error.status === 401 ? 401 : 502);
    return c.json({ email: data.user.email });
  });
  app.get("/whoami", async (c) => {
    const { data, error } = await profileClient.request("GET /whoami");
    if (error) return c.json({ error: error.code }, error.status === 401 ? 401 : 502);
    return c.json(data);
  });
  app.post("/sign-in", async (c) => {
    const { client, setCookies } = authFor(c.req.raw);
    const { email, password } = await c.req.json();
    const { error } = await client.signIn({ email, password });
    const answer = c.json(error ? { error: error.code } : { ok: true }, error ? 401 : 200);
    for (const cookie of setCookies) answer.headers.append("set-cookie", cookie);
    return answer;
  });
  app.post("/sign-out", async (c) => {
    const { client, setCookies } = authFor(c.req.raw);
    const { error } = await client.signOut();
    const answer = c.json(error ? { error: error.code } : { ok: true }, error ? 401 : 200);
    for (const cookie of setCookies) answer.headers.append("set-cookie", cookie);
    return answer;
  });
  return app;
}

before(async () => {
  db = pgliteAdapter();
  await migrate(db, authSchema);
  authModule = auth({
    database: db,
    passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
  });
  const profile = profileModule(authModule.api);
  modules = await serve([authModule, profile], {
    port: 0,
    hostname: "127.0.0.1",
    handleSignals: false,
  });
  const origin = `http://127.0.0.1:${modules.port}`;
  const app = backendApp(`${origin}${authModule.mountRoute}`, profile, origin);
  backend = await listenLocal((request) => app.fetch(request));
});
after(async () => {
  await backend.close();
  await modules.shutdown();
  await db.close();
});

/** A browser: its cookie jar, signed up at the auth module itself (as a page would). */
async function signedUpBrowser(tag: string): Promise<{ jar: CookieJar; address: string }> {
  const jar = cookieJar();
  const address = email(tag);
  const browser = createAuthClient({
    baseUrl: `http://127.0.0.1:${modules.port}${authModule.mountRoute}`,
    fetch: jar.fetch,
  });
  const { error } = await browser.signUp({ email: address, password: PASSWORD });
  assert.equal(error, null);
  assert.ok(jar.cookies.has("service_auth"));
  return { jar, address };
}

/** GET `path` of the backend with the jar's cookies: status and JSON body. */
async function backendGet(jar: CookieJar, path: string): Promise<[number, unknown]> {
  const response = await jar.fetch(`${backend.url}${path}`, { method: "GET" });
  return [response.status, await response.json()];
}

describe("clients on a server, forwarding the visitor's cookie", () => {
  it("answers 401 for a visitor without a cookie: no cookie header is sent", async () => {
    const jar = cookieJar();
    assert.deepEqual(await backendGet(jar, "/account"), [401, { error: "UNAUTHENTICATED" }]);
    assert.deepEqual(await backendGet(jar, "/whoami"), [401, { error: "UNAUTHENTICATED" }]);
  });

  it("calls the auth module and a module of the application as the visitor", async () => {
    const { jar, address } = await signedUpBrowser("visitor");
    assert.deepEqual(await backendGet(jar, "/account"), [200, { email: address }]);
    assert.deepEqual(await backendGet(jar, "/whoami"), [200, { email: address }]);
  });

  it("reads the headers function per call: concurrent visitors each get their own", async () => {
    const visitors = await Promise.all(["one", "two", "three"].map(signedUpBrowser));
    const answers = await Promise.all(
      [...visitors, ...visitors].map(({ jar }) => backendGet(jar, "/whoami")),
    );
    assert.deepEqual(
      answers,
      [...visitors, ...visitors].map(({ address }) => [200, { email: address }]),
    );
  });

  it("hands the module's Set-Cookie to the browser: sign-in, then sign-out", async () => {
    const { address } = await signedUpBrowser("forwarded");
    const jar = cookieJar();
    const refused = await jar.fetch(`${backend.url}/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: address, password: "wrong password" }),
    });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.headers.getSetCookie(), []);

    const signedIn = await jar.fetch(`${backend.url}/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: address, password: PASSWORD }),
    });
    assert.equal(signedIn.status, 200);
    const [cookie] = signedIn.headers.getSetCookie();
    assert.match(cookie, /^service_auth=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    const token = jar.cookies.get("service_auth");
    assert.ok(token);
    assert.deepEqual(await backendGet(jar, "/account"), [200, { email: address }]);

    const signedOut = await jar.fetch(`${backend.url}/sign-out`, { method: "POST" });
    assert.equal(signedOut.status, 200);
    assert.match(signedOut.headers.getSetCookie()[0], /^service_auth=; .*Max-Age=0/);
    assert.equal(jar.cookies.has("service_auth"), false);
    assert.deepEqual(await backendGet(jar, "/account"), [401, { error: "UNAUTHENTICATED" }]);
    // The credential itself ended, not only the browser's copy of it.
    const replayed = await authModule.api.getRequestAuth(
      new Request("http://127.0.0.1/", { headers: { cookie: `service_auth=${token}` } }),
    );
    assert.equal(replayed, null);
  });
});
