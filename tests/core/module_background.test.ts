// The lifecycle of a module's background work: started by the first request (once, however many
// arrive together and whoever else starts it), stopped by close() and Symbol.asyncDispose after
// its running work, explicit controls (autoStart: false, start, stop, drain), and serve() and a
// request starting the same module without a second worker.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createModule, type ModuleBackground, route, serve } from "../../src/core/mod.ts";
import type { DrainResult } from "../../src/hooks/mod.ts";

/** Background work that counts its starts and stops and the workers running at once. */
function countingWork(options: { slowStop?: boolean } = {}) {
  const counts = {
    starts: 0,
    stops: 0,
    running: 0,
    mostRunning: 0,
    drains: 0,
    stoppedAfterWork: 0,
  };
  let releaseWork: (() => void) | undefined;
  const work: ModuleBackground = {
    async start() {
      counts.starts++;
      await new Promise((resolve) => setTimeout(resolve, 5)); // a start takes a moment
      counts.running++;
      counts.mostRunning = Math.max(counts.mostRunning, counts.running);
    },
    async stop() {
      counts.stops++;
      if (options.slowStop) {
        // In-flight work finishes before stop() resolves.
        await new Promise<void>((resolve) => (releaseWork = resolve));
        counts.stoppedAfterWork++;
      }
      counts.running--;
    },
    drain(): Promise<DrainResult> {
      counts.drains++;
      return Promise.resolve({ done: 1, retried: 0, failed: 0 });
    },
  };
  return { work, counts, finishWork: () => releaseWork?.() };
}

function pingModule(background?: ModuleBackground, autoStart?: boolean) {
  return createModule({
    name: "ping",
    routes: [route({ method: "GET", path: "/", handler: () => ({ pong: true }) })],
    background,
    autoStart,
  });
}

const ping = (): Request => new Request("http://localhost/api/ping");

/** Waits (with a deadline) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("module background lifecycle", () => {
  it("the first request starts the work once, however many requests arrive together", async () => {
    const { work, counts } = countingWork();
    const module = pingModule(work);
    assert.equal(module.background?.running, false);
    const responses = await Promise.all(Array.from({ length: 20 }, () => module.fetch(ping())));
    assert.ok(responses.every((r) => r.status === 200));
    await until(() => module.background!.running, "the worker to run");
    await Promise.all(Array.from({ length: 5 }, () => module.fetch(ping())));
    assert.deepEqual([counts.starts, counts.mostRunning], [1, 1]);
    await module.close();
    assert.deepEqual([counts.stops, counts.running], [1, 0]);
    assert.equal(module.background?.running, false);
  });

  it("close() waits for the work in flight, then requests no longer start it", async () => {
    const { work, counts, finishWork } = countingWork({ slowStop: true });
    const module = pingModule(work);
    await module.fetch(ping());
    await until(() => module.background!.running, "the worker to run");
    let closed = false;
    const closing = module.close().then(() => (closed = true));
    await until(() => counts.stops === 1, "stop() to be called");
    assert.equal(closed, false, "close() resolves only once the work has finished");
    finishWork();
    await closing;
    assert.equal(counts.stoppedAfterWork, 1);
    assert.equal((await module.fetch(ping())).status, 200, "a closed module still answers");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counts.starts, 1, "no request restarts a closed module's work");
    await module.close(); // idempotent
    assert.equal(counts.stops, 1);
    // An explicit start() restarts it.
    await module.background!.start();
    assert.equal(counts.starts, 2);
    const stopping = module[Symbol.asyncDispose]();
    await until(() => counts.stops === 2, "the second stop");
    finishWork();
    await stopping;
    assert.equal(counts.running, 0);
  });

  it("autoStart: false leaves the work to start() and drain()", async () => {
    const { work, counts } = countingWork();
    const module = pingModule(work, false);
    await module.fetch(ping());
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counts.starts, 0);
    assert.deepEqual(await module.background!.drain(), { done: 1, retried: 0, failed: 0 });
    assert.equal(counts.drains, 1);
    await Promise.all([module.background!.start(), module.background!.start()]);
    assert.equal(counts.starts, 1);
    await module.close();
    assert.equal(counts.stops, 1);
  });

  it("close() waits for a drain left running after a response", async () => {
    let finishDrain!: () => void;
    const module = pingModule({
      start() {},
      stop() {},
      drain: () =>
        new Promise<DrainResult>((resolve) => {
          finishDrain = () => resolve({ done: 1, retried: 0, failed: 0 });
        }),
    }, false);
    const draining = module.background!.drain();
    let closed = false;
    const closing = module.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(closed, false, "close() waits for the drain");
    finishDrain();
    assert.deepEqual(await draining, { done: 1, retried: 0, failed: 0 });
    await closing;
  });

  it("stop() before the first request keeps requests from starting the work", async () => {
    const { work, counts } = countingWork();
    const module = pingModule(work);
    await module.background!.stop();
    await module.fetch(ping());
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual([counts.starts, counts.stops], [0, 0]);
  });

  it("a stop() during a start() runs after it: no worker is left behind", async () => {
    const { work, counts } = countingWork();
    const module = pingModule(work);
    const starting = module.fetch(ping());
    await module.background!.stop();
    await starting;
    assert.equal(counts.running, 0);
    assert.equal(module.background!.running, false);
  });

  it("serve() and a request starting the same module share one worker", async () => {
    const { work, counts } = countingWork();
    const module = pingModule(work);
    const server = await serve([module], { port: 0, hostname: "127.0.0.1", handleSignals: false });
    try {
      const [a, b] = await Promise.all([
        fetch(`${server.url}/api/ping`),
        module.fetch(ping()),
      ]);
      assert.equal(a.status, 200);
      await a.body?.cancel();
      assert.equal(b.status, 200);
      await until(() => module.background!.running, "the worker to run");
      assert.deepEqual([counts.starts, counts.mostRunning], [1, 1]);
    } finally {
      await server.shutdown();
    }
    assert.deepEqual([counts.stops, counts.running], [1, 0]);
  });

  it("a module without background work closes at once and refuses nothing", async () => {
    const module = pingModule();
    assert.equal(module.background, undefined);
    assert.equal((await module.fetch(ping())).status, 200);
    await module.close();
    await module[Symbol.asyncDispose]();
  });

  it("drain() says so when the work has none; autoStart must be a boolean", async () => {
    const module = pingModule({ start() {}, stop() {} }, false);
    await assert.rejects(module.background!.drain(), /module "ping" has no drain\(\)/);
    assert.throws(() => pingModule({ start() {}, stop() {} }, "yes" as never), /autoStart/);
  });
});
