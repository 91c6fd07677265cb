import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { echo, echoDefinition } from "../fixtures/echo_module.ts";
import { composeModules, ModuleConfigError } from "../../mod.ts";
import { isModuleInstance } from "../../src/core/module_instance.ts";

const base = "http://localhost/api/echo";

/** The content type every JSON body must be labelled with. */
const JSON_TYPE = { "content-type": "application/json" };

async function call(path: string, init?: RequestInit): Promise<Response> {
  return await echo.fetch(new Request(`${base}${path}`, init));
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  assert.match(response.headers.get("content-type") ?? "", /application\/json/);
  const body = await response.json();
  assert.equal(typeof body.error.code, "string");
  assert.equal(typeof body.error.message, "string");
  return body.error;
}

describe("module instance", () => {
  it("exposes brand, name, mountRoute and full route paths", () => {
    assert.ok(isModuleInstance(echo));
    assert.equal(echo.name, "echo");
    assert.equal(echo.mountRoute, "/api/echo");
    assert.deepEqual(echo.routes.slice(0, 2), [
      { method: "GET", path: "/api/echo/hello/:name" },
      { method: "POST", path: "/api/echo/items" },
    ]);
  });

  it("validates config at instantiation with an error naming the option", () => {
    assert.throws(
      () => echoDefinition({ config: { greeting: "" } }),
      (error: unknown) =>
        error instanceof ModuleConfigError && /greeting/.test(error.message) &&
        /"echo"/.test(error.message),
    );
  });

  it("honours a custom mountRoute on a segment boundary", async () => {
    const custom = echoDefinition({ mountRoute: "/v1/echo" });
    const ok = await custom.fetch(new Request("http://x/v1/echo/hello/ada"));
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { message: "Hello, ada" });
    const outside = await custom.fetch(new Request("http://x/v1/echox/hello/ada"));
    assert.equal(outside.status, 404);
    await errorOf(outside);
  });

  it("rejects a bad mountRoute and module name", () => {
    assert.throws(() => echoDefinition({ mountRoute: "api/echo/" }), /mountRoute/);
  });
});

describe("module HTTP behaviour", () => {
  it("passes validated params and query to the handler", async () => {
    const response = await call("/hello/ada?excited=yes");
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { message: "Hi, ada!" });
  });

  it("answers a handler's Response as is and 204 for undefined", async () => {
    const created = await call("/items", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "a", count: 2 }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { created: { title: "a", count: 2 } });
    const deleted = await call("/items/7", { method: "DELETE" });
    assert.equal(deleted.status, 204);
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    for (const body of ["{nope", "", "[1,"]) {
      const response = await call("/items", { method: "POST", headers: JSON_TYPE, body });
      assert.equal(response.status, 400);
      assert.equal((await errorOf(response)).code, "INVALID_JSON");
    }
  });

  it("answers validation failures with 400 and issues for body, params and query", async () => {
    const body = await call("/items", {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ count: -1 }),
    });
    assert.equal(body.status, 400);
    const json = await body.json();
    assert.equal(json.error.code, "VALIDATION_ERROR");
    const paths = json.issues.map((i: { path: string }) => i.path).sort();
    assert.deepEqual(paths, ["body.count", "body.title"]);

    const params = await call("/hello/a");
    assert.equal(params.status, 400);
    assert.equal((await params.json()).issues[0].path, "params.name");

    const query = await call("/hello/ada?excited=maybe");
    assert.equal(query.status, 400);
    assert.equal((await query.json()).issues[0].path, "query.excited");
  });

  it("answers 415 to a declared body not labelled JSON, before reading it", async () => {
    const valid = JSON.stringify({ title: "a", count: 1 });
    for (
      const type of [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json-seq",
        "application/json; charset=utf-16",
        "json",
      ]
    ) {
      const response = await call("/items", {
        method: "POST",
        headers: { "content-type": type },
        body: valid,
      });
      assert.equal(response.status, 415, type);
      assert.equal((await errorOf(response)).code, "UNSUPPORTED_MEDIA_TYPE");
    }
    const untyped = await call("/items", { method: "POST", body: new Blob([valid]) });
    assert.equal(untyped.status, 415, "no Content-Type");
    await untyped.body?.cancel();
    for (
      const type of [
        "application/json",
        "APPLICATION/JSON; charset=UTF-8",
        'application/json;charset="utf-8"',
        "application/merge-patch+json",
        "application/json; profile=x",
      ]
    ) {
      const response = await call("/items", {
        method: "POST",
        headers: { "content-type": type },
        body: valid,
      });
      assert.equal(response.status, 201, type);
      await response.body?.cancel();
    }
    // Routes without a body schema take any body (the messenger webhook reads its own).
    const deleted = await call("/items/7", {
      method: "DELETE",
      headers: { "content-type": "text/plain" },
      body: "x",
    });
    assert.equal(deleted.status, 204);
  });

  it("answers 400 INVALID_HOST to a malformed Host header, before routing", async () => {
    for (const host of ["x.example/api/echo/items?", "a@b", "b:99999", "b:", "", "é.example"]) {
      const response = await call("/hello/ada", { headers: { host } });
      assert.equal(response.status, 400, host);
      assert.equal((await errorOf(response)).code, "INVALID_HOST");
    }
    for (const host of ["localhost", "app.example.com:8443", "10.0.0.1", "[::1]:80", "web_1"]) {
      const response = await call("/hello/ada", { headers: { host } });
      assert.equal(response.status, 200, host);
      await response.body?.cancel();
    }
    // The composed server of `serve` refuses it too, before it picks a module (or answers 404).
    const composed = composeModules([echo]);
    const outside = await composed(
      new Request("http://localhost/elsewhere", { headers: { host: "localhost/api/echo/x?" } }),
    );
    assert.equal(outside.status, 400);
    assert.equal((await errorOf(outside)).code, "INVALID_HOST");
  });

  it("answers an unknown path with 404 in the error shape", async () => {
    const response = await call("/nothing/here");
    assert.equal(response.status, 404);
    assert.equal((await errorOf(response)).code, "NOT_FOUND");
  });

  it("answers a wrong method on a known path with 405 and Allow", async () => {
    const response = await call("/items", { method: "GET" });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get("allow"), "POST, OPTIONS");
    assert.equal((await errorOf(response)).code, "METHOD_NOT_ALLOWED");
    const hello = await call("/hello/ada", { method: "PUT" });
    assert.equal(hello.status, 405);
    assert.equal(hello.headers.get("allow"), "GET, HEAD, OPTIONS");
    await hello.body?.cancel();
  });

  it("answers OPTIONS on a known path with 204 and Allow", async () => {
    const response = await call("/items/3", { method: "OPTIONS" });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get("allow"), "DELETE, OPTIONS");
  });

  it("answers HEAD for GET routes without a body", async () => {
    const response = await call("/hello/ada", { method: "HEAD" });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(await response.text(), "");
  });

  it("refuses bodies over the limit with 413, declared or streamed", async () => {
    const big = JSON.stringify({ title: "x".repeat(100), count: 1 });
    const declared = await call("/items", { method: "POST", headers: JSON_TYPE, body: big });
    assert.equal(declared.status, 413);
    assert.equal((await errorOf(declared)).code, "PAYLOAD_TOO_LARGE");

    const chunks = [
      new TextEncoder().encode(big.slice(0, 50)),
      new TextEncoder().encode(big.slice(50)),
    ];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await echo.fetch(
      new Request(
        `${base}/items`,
        { method: "POST", headers: JSON_TYPE, body: stream, duplex: "half" } as RequestInit,
      ),
    );
    assert.equal(streamed.status, 413);
    await streamed.body?.cancel();

    // A Request built in code may declare less than it carries: the size read is checked too.
    const understated = await call("/items", {
      method: "POST",
      headers: { ...JSON_TYPE, "content-length": "10" },
      body: big,
    });
    assert.equal(understated.status, 413);
    assert.equal((await errorOf(understated)).code, "PAYLOAD_TOO_LARGE");
  });

  it("renders a thrown HttpError in the error shape", async () => {
    const response = await call("/teapot");
    assert.equal(response.status, 418);
    assert.deepEqual(await response.json(), {
      error: { code: "TEAPOT", message: "I am a teapot" },
    });
  });

  it("answers an unreachable database with 503 and Retry-After, without the cause", async () => {
    const original = console.error;
    console.error = () => {};
    try {
      const response = await call("/db-down");
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), "5");
      const text = await response.text();
      assert.equal(JSON.parse(text).error.code, "SERVICE_UNAVAILABLE");
      assert.doesNotMatch(text, /ECONNREFUSED/);
    } finally {
      console.error = original;
    }
  });

  it("answers a rejected cursor with 400 INVALID_CURSOR", async () => {
    const response = await call("/bad-cursor");
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).code, "INVALID_CURSOR");
  });

  it("answers an exception with a generic 500, logged once, no stack or detail", async () => {
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const response = await call("/boom");
      assert.equal(response.status, 500);
      const text = await response.text();
      assert.deepEqual(JSON.parse(text), {
        error: { code: "INTERNAL_ERROR", message: "Internal server error" },
      });
      assert.doesNotMatch(text, /secret internal detail|at /);
    } finally {
      console.error = original;
    }
    assert.equal(logged.length, 1);
    assert.match(String(logged[0][1]), /secret internal detail/);
  });
});
