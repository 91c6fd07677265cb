import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runScript, runtimeArgs } from "../helpers/spawn_runtime.ts";
import { DataDirectoryLockedError } from "../../src/sql/adapter_errors.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";

const holder = fileURLToPath(new URL("../fixtures/hold_pglite_dir.ts", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "fragment-pglite-"));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Starts a child holding `dataDir` open; resolves once it printed "ready". */
function holdInChild(dataDir: string): Promise<{ pid: number; kill(): Promise<void> }> {
  const child = spawn(process.execPath, runtimeArgs(holder, [dataDir]), {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk) => (output += String(chunk)));
    child.stdout!.on("data", (chunk) => {
      output += String(chunk);
      if (output.includes("ready")) {
        resolve({
          pid: child.pid!,
          kill: () =>
            new Promise((done) => {
              child.once("exit", () => done());
              child.kill("SIGKILL");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`holder exited ${code}: ${output}`)));
  });
}

describe("pgliteAdapter() data directory", () => {
  it(
    "creates the directory on first use and keeps data across reopen",
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(root, "nested", "first");
      const db = pgliteAdapter({ dataDir });
      assert.equal(fs.existsSync(dataDir), false, "nothing happens before first use");
      await db.query("CREATE TABLE kept (n int4)");
      await db.query("INSERT INTO kept VALUES (7)");
      await db.close();
      assert.equal(fs.existsSync(path.join(dataDir, ".fragment-cli.lock")), false);
      const again = pgliteAdapter({ dataDir });
      try {
        assert.deepEqual(await again.query("SELECT n FROM kept"), [{ n: 7 }]);
      } finally {
        await again.close();
      }
    },
  );

  it(
    "takes the data directory's path alone (pgliteAdapter(dir) is not an in-memory database)",
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(root, "by-path");
      const db = pgliteAdapter(dataDir);
      await db.query("CREATE TABLE kept (n int4)");
      await db.query("INSERT INTO kept VALUES (8)");
      await db.close();
      assert.ok(fs.existsSync(dataDir), "the path given holds the database");
      const again = pgliteAdapter({ dataDir });
      try {
        assert.deepEqual(await again.query("SELECT n FROM kept"), [{ n: 8 }]);
      } finally {
        await again.close();
      }
    },
  );

  it("refuses, at once and by name, what is neither options nor a path", () => {
    assert.throws(() => pgliteAdapter(""), /pgliteAdapter: the data directory must be a non-empty/);
    assert.throws(
      () => pgliteAdapter(42 as unknown as string),
      /pgliteAdapter: expected options \(\{ dataDir, … \}\) or a data directory path, got number/,
    );
    assert.throws(() => pgliteAdapter(null as unknown as string), /got null/);
  });

  it("refuses a directory already open in this process", { timeout: 60_000 }, async () => {
    const dataDir = path.join(root, "same-process");
    const first = pgliteAdapter({ dataDir });
    await first.connect();
    const second = pgliteAdapter({ dataDir });
    try {
      await assert.rejects(second.connect(), (error) => {
        assert.ok(error instanceof DataDirectoryLockedError);
        assert.equal(error.directory, dataDir);
        assert.match(error.message, /same-process/);
        return true;
      });
    } finally {
      await first.close();
    }
    // Released on close: the second adapter can now open it.
    await second.query("SELECT 1");
    await second.close();
  });

  it(
    "refuses a directory open in another process, naming it and the pid",
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(root, "other-process");
      const child = await holdInChild(dataDir);
      const db = pgliteAdapter({ dataDir });
      try {
        await assert.rejects(db.connect(), (error) => {
          assert.ok(error instanceof DataDirectoryLockedError);
          assert.equal(error.ownerPid, child.pid);
          assert.ok(error.message.includes(dataDir));
          assert.ok(error.message.includes(String(child.pid)));
          return true;
        });
        // A second process gets the same clear error (and exits) instead of hanging.
        const result = await runScript(holder, [dataDir]);
        assert.equal(result.code, 3);
        assert.match(result.stdout, /DataDirectoryLockedError: .*other-process/);
      } finally {
        await child.kill();
      }
      // The killed holder left a stale lock: it is taken over and the data is intact.
      try {
        assert.deepEqual(await db.query("SELECT count(*)::int4 AS n FROM held"), [{ n: 0 }]);
      } finally {
        await db.close();
      }
    },
  );
});
