import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { DataDirectoryLockedError } from "../../src/sql/adapter_errors.ts";
import type { SqlAdapter } from "../../src/sql/adapter.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import {
  CACHE_DIR_ENV,
  defaultCacheDir,
  loadTemplate,
  parseTar,
} from "../../src/sql/pglite_template.ts";
import { extractTemplate } from "../../src/sql/pglite_template_extract.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "fragment-pglite-template-"));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * The cluster's system identifier: random, chosen by initdb. Two databases share it only when
 * one was copied from the other, so it tells a database made from the template from one that
 * ran initdb.
 */
async function clusterId(db: SqlAdapter): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    "SELECT system_identifier::text AS id FROM pg_control_system()",
  );
  return row.id;
}

async function publicTables(db: SqlAdapter): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  return rows.map((r) => r.name);
}

function templatesIn(cacheDir: string): string[] {
  return fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : [];
}

describe("pgliteAdapter() fresh databases from the cached template", () => {
  const cache = path.join(root, "cache");
  let made: string[] = [];

  it(
    "the first fresh databases make the template (concurrently, one whole file); later fresh directories and in-memory databases start from it",
    { timeout: 240_000 },
    async () => {
      // Two processes' worth of first starts at once: both run initdb and both write the file.
      const first = pgliteAdapter({ templateCache: cache });
      const second = pgliteAdapter({ templateCache: cache });
      await Promise.all([first.connect(), second.connect()]);
      made = [await clusterId(first), await clusterId(second)];
      assert.notEqual(made[0], made[1], "each initdb chooses its own identifier");
      await first.query("CREATE TABLE only_in_first (n int4)");
      await Promise.all([first.close(), second.close()]);
      const files = templatesIn(cache);
      assert.equal(files.length, 1, `one template, no temporary files left: ${files}`);
      assert.match(files[0], /^pglite-\d+\.\d+\.\d+.*\.tar\.gz$/);

      const dataDir = path.join(root, "from-template");
      const db = pgliteAdapter({ dataDir, templateCache: cache });
      await db.connect();
      const id = await clusterId(db);
      assert.ok(made.includes(id), "the directory is a copy of the template");
      assert.deepEqual(await publicTables(db), [], "the template is the empty cluster");
      await db.query("CREATE TABLE kept (n int4 PRIMARY KEY, body text)");
      await db.query("INSERT INTO kept VALUES ($1, $2)", [1, "hello"]);
      // The directory lock still holds.
      const again = pgliteAdapter({ dataDir, templateCache: cache });
      await assert.rejects(again.connect(), DataDirectoryLockedError);
      await db.close();
      assert.equal(fs.existsSync(path.join(dataDir, "postmaster.pid")), false);

      // Reopened: an existing cluster, resumed as it is (the template does not overwrite it).
      const reopened = pgliteAdapter({ dataDir, templateCache: cache });
      try {
        assert.deepEqual(await reopened.query("SELECT n, body FROM kept"), [{
          n: 1,
          body: "hello",
        }]);
        assert.equal(await clusterId(reopened), id);
      } finally {
        await reopened.close();
      }

      const memory = pgliteAdapter({ templateCache: cache });
      try {
        assert.equal(await clusterId(memory), id, "in memory too");
        assert.deepEqual(await publicTables(memory), []);
        await memory.transaction(async (tx) => {
          await tx.query("CREATE TABLE t (n int4)");
          await tx.query("INSERT INTO t VALUES (1), (2)");
        });
        assert.deepEqual(await memory.query("SELECT count(*)::int4 AS n FROM t"), [{ n: 2 }]);
      } finally {
        await memory.close();
      }
    },
  );

  it(
    "a truncated template is ignored: the fresh directory runs initdb and rewrites it",
    { timeout: 240_000 },
    async () => {
      assert.equal(made.length, 2, "needs the template of the first test");
      const [name] = templatesIn(cache);
      const broken = path.join(root, "broken-cache");
      fs.mkdirSync(broken);
      const whole = fs.readFileSync(path.join(cache, name));
      fs.writeFileSync(path.join(broken, name), whole.subarray(0, whole.length >> 1));

      const dataDir = path.join(root, "after-truncated");
      const db = pgliteAdapter({ dataDir, templateCache: broken });
      await db.connect();
      const id = await clusterId(db);
      assert.ok(!made.includes(id), "initdb ran: a new cluster");
      await db.query("CREATE TABLE works (n int4)");
      await db.close();

      assert.equal(fs.statSync(path.join(broken, name)).size > whole.length >> 1, true);
      const memory = pgliteAdapter({ templateCache: broken });
      try {
        assert.equal(await clusterId(memory), id, "the rewritten template is used");
        assert.deepEqual(await publicTables(memory), [], "taken before anything ran");
      } finally {
        await memory.close();
      }
    },
  );

  it("a template that is not a gzip, or whose tar is damaged, is rejected", () => {
    const [name] = templatesIn(cache);
    const valid = path.join(cache, name);
    assert.ok(loadTemplate(valid), "the template written above is valid");
    assert.equal(loadTemplate(path.join(root, "missing.tar.gz")), undefined);

    const garbage = path.join(root, "garbage.tar.gz");
    fs.writeFileSync(garbage, "not a template");
    assert.equal(loadTemplate(garbage), undefined);

    // A gzip that is intact but holds a tar whose first header was altered.
    const tar = new Uint8Array(zlib.gunzipSync(fs.readFileSync(valid)));
    tar[0] = tar[0] === 0x41 ? 0x42 : 0x41;
    const damaged = path.join(root, "damaged.tar.gz");
    fs.writeFileSync(damaged, zlib.gzipSync(tar));
    assert.equal(loadTemplate(damaged), undefined);
    assert.throws(() => parseTar(tar), /checksum/);
  });

  it(
    "extractTemplate() writes the cluster piece by piece, PG_VERSION last; a damaged template leaves the directory as it was",
    async () => {
      const [name] = templatesIn(cache);
      const valid = path.join(cache, name);
      const tar = parseTar(new Uint8Array(zlib.gunzipSync(fs.readFileSync(valid))));
      const files = tar.filter((e) => e.type === "file");

      const dataDir = path.join(root, "extracted");
      fs.mkdirSync(dataDir);
      fs.writeFileSync(path.join(dataDir, "kept.txt"), "not the template's");
      assert.equal(await extractTemplate(valid, dataDir), true);
      for (const entry of files) {
        assert.deepEqual(
          new Uint8Array(fs.readFileSync(path.join(dataDir, entry.name))),
          entry.data,
          entry.name,
        );
      }
      assert.equal(fs.readFileSync(path.join(dataDir, "kept.txt"), "utf8"), "not the template's");

      // The whole tar is readable, only the gzip's CRC at its end is wrong: every file has been
      // written by then, and all are removed again.
      const packed = new Uint8Array(fs.readFileSync(valid));
      packed[packed.length - 8] ^= 0xff;
      const badCrc = path.join(root, "bad-crc.tar.gz");
      fs.writeFileSync(badCrc, packed);
      const second = path.join(root, "not-extracted");
      fs.mkdirSync(second);
      fs.writeFileSync(path.join(second, "kept.txt"), "not the template's");
      assert.equal(await extractTemplate(badCrc, second), false);
      assert.deepEqual(fs.readdirSync(second), ["kept.txt"]);

      assert.equal(await extractTemplate(path.join(root, "missing.tar.gz"), second), false);
      assert.deepEqual(fs.readdirSync(second), ["kept.txt"]);

      // A directory that cannot be written is not the template's fault: the error is thrown.
      await assert.rejects(extractTemplate(valid, path.join(second, "kept.txt", "db")));
    },
  );

  it("rejects paths leaving the directory", () => {
    const header = new Uint8Array(1536);
    header.set(new TextEncoder().encode("../outside"), 0);
    header.set(new TextEncoder().encode("0000644\0"), 100);
    header.set(new TextEncoder().encode("00000000000\0"), 124);
    header[156] = 0x30;
    header.set(new TextEncoder().encode("ustar\0"), 257);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
    header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
    assert.throws(() => parseTar(header), /unsafe path/);
  });

  it("the cache directory comes from the environment", () => {
    assert.equal(defaultCacheDir({ [CACHE_DIR_ENV]: "off" }, "linux"), undefined);
    assert.equal(defaultCacheDir({ [CACHE_DIR_ENV]: "/x/y" }, "linux"), path.resolve("/x/y"));
    assert.equal(
      defaultCacheDir({ XDG_CACHE_HOME: "/xdg" }, "linux"),
      path.join("/xdg", "fragment-cli"),
    );
    assert.equal(
      defaultCacheDir({ LOCALAPPDATA: "C:\\Local" }, "win32"),
      path.join("C:\\Local", "fragment-cli"),
    );
    assert.equal(defaultCacheDir({}, "linux"), path.join(os.homedir(), ".cache", "fragment-cli"));
  });
});
