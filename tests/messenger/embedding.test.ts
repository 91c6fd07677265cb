// The messenger embedded by its fetch alone, in a real process of the runtime running this file:
// Deno.serve under Deno, Bun.serve under Bun, @hono/node-server under Node, and a Hono app on
// each; and the Deno Deploy set-up (no worker, a drain after each response). A posted update is
// processed with no other call (the first request starts the worker), and once the module and
// its database are closed the process exits by itself.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { RUNTIME, runtimeArgs } from "../helpers/spawn_runtime.ts";

const FIXTURE = "tests/fixtures/embedded_messenger.ts";
const SECRET_HEADER = "X-Messenger-Bot-Api-Secret-Token";
/** Generous: PGlite starts slowly on a loaded machine. */
const DEADLINE_MS = 60_000;

const workDir = await mkdtemp(join(tmpdir(), "fragment-embedding-"));
after(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A spawned embedding with its output so far. */
interface Embedding {
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

function start(mode: "fetch" | "hono" | "drain", dataDir: string, recordFile: string): Embedding {
  const child = spawn(process.execPath, runtimeArgs(FIXTURE, [mode, dataDir, recordFile]), {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return { child, output: () => output, exited };
}

/** Polls `check` until it returns a value, failing with the process output at the deadline. */
async function waitFor<T>(
  embedding: Embedding,
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      embedding.child.kill("SIGKILL");
      assert.fail(`timed out waiting for ${what}; process output:\n${embedding.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function recorded(file: string): Promise<string[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

const SERVER = { deno: "Deno.serve", bun: "Bun.serve", node: "@hono/node-server" }[RUNTIME];

describe(`messenger embedded on ${RUNTIME}`, () => {
  for (
    const [mode, label] of [
      ["fetch", `mounted by its fetch alone in ${SERVER}`],
      ["hono", `mounted in a Hono app served by ${SERVER}`],
      [
        "drain",
        `with autoStart: false and a drain after each response (Deno Deploy), in ${SERVER}`,
      ],
    ] as const
  ) {
    it(`${label}: a posted update is processed with no other call; the process exits after close`, {
      timeout: 3 * DEADLINE_MS,
    }, async () => {
      const dataDir = join(workDir, `${mode}-pglite`);
      const recordFile = join(workDir, `${mode}-processed.txt`);
      const embedding = start(mode, dataDir, recordFile);
      try {
        const port = await waitFor(embedding, "the server to listen", () => {
          const match = /listening (\d+)/.exec(embedding.output());
          return match ? Number(match[1]) : undefined;
        });
        const base = `http://127.0.0.1:${port}`;
        if (mode === "hono") {
          const own = await fetch(`${base}/`);
          assert.equal(await own.text(), "the application's own route");
        }
        const response = await fetch(`${base}/api/messenger/messenger/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json", [SECRET_HEADER]: "embedding-test-secret" },
          body: JSON.stringify({ update_id: 4242, message: { message_id: 1, text: "hello" } }),
        });
        assert.equal(response.status, 200, embedding.output());
        assert.deepEqual(await response.json(), { ok: true });

        const processed = await waitFor(embedding, "the update's handler to run", async () => {
          const lines = await recorded(recordFile);
          return lines.length > 0 ? lines : undefined;
        });
        assert.deepEqual(processed, ["4242"]);

        const closing = await fetch(`${base}/shutdown`, { method: "POST" });
        assert.equal(closing.status, 202);
        await closing.text();
        await waitFor(
          embedding,
          "the process to exit by itself after close()",
          () => /exit code \d+/.test(embedding.output()) ? true : undefined,
        );
        await embedding.exited;
        const out = embedding.output();
        assert.match(out, /closed\n/, out);
        assert.match(out, /exit code 0/, out);
        assert.deepEqual(await recorded(recordFile), ["4242"], "processed exactly once");
      } finally {
        if (embedding.child.exitCode === null && embedding.child.signalCode === null) {
          embedding.child.kill("SIGKILL");
        }
        await embedding.exited;
      }
    });
  }
});
