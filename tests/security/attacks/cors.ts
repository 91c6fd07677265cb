// CORS: the `trustedOrigins` list is the one allowance of another origin, for sending unsafe
// requests (the origin rule) and for reading answers with cookies. Pages on any other origin get
// no CORS header, whatever they dress their Origin as; a trusted page asking for more than the
// module accepts gets none either. Browsers enforce what these headers say, so the tests read
// the headers a browser would act on.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type AuthTarget, serveAuth } from "../harness.ts";

const TRUSTED = "https://app.example.com";
const PASSWORD = "correct horse battery";

/** The `Access-Control-*` headers of an answer. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers].filter(([name]) => name.startsWith("access-control-")),
  );
}

function preflight(
  target: AuthTarget,
  path: string,
  origin: string,
  method: string,
  headers = "content-type",
): Promise<Response> {
  return fetch(`${target.url}${path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      ...(headers ? { "access-control-request-headers": headers } : {}),
    },
  });
}

let emails = 0;

describe("CORS: only trustedOrigins may read answers (with cookies)", () => {
  let target: AuthTarget;
  let closed: AuthTarget;
  before(async () => {
    target = await serveAuth({ trustedOrigins: [TRUSTED] });
    closed = await serveAuth();
  });
  after(async () => {
    await target?.close();
    await closed?.close();
  });

  it("answers a trusted origin's preflight: exact origin, credentials, methods, headers, max age", async () => {
    const response = await preflight(target, "/sign-in", TRUSTED, "POST", "Content-Type");
    await response.body?.cancel();
    assert.equal(response.status, 204);
    assert.deepEqual(corsHeaders(response), {
      "access-control-allow-origin": TRUSTED,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": "GET, HEAD, POST, PATCH, DELETE",
      "access-control-allow-headers": "Content-Type, Authorization",
      "access-control-max-age": "600",
    });
    assert.match(response.headers.get("vary") ?? "", /\bOrigin\b/);
    for (const [method, headers] of [["PATCH", "content-type,authorization"], ["DELETE", ""]]) {
      const other = await preflight(target, "/organizations/x", TRUSTED, method, headers);
      await other.body?.cancel();
      assert.equal(other.headers.get("access-control-allow-origin"), TRUSTED, method);
    }
  });

  it("lets a trusted page sign in and read the answer, with the cookie", async () => {
    const email = `cors-${++emails}@example.com`;
    const response = await fetch(`${target.url}/sign-up`, {
      method: "POST",
      headers: { origin: TRUSTED, "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.ok(response.headers.get("set-cookie"));
    const { token } = await response.json();
    assert.equal(response.headers.get("access-control-allow-origin"), TRUSTED);
    assert.equal(response.headers.get("access-control-allow-credentials"), "true");
    assert.match(response.headers.get("access-control-expose-headers") ?? "", /Retry-After/);
    assert.match(response.headers.get("vary") ?? "", /\bOrigin\b/);
    // An error answer is readable too (the page needs its code).
    const me = await fetch(`${target.url}/me`, {
      headers: { origin: TRUSTED, cookie: `service_auth=${token}x` },
    });
    await me.body?.cancel();
    assert.equal(me.status, 401);
    assert.equal(me.headers.get("access-control-allow-origin"), TRUSTED);
  });

  it("gives no CORS header to look-alike origins: suffix, prefix, scheme, port, null, case", async () => {
    const lookAlikes = [
      "https://app.example.com.evil.com",
      "https://evil-app.example.com",
      "https://evilapp.example.com",
      "https://app.example.co",
      "http://app.example.com",
      "https://app.example.com:8443",
      "https://APP.EXAMPLE.COM",
      "https://app.example.com/",
      "null",
      `${TRUSTED}, https://evil.example`,
      "*",
      "",
    ];
    for (const origin of lookAlikes) {
      const response = await preflight(target, "/sign-in", origin, "POST");
      await response.body?.cancel();
      assert.deepEqual(corsHeaders(response), {}, `preflight from ${JSON.stringify(origin)}`);
      // And the actual request is refused by the origin rule, without CORS headers either.
      const post = await fetch(`${target.url}/sign-in`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: PASSWORD }),
      });
      const text = await post.text();
      assert.deepEqual(corsHeaders(post), {}, `POST from ${JSON.stringify(origin)}`);
      if (origin !== "") {
        assert.equal(post.status, 403, `${origin}: ${text}`);
        assert.equal(JSON.parse(text).error.code, "CSRF_REJECTED");
      }
      const get = await fetch(`${target.url}/session`, { headers: { origin } });
      await get.body?.cancel();
      assert.deepEqual(corsHeaders(get), {}, `GET from ${JSON.stringify(origin)}`);
    }
  });

  it("gives no allowance to a trusted origin's preflight asking for another method or header", async () => {
    const asks: [string, string][] = [
      ["PUT", "content-type"],
      ["TRACE", ""],
      ["CONNECT", ""],
      ["post", "content-type"], // methods are case-sensitive in a preflight
      ["POST", "content-type, x-forwarded-for"],
      ["POST", "cookie"],
      ["POST", "x-requested-with"],
    ];
    for (const [method, headers] of asks) {
      const response = await preflight(target, "/sign-in", TRUSTED, method, headers);
      await response.body?.cancel();
      assert.deepEqual(corsHeaders(response), {}, `${method} ${headers}`);
      assert.notEqual(response.status, 500);
    }
  });

  it("without trustedOrigins, answers no origin with CORS headers", async () => {
    const response = await preflight(closed, "/sign-in", TRUSTED, "POST");
    await response.body?.cancel();
    assert.deepEqual(corsHeaders(response), {});
    const get = await fetch(`${closed.url}/session`, { headers: { origin: TRUSTED } });
    await get.body?.cancel();
    assert.deepEqual(corsHeaders(get), {});
  });
});
