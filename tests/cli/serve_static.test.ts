/**
 * `fragment-cli serve --static [<path>=]<dir>`: folders of files beside the modules, end to end
 * (cli.ts in a child process, real HTTP). The abuse cases first: nothing outside the folder is
 * ever served, whatever the encoding of the path; then content types, index.html at `/`, no
 * listing, GET and HEAD only, and the modules' mounts before the files; then a folder at a path
 * beside the one at `/`, and the usage errors of both.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  cliFixture,
  runCli,
  type ServeProcess,
  startServe,
  tempDir,
} from "../helpers/cli_process.ts";
import { rawRequest } from "../helpers/raw_http.ts";

const plain = cliFixture("plain_module.ts");
const slow = { timeout: 120_000 };
const SECRET = "top-secret-outside-the-folder";

describe("fragment-cli serve --static", () => {
  const dir = tempDir();
  const site = join(dir.path, "site");
  let server: ServeProcess;
  let port: number;

  before(async () => {
    // The folder served, and beside it what must never be served.
    writeFileSync(join(dir.path, "secret.txt"), SECRET);
    mkdirSync(join(site, "sub"), { recursive: true });
    mkdirSync(join(site, "api", "hello"), { recursive: true });
    mkdirSync(join(site, "docs"), { recursive: true });
    writeFileSync(join(site, "index.html"), "<!doctype html><title>spa</title>");
    writeFileSync(join(site, "app.js"), "console.log('app');");
    writeFileSync(join(site, "style.css"), "body { color: black; }");
    writeFileSync(join(site, "logo.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    writeFileSync(join(site, "data.bin"), "\x00\x01");
    writeFileSync(join(site, "sub", "page.txt"), "in sub");
    writeFileSync(join(site, "docs", "index.html"), "<p>docs index</p>");
    writeFileSync(join(site, "api", "hello", "index.html"), "shadowed by the module");
    writeFileSync(join(site, ".env"), SECRET);
    symlinkSync(join(dir.path, "secret.txt"), join(site, "link.txt"));
    symlinkSync(dir.path, join(site, "up"));
    server = await startServe([plain, "--port", "0", "--host", "127.0.0.1", "--static", site], {
      cwd: dir.path,
    });
    port = Number(new URL(server.url).port);
  }, slow);
  after(async () => {
    await server?.stop();
    dir.remove();
  });

  it("prints the folder and where it is served", () => {
    assert.match(server.stdout(), /^Static files$/m);
    assert.ok(server.stdout().includes(`  At:     ${server.url}/`), server.stdout());
  });

  const traversals = [
    "/../secret.txt",
    "/sub/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/secret.txt",
    "/sub/%2e%2e/%2e%2e/secret.txt",
    "/..%2fsecret.txt",
    "/%2e%2e%2fsecret.txt",
    "/..%5csecret.txt",
    "/sub/..%5c..%5csecret.txt",
    "/..\\secret.txt",
    "/sub\\..\\..\\secret.txt",
    "/%252e%252e/secret.txt",
    "/index.html%00.txt",
    "/%00/../secret.txt",
    "//secret.txt",
    "/%2f..%2fsecret.txt",
    "/.env",
    "/%2eenv",
    "/link.txt",
    "/up/secret.txt",
    "/%c0%ae%c0%ae/secret.txt",
    "/%ff",
  ];
  for (const path of traversals) {
    it(`never serves what lies outside the folder: GET ${path}`, async () => {
      const response = await rawRequest(port, { method: "GET", path, host: `127.0.0.1:${port}` });
      assert.ok(response.status >= 400 && response.status < 500, `${response.status}`);
      assert.ok(!response.body.includes(SECRET), response.body);
    });
  }

  it("lists no folder: a folder without index.html is a 404", async () => {
    for (const path of ["/sub", "/sub/"]) {
      const response = await fetch(`${server.url}${path}`);
      const body = await response.json();
      assert.equal(response.status, 404);
      assert.equal(body.error.code, "NOT_FOUND");
      assert.ok(!JSON.stringify(body).includes("page.txt"));
    }
  });

  it("serves index.html at / and a folder's index.html at its path", async () => {
    const root = await fetch(`${server.url}/`);
    assert.equal(root.status, 200);
    assert.equal(root.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(await root.text(), "<!doctype html><title>spa</title>");
    const docs = await fetch(`${server.url}/docs/`);
    assert.equal(await docs.text(), "<p>docs index</p>");
  });

  it("answers each file with its content type, its length and nosniff", async () => {
    const expected: Record<string, string> = {
      "/index.html": "text/html; charset=utf-8",
      "/app.js": "text/javascript; charset=utf-8",
      "/style.css": "text/css; charset=utf-8",
      "/logo.svg": "image/svg+xml",
      "/data.bin": "application/octet-stream",
      "/sub/page.txt": "text/plain; charset=utf-8",
    };
    for (const [path, type] of Object.entries(expected)) {
      const response = await fetch(`${server.url}${path}?v=1`);
      const body = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-type"), type, path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
      assert.equal(response.headers.get("content-length"), String(body.length), path);
    }
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await rawRequest(port, {
      method: "HEAD",
      path: "/app.js",
      host: `127.0.0.1:${port}`,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers, /^content-type: text\/javascript; charset=utf-8$/im);
    assert.equal(response.body, "");
  });

  it("refuses other methods on a file with 405 and Allow: GET, HEAD", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${server.url}/index.html`, { method, body: "x" });
      const body = await response.json();
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get("allow"), "GET, HEAD");
      assert.equal(body.error.code, "METHOD_NOT_ALLOWED");
    }
  });

  it("leaves the paths under a module's mount to the module", async () => {
    const response = await fetch(`${server.url}/api/hello`);
    assert.deepEqual(await response.json(), { hello: "world" });
    const nested = await fetch(`${server.url}/api/hello/index.html`);
    assert.equal(nested.status, 404);
    assert.doesNotMatch(await nested.text(), /shadowed/);
  });

  it("answers a path that is neither a mount nor a file with the 404 and the mounts", async () => {
    const response = await fetch(`${server.url}/nope.html`);
    const body = await response.json();
    assert.equal(response.status, 404);
    assert.equal(body.error.code, "NOT_FOUND");
    assert.deepEqual(body.availableRoutes, ["/api/hello", "/api/hello-x"]);
  });
});

describe("fragment-cli serve --static with a bad folder", () => {
  const dir = tempDir();
  after(() => dir.remove());

  it("refuses a missing folder or a file as a usage error, before serving", slow, async () => {
    writeFileSync(join(dir.path, "file.txt"), "x");
    for (const target of ["missing", "file.txt"]) {
      const result = await runCli(["serve", plain, "--port", "0", "--static", target], {
        cwd: dir.path,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /--static must name an existing folder/);
      assert.doesNotMatch(result.stdout, /Server running/);
    }
  });
});

describe("fragment-cli serve --static with a folder at a path", () => {
  const dir = tempDir();
  const site = join(dir.path, "site");
  const admin = join(dir.path, "admin");
  let server: ServeProcess;
  let port: number;

  before(async () => {
    writeFileSync(join(dir.path, "secret.txt"), SECRET);
    mkdirSync(site, { recursive: true });
    mkdirSync(join(admin, "sub"), { recursive: true });
    writeFileSync(join(site, "index.html"), "site index");
    writeFileSync(join(site, "only-site.txt"), "site only");
    writeFileSync(join(admin, "index.html"), "admin index");
    writeFileSync(join(admin, "app.js"), "console.log('admin');");
    writeFileSync(join(admin, "sub", "page.txt"), "admin sub");
    writeFileSync(join(admin, ".env"), SECRET);
    server = await startServe(
      [
        plain,
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--static",
        site,
        "--static",
        `/admin=${admin}`,
      ],
      { cwd: dir.path },
    );
    port = Number(new URL(server.url).port);
  }, slow);
  after(async () => {
    await server?.stop();
    dir.remove();
  });

  it("prints each folder and where it is served", () => {
    assert.ok(server.stdout().includes(`  Folder: ${site}\n  At:     ${server.url}/\n`));
    assert.ok(server.stdout().includes(`  Folder: ${admin}\n  At:     ${server.url}/admin/\n`));
  });

  it("serves the folder under its path, and the other at /", async () => {
    const expected: Record<string, string> = {
      "/admin/": "admin index",
      "/admin/index.html": "admin index",
      "/admin/app.js": "console.log('admin');",
      "/admin/sub/page.txt": "admin sub",
      "/": "site index",
      "/only-site.txt": "site only",
    };
    for (const [path, text] of Object.entries(expected)) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(await response.text(), text, path);
    }
  });

  it("redirects the path itself to the folder's index, keeping the query", async () => {
    for (const [path, location] of [["/admin", "/admin/"], ["/admin?tab=2", "/admin/?tab=2"]]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      assert.equal(response.status, 308, path);
      assert.equal(response.headers.get("location"), location, path);
    }
    const posted = await fetch(`${server.url}/admin`, { method: "POST", redirect: "manual" });
    assert.equal(posted.status, 404);
  });

  it("answers under the path from its folder alone, and nothing outside it", async () => {
    for (
      const path of [
        "/admin/only-site.txt",
        "/admin/.env",
        "/admin/../secret.txt",
        "/admin/%2e%2e/secret.txt",
        "/admin/%2e%2e/site/index.html",
        "/admin/sub/%2e%2e/%2e%2e/secret.txt",
        "/admin/..%2fsecret.txt",
        "/admin//app.js",
        "/%61dmin/app.js",
        "/adminx/app.js",
      ]
    ) {
      const response = await rawRequest(port, { method: "GET", path, host: `127.0.0.1:${port}` });
      assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
      assert.ok(!response.body.includes(SECRET), path);
      assert.ok(!/site (only|index)/.test(response.body), path);
    }
  });
});

describe("fragment-cli serve --static with bad paths", () => {
  const dir = tempDir();
  after(() => dir.remove());

  it(
    "refuses a malformed path or one path twice as a usage error, before serving",
    slow,
    async () => {
      mkdirSync(join(dir.path, "a"));
      mkdirSync(join(dir.path, "b"));
      const cases: [string[], RegExp][] = [
        [["--static", "/admin/=a"], /the path must look like \/admin/],
        [["--static", "/a/../b=a"], /the path must look like \/admin/],
        [["--static", "/%61=a"], /the path must look like \/admin/],
        [["--static", "a", "--static", "/=b"], /--static names two folders for \/$/m],
        [["--static", "/x=a", "--static", "/x=b"], /--static names two folders for \/x$/m],
        [["--static", "/x=missing"], /--static must name an existing folder, got "missing"/],
      ];
      for (const [args, message] of cases) {
        const result = await runCli(["serve", plain, "--port", "0", ...args], { cwd: dir.path });
        assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
        assert.match(result.stderr, message, args.join(" "));
        assert.doesNotMatch(result.stdout, /Server running/);
      }
    },
  );
});
