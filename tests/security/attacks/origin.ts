// Findings 2, 6 and 7 of the security issue, replayed through HTTP against a served auth module:
// login CSRF (a hostile page signing the victim into the attacker's account with a form post), a
// client-controlled Host steering origin and Secure-cookie decisions or rerouting requests, and
// the smaller ones (lone-surrogate passwords that collide, logo URLs stored as given).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { rawRequest } from "../../helpers/raw_http.ts";
import { type AuthTarget, serveAuth } from "../harness.ts";

const PASSWORD = "correct horse battery";
const EVIL = "https://evil.example";
const TRUSTED = "https://app.example.com";

let emails = 0;
function email(tag: string): string {
  return `origin-${tag}-${++emails}@example.com`;
}

/** A POST of `body` with `headers` (a JSON content type unless one is given). */
function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function assertRefused(response: Response, status: number, code: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(JSON.parse(text).error.code, code, text);
  assert.equal(response.headers.get("set-cookie"), null, "no credential issued");
}

async function signUp(target: AuthTarget, tag: string): Promise<{ token: string; email: string }> {
  const address = email(tag);
  const response = await post(
    `${target.url}/sign-up`,
    JSON.stringify({ email: address, password: PASSWORD }),
  );
  assert.equal(response.status, 200, await response.clone().text());
  return { token: (await response.json()).token, email: address };
}

describe("login CSRF: sign-in and sign-up follow the origin rule (finding 2)", () => {
  let target: AuthTarget;
  let trusting: AuthTarget;
  before(async () => {
    target = await serveAuth();
    trusting = await serveAuth({ trustedOrigins: [TRUSTED] });
  });
  after(async () => {
    await target?.close();
    await trusting?.close();
  });

  it("refuses a sign-in from a hostile Origin (the victim's cookie attached) with 403", async () => {
    const attacker = await signUp(target, "attacker");
    const victim = await signUp(target, "victim");
    const body = JSON.stringify({ email: attacker.email, password: PASSWORD });
    const attempts: Record<string, string>[] = [
      { origin: EVIL, cookie: `service_auth=${victim.token}` },
      { origin: EVIL },
      { origin: "null" }, // a sandboxed iframe's origin
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attempts) {
      await assertRefused(
        await post(`${target.url}/sign-in`, body, headers),
        403,
        "CSRF_REJECTED",
      );
    }
  });

  it("refuses a sign-up from a hostile Origin with 403 and creates no account", async () => {
    const address = email("forged");
    const body = JSON.stringify({ email: address, password: PASSWORD });
    await assertRefused(
      await post(`${target.url}/sign-up`, body, { origin: EVIL }),
      403,
      "CSRF_REJECTED",
    );
    await assertRefused(
      await post(`${target.url}/sign-up`, body, { "sec-fetch-site": "cross-site" }),
      403,
      "CSRF_REJECTED",
    );
    const rows = await target.db.query(
      `SELECT 1 FROM "${target.namespace}".users WHERE email = $1`,
      [address],
    );
    assert.equal(rows.length, 0);
  });

  it("refuses bodies a form can send without a preflight (415)", async () => {
    const attacker = await signUp(target, "form");
    const json = JSON.stringify({ email: attacker.email, password: PASSWORD });
    const form = `email=${encodeURIComponent(attacker.email)}&password=x`;
    const bodies: Array<[string, string | null]> = [
      [json, "text/plain"],
      [json, "text/plain;charset=UTF-8"],
      [form, "application/x-www-form-urlencoded"],
      [json, "multipart/form-data; boundary=x"],
      [json, "application/jsonx"],
      [json, "application/json; charset=latin1"],
      [json, null],
    ];
    for (const path of ["/sign-in", "/sign-up"]) {
      for (const [body, type] of bodies) {
        const response = await fetch(`${target.url}${path}`, {
          method: "POST",
          // A Blob without a type sends no Content-Type at all.
          body: type === null ? new Blob([body]) : body,
          headers: type === null ? {} : { "content-type": type },
        });
        await assertRefused(response, 415, "UNSUPPORTED_MEDIA_TYPE");
      }
    }
  });

  it("answers 415 on authenticated routes with a body too", async () => {
    const { token } = await signUp(target, "authed415");
    const response = await fetch(`${target.url}/organizations`, {
      method: "POST",
      body: JSON.stringify({ name: "Acme" }),
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
    });
    await assertRefused(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("accepts same-origin and trusted-origin sign-ins, JSON with a charset or a +json type", async () => {
    const user = await signUp(target, "same");
    const body = JSON.stringify({ email: user.email, password: PASSWORD });
    const accepted: Record<string, string>[] = [
      { origin: target.origin },
      { origin: target.origin, "content-type": "application/json; charset=utf-8" },
      { "content-type": "application/vnd.api+json" },
      { "content-type": 'Application/JSON;Charset="UTF-8"' },
      { "sec-fetch-site": "same-origin" },
      {}, // a non-browser client sends neither Origin nor Sec-Fetch-Site
    ];
    for (const headers of accepted) {
      const response = await post(`${target.url}/sign-in`, body, headers);
      assert.equal(response.status, 200, `${JSON.stringify(headers)}: ${await response.text()}`);
    }
    const trusted = await signUp(trusting, "trusted");
    const fromApp = await post(
      `${trusting.url}/sign-in`,
      JSON.stringify({ email: trusted.email, password: PASSWORD }),
      { origin: TRUSTED },
    );
    assert.equal(fromApp.status, 200, await fromApp.text());
  });
});

describe("Host header: publicOrigin decides, malformed hosts are refused (finding 6)", () => {
  let target: AuthTarget;
  let plain: AuthTarget;
  before(async () => {
    target = await serveAuth({ publicOrigin: TRUSTED });
    plain = await serveAuth();
  });
  after(async () => {
    await target?.close();
    await plain?.close();
  });

  it("sets Secure from publicOrigin, not from a loopback Host", async () => {
    const response = await post(
      `${target.url}/sign-up`,
      JSON.stringify({ email: email("secure"), password: PASSWORD }),
    );
    assert.equal(response.status, 200, await response.clone().text());
    const cookie = response.headers.get("set-cookie") ?? "";
    assert.ok(cookie.split("; ").includes("Secure"), cookie);
  });

  it("checks Origin against publicOrigin, not against the request's Host", async () => {
    const user = await signUp(target, "public");
    const body = JSON.stringify({ email: user.email, password: PASSWORD });
    // The Host-derived origin (http://127.0.0.1:<port>) is not the deployment's.
    await assertRefused(
      await post(`${target.url}/sign-in`, body, { origin: target.origin }),
      403,
      "CSRF_REJECTED",
    );
    const fromPublic = await post(`${target.url}/sign-in`, body, { origin: TRUSTED });
    assert.equal(fromPublic.status, 200, await fromPublic.clone().text());
    // Cookie-authenticated writes follow the same rule.
    const { token } = await fromPublic.json();
    await assertRefused(
      await fetch(`${target.url}/sign-out`, {
        method: "POST",
        headers: { cookie: `service_auth=${token}`, origin: target.origin },
      }),
      403,
      "CSRF_REJECTED",
    );
  });

  it("refuses a malformed Host with 400 and never reroutes the request", async () => {
    const port = Number(new URL(plain.origin).port);
    const mount = new URL(plain.url).pathname;
    const victim = email("reroute");
    // Deno builds the URL from Host + path: this Host turned a sign-in into a sign-up.
    const hosts = [
      `127.0.0.1:${port}${mount}/sign-up?`,
      `127.0.0.1:${port}${mount}/sign-up#`,
      "127.0.0.1/x",
      "user@127.0.0.1",
      "127.0.0.1:99999",
      "127.0.0.1:",
      "ex ample.com",
      "example.com\\x",
      "",
    ];
    for (const host of hosts) {
      const response = await rawRequest(port, {
        method: "POST",
        path: `${mount}/sign-in`,
        host,
        body: JSON.stringify({ email: victim, password: PASSWORD }),
      });
      assert.equal(response.status, 400, `Host ${JSON.stringify(host)}: ${response.body}`);
      // Node's HTTP server refuses some of these itself, with an empty body.
      if (response.body.trim()) {
        assert.equal(JSON.parse(response.body).error.code, "INVALID_HOST", response.body);
      }
    }
    const rows = await plain.db.query(
      `SELECT 1 FROM "${plain.namespace}".users WHERE email = $1`,
      [victim],
    );
    assert.equal(rows.length, 0, "a Host carrying a path reached sign-up");
  });

  it("accepts a hostname or IP literal with an optional port", async () => {
    const port = Number(new URL(plain.origin).port);
    const mount = new URL(plain.url).pathname;
    for (const host of [`127.0.0.1:${port}`, "localhost", "app.example.com:8443", "[::1]:8080"]) {
      const response = await rawRequest(port, { method: "GET", path: `${mount}/session`, host });
      assert.equal(response.status, 401, `Host ${host}: ${response.body}`);
    }
  });
});

describe("smaller ones: lone surrogates, logo URLs (finding 7)", () => {
  let target: AuthTarget;
  before(async () => (target = await serveAuth()));
  after(() => target?.close());

  it("refuses passwords with lone surrogates on sign-up and sign-in (400), which collided", async () => {
    const address = email("surrogate");
    // UTF-8 encodes every lone surrogate as U+FFFD: these three passwords hashed alike.
    const signUpResponse = await post(
      `${target.url}/sign-up`,
      JSON.stringify({ email: address, password: `${PASSWORD}\uD800` }),
    );
    const text = await signUpResponse.text();
    assert.equal(signUpResponse.status, 400, text);
    assert.equal(JSON.parse(text).error.code, "VALIDATION_ERROR");
    assert.equal(JSON.parse(text).issues[0].path, "body.password");
    const user = await signUp(target, "surrogate-in");
    for (const password of [`${PASSWORD}\uDC00`, `\uDFFF${PASSWORD}`]) {
      const signIn = await post(
        `${target.url}/sign-in`,
        JSON.stringify({ email: user.email, password }),
      );
      const body = await signIn.text();
      assert.equal(signIn.status, 400, body);
      assert.equal(JSON.parse(body).error.code, "VALIDATION_ERROR");
    }
    // A well-formed astral character (a surrogate pair) is fine.
    const pair = await post(
      `${target.url}/sign-up`,
      JSON.stringify({ email: email("pair"), password: `${PASSWORD}\u{1F511}` }),
    );
    assert.equal(pair.status, 200, await pair.text());
  });

  it("stores the normalized href of a logo URL", async () => {
    const { token } = await signUp(target, "logo");
    const headers = { authorization: `Bearer ${token}` };
    const created = await post(
      `${target.url}/organizations`,
      JSON.stringify({ name: "Logo Co", logoUrl: "HTTPS://Example.COM:443/a/../logo 1.png" }),
      headers,
    );
    const body = await created.json();
    assert.equal(created.status, 201, JSON.stringify(body));
    assert.equal(body.organization.logoUrl, "https://example.com/logo%201.png");
    const id = body.organization.id;
    const patched = await fetch(`${target.url}/organizations/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ logoUrl: "http://EXAMPLE.com/./x/%7e?q=a b" }),
      headers: { ...headers, "content-type": "application/json" },
    });
    const patchedBody = await patched.json();
    assert.equal(patched.status, 200, JSON.stringify(patchedBody));
    assert.equal(patchedBody.organization.logoUrl, "http://example.com/x/%7e?q=a%20b");
    const [row] = await target.db.query<{ logo_url: string }>(
      `SELECT logo_url FROM "${target.namespace}".organizations WHERE id = $1`,
      [id],
    );
    assert.equal(row.logo_url, "http://example.com/x/%7e?q=a%20b");
  });
});
