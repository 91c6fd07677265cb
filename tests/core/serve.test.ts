import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { echo } from "../fixtures/echo_module.ts";
import {
  AddressInUseError,
  composeModules,
  createModule,
  DuplicateMountError,
  route,
  type RunningServer,
  serve,
} from "../../mod.ts";
import { RUNTIME, runtimeArgs } from "../helpers/spawn_runtime.ts";

const other = createModule({
  name: "echo-two",
  routes: [route({ method: "GET", path: "/", handler: () => ({ two: true }) })],
});

describe("serve()", () => {
  let server: RunningServer;
  before(async () => {
    server = await serve([echo, other], { port: 0, hostname: "127.0.0.1", handleSignals: false });
  });
  after(async () => {
    await server.shutdown();
  });

  it("reports the address with the host as given", () => {
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
    assert.ok(server.port > 0);
  });

  it("routes each module under its mount through a real socket", async () => {
    const response = await fetch(`${server.url}/api/echo/hello/ada`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(await response.json(), { message: "Hi, ada" });
    const two = await fetch(`${server.url}/api/echo-two`);
    assert.deepEqual(await two.json(), { two: true });
  });

  it("answers a path that matches no mount with 404 and the mounts", async () => {
    for (const path of ["/", "/api", "/api/echox/hello/ada", "/api/echo-three"]) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      const body = await response.json();
      assert.equal(body.error.code, "NOT_FOUND");
      assert.deepEqual(body.availableRoutes, ["/api/echo", "/api/echo-two"]);
    }
  });

  it("keeps module behaviour over the socket: 405 with Allow, HEAD, 413, 500", async () => {
    const wrong = await fetch(`${server.url}/api/echo/items`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "POST, OPTIONS");
    await wrong.body?.cancel();
    const head = await fetch(`${server.url}/api/echo/hello/ada`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
    const big = await fetch(`${server.url}/api/echo/items`, {
      method: "POST",
      body: JSON.stringify({ title: "x".repeat(200), count: 1 }),
    });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).error.code, "PAYLOAD_TOO_LARGE");
    const original = console.error;
    console.error = () => {};
    try {
      const boom = await fetch(`${server.url}/api/echo/boom`);
      assert.equal(boom.status, 500);
      assert.equal((await boom.json()).error.code, "INTERNAL_ERROR");
    } finally {
      console.error = original;
    }
  });

  it("fails with AddressInUseError when the port is taken", async () => {
    await assert.rejects(
      serve([echo], { port: server.port, hostname: "127.0.0.1", handleSignals: false }),
      AddressInUseError,
    );
  });
});

describe("composeModules()", () => {
  it("refuses two modules on one mount", () => {
    const twin = createModule({ name: "echo", routes: [] });
    assert.throws(() => composeModules([echo, twin]), DuplicateMountError);
  });
});

describe("graceful shutdown", () => {
  it("lets an in-flight request finish on SIGTERM, then exits 0", async () => {
    const script = fileURLToPath(new URL("../fixtures/slow_server.ts", import.meta.url));
    const child = spawn(process.execPath, runtimeArgs(script), {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    const output: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      lines.on("line", (line) => {
        output.push(line);
        if (line.startsWith("http://")) resolve(line);
      });
      child.once("exit", (code) => reject(new Error(`server exited early with ${code}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const started = new Promise<void>((resolve) =>
      lines.on("line", (line) => line === "request started" && resolve())
    );
    const inFlight = fetch(`${url}/api/slow/wait`);
    await started;
    child.kill("SIGTERM");
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { finished: true });
    const code = await exited;
    if (RUNTIME !== "deno") assert.equal(code, 0);
    assert.deepEqual(output.slice(1), ["request started", "shutdown complete", "exit code 0"]);
    await assert.rejects(fetch(`${url}/api/slow/wait`));
  });
});
