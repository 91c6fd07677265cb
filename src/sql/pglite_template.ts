/**
 * Internal: the cached template of an initialized, empty PGlite cluster.
 *
 * PGlite runs `initdb` (in WebAssembly, seconds) the first time it opens an empty data directory
 * or an in-memory database. The result is the same for every database of one PGlite version, so
 * the first one made is kept, as a gzipped tar of its files, in a per-user cache directory keyed
 * by that version; every later fresh database starts from a copy instead. Nothing here is ever
 * committed or shipped: each machine builds its own template on its first start.
 *
 * The cache is only an accelerator: a missing, unreadable or corrupt template (gzip CRC, tar
 * header checksums, the cluster's `PG_VERSION` file) is ignored and rewritten, and writers go
 * through a temporary file renamed into place, so concurrent processes never see half a file.
 *
 * @module
 */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LOCK_FILE } from "./data_dir_lock.ts";

/** The environment variable naming the cache directory; `off` disables the template. */
export const CACHE_DIR_ENV = "FRAGMENT_CLI_CACHE_DIR";

/** Bumped when the template's format or how it is made changes. */
const FORMAT = 1;

/** The file whose presence marks a cluster (PGlite checks it too); written last. */
export const MARKER = "PG_VERSION";

/**
 * Files of the directory that are not the cluster's: our lock (its owner's pid) and the running
 * server's pid file (PGlite dumps the directory while it runs).
 */
export const NOT_CLUSTER: ReadonlySet<string> = new Set([LOCK_FILE, "postmaster.pid"]);

const gzip = promisify(zlib.gzip);

/**
 * The cache directory: `$FRAGMENT_CLI_CACHE_DIR` (`off` → none), else
 * `$XDG_CACHE_HOME/fragment-cli`, else `%LOCALAPPDATA%\fragment-cli` on Windows, else
 * `~/.cache/fragment-cli`; `undefined` when disabled or no home directory is known.
 */
export function defaultCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: string = process.platform,
): string | undefined {
  const configured = env[CACHE_DIR_ENV]?.trim();
  if (configured) return configured.toLowerCase() === "off" ? undefined : path.resolve(configured);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, "fragment-cli");
  if (platform === "win32" && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, "fragment-cli");
  let home: string;
  try {
    home = os.homedir();
  } catch {
    return undefined;
  }
  return home ? path.join(home, ".cache", "fragment-cli") : undefined;
}

let installedVersion: string | null | undefined;

/**
 * The installed PGlite's version, read from its package.json next to the resolved entry point;
 * `undefined` when it cannot be found (then no template is used: a template from another
 * version could hold a catalog that version cannot read).
 */
export function pgliteVersion(): string | undefined {
  if (installedVersion === undefined) installedVersion = findPgliteVersion() ?? null;
  return installedVersion ?? undefined;
}

function findPgliteVersion(): string | undefined {
  try {
    const entry = import.meta.resolve("@electric-sql/pglite");
    if (!entry.startsWith("file:")) return undefined;
    let dir = path.dirname(fileURLToPath(entry));
    for (let depth = 0; depth < 4; depth++) {
      const file = path.join(dir, "package.json");
      if (fs.existsSync(file)) {
        const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as {
          name?: unknown;
          version?: unknown;
        };
        if (pkg.name === "@electric-sql/pglite" && typeof pkg.version === "string") {
          return pkg.version;
        }
      }
      dir = path.dirname(dir);
    }
  } catch {
    // No resolvable PGlite package.json: run without a template.
  }
  return undefined;
}

/** Where the template of `version` lives in `cacheDir`. */
export function templateFile(cacheDir: string, version: string): string {
  const safe = version.replace(/[^A-Za-z0-9.+-]/g, "_");
  return path.join(cacheDir, `pglite-${safe}-cluster-v${FORMAT}.tar.gz`);
}

/** One entry of the template: a directory or a regular file, by its path in the cluster. */
export interface TemplateEntry {
  name: string;
  type: "file" | "dir";
  data: Uint8Array;
  /** The entry's bytes in the tar (header and padded data). */
  start: number;
  end: number;
}

/**
 * Reads and checks the template in `file`, whole (for PGlite's `loadDataDir`, a database held in
 * memory; a data directory gets it streamed by `extractTemplate()`).
 * @returns The tar, or `undefined` when it is missing, unreadable or corrupt (the caller
 *   rebuilds it).
 */
export function loadTemplate(file: string): Uint8Array<ArrayBuffer> | undefined {
  let packed: Uint8Array;
  try {
    packed = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    // gunzip checks the CRC and length of the whole tar: a truncated or damaged file fails here.
    // gunzip's output is never a SharedArrayBuffer.
    const tar = zlib.gunzipSync(packed) as Uint8Array<ArrayBuffer>;
    const entries = parseTar(tar);
    return entries.some((e) => e.name === MARKER && e.type === "file") ? tar : undefined;
  } catch {
    return undefined;
  }
}

/** One header of a ustar archive: a directory or a regular file, by its path in the cluster. */
export interface TarHeader {
  /** The path, relative, without `..`; `""` for the archive's root directory. */
  name: string;
  type: "file" | "dir";
  /** The data's length; it is followed by zeros up to the next 512-byte block. */
  size: number;
}

/**
 * Reads one 512-byte block as a ustar header, its checksum verified.
 * @returns `undefined` for a zero block (the archive's end).
 * @throws {Error} On a damaged header, another entry type, or an unsafe path.
 */
export function parseTarHeader(header: Uint8Array): TarHeader | undefined {
  if (header.every((b) => b === 0)) return undefined;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  if (sum !== octal(header, 148, 8)) throw new Error("tar: bad header checksum");
  const ustar = text(header, 257, 5) === "ustar";
  const prefix = ustar ? text(header, 345, 155) : "";
  const raw = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
  const flag = String.fromCharCode(header[156]);
  const type = flag === "0" || flag === "\0" ? "file" : flag === "5" ? "dir" : undefined;
  if (type === undefined) throw new Error(`tar: unsupported entry type "${flag}" (${raw})`);
  const name = raw.replace(/^(\.?\/)+/, "").replace(/\/+$/, "");
  if (name !== "" && name.split("/").some((part) => part === ".." || part === "")) {
    throw new Error(`tar: unsafe path "${raw}"`);
  }
  return { name, type, size: octal(header, 124, 12) };
}

/** The bytes an entry of `size` bytes of data takes after its header (padded to 512). */
export function paddedSize(size: number): number {
  return Math.ceil(size / 512) * 512;
}

/**
 * Parses a ustar archive (what PGlite's `dumpDataDir` writes): regular files and directories,
 * each header's checksum verified, every path relative and without `..`.
 * @throws {Error} On anything else.
 */
export function parseTar(tar: Uint8Array): TemplateEntry[] {
  const entries: TemplateEntry[] = [];
  let offset = 0;
  while (true) {
    if (offset + 512 > tar.length) throw new Error("tar: truncated header");
    const header = parseTarHeader(tar.subarray(offset, offset + 512));
    if (header === undefined) return entries;
    const dataStart = offset + 512;
    const end = dataStart + paddedSize(header.size);
    if (end > tar.length) throw new Error("tar: truncated data");
    if (header.name !== "") {
      entries.push({
        name: header.name,
        type: header.type,
        data: tar.subarray(dataStart, dataStart + header.size),
        start: offset,
        end,
      });
    }
    offset = end;
  }
}

function text(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const nul = field.indexOf(0);
  return new TextDecoder().decode(nul < 0 ? field : field.subarray(0, nul));
}

function octal(bytes: Uint8Array, start: number, length: number): number {
  const field = text(bytes, start, length).trim();
  if (!/^[0-7]*$/.test(field)) throw new Error("tar: bad number field");
  return field === "" ? 0 : Number.parseInt(field, 8);
}

/** Whether `dataDir` already holds a cluster (then PGlite resumes it and no template is used). */
export function holdsCluster(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, MARKER));
}

/**
 * The tar PGlite dumped from a freshly initialized cluster, checked and without the files that
 * are not the cluster's (PGlite dumps the whole directory, our lock file included).
 */
export function templateTar(dumped: Uint8Array): Uint8Array {
  const entries = parseTar(dumped);
  if (!entries.some((e) => e.name === MARKER && e.type === "file")) {
    throw new Error(`the dump holds no ${MARKER}`);
  }
  const kept = entries.filter((e) => !NOT_CLUSTER.has(e.name));
  const size = kept.reduce((n, e) => n + (e.end - e.start), 0) + 1024;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const entry of kept) {
    out.set(dumped.subarray(entry.start, entry.end), offset);
    offset += entry.end - entry.start;
  }
  return out; // ends with the two zero blocks of a tar's end
}

/**
 * Stores `tar` as the template in `file`: gzipped into a temporary file in the same directory,
 * then renamed over `file`, so a reader (or a concurrent writer) only ever sees a whole file.
 * Failures are swallowed: without a cache, the next fresh database runs `initdb` again.
 */
export async function saveTemplate(file: string, tar: Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const packed = await gzip(tar, { level: 1 });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, packed);
    fs.renameSync(temporary, file);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}
