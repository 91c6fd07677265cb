/**
 * Internal: writes the cached template of an empty PGlite cluster into a fresh data directory,
 * piece by piece.
 *
 * The template is a gzipped tar of about 40 MB (6 MB packed). Gunzipping it whole held the 40 MB
 * tar, and as much again of the runtime's own buffers, for the first seconds of every fresh
 * `serve` (until a garbage collection came); streamed, the process never holds more than a few
 * 64 KiB pieces of it. See docs/benchmarks.md, scenario 7.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { MARKER, NOT_CLUSTER, paddedSize, parseTarHeader } from "./pglite_template.ts";

/** The size of the pieces read from the file and gunzipped. */
const PIECE = 64 * 1024;

/**
 * Writes the template in `file` into `dataDir` (which holds no cluster yet), streaming it.
 *
 * The cluster's marker file (`PG_VERSION`) is held back and written last, once the whole gzip has
 * been read and its CRC checked: a damaged or truncated template, or a crash half-way, leaves a
 * directory that is still not a cluster. On a damaged template everything written is removed
 * again, so the caller can run `initdb` in the directory. The data directory's lock file is never
 * touched.
 *
 * @param file The template (`templateFile()`).
 * @param dataDir The data directory.
 * @returns `true` when the directory now holds the template's cluster, `false` when the template
 *   is missing, unreadable or damaged (the directory is as it was).
 * @throws {Error} When the directory cannot be written (a full disk, permissions): what was
 *   written is removed first.
 */
export async function extractTemplate(file: string, dataDir: string): Promise<boolean> {
  const writer = clusterWriter(path.resolve(dataDir));
  try {
    await pipeline(
      fs.createReadStream(file, { highWaterMark: PIECE }),
      zlib.createGunzip({ chunkSize: PIECE }),
      async function (pieces: AsyncIterable<Uint8Array>): Promise<void> {
        const tar = tarReader(writer);
        for await (const piece of pieces) tar.push(piece);
        tar.end();
      },
    );
  } catch {
    writer.undo();
    // A write into the directory failed: not the template's fault. (The pipeline rejects with
    // its own abort error when the last step throws, hence the error kept by the writer.)
    const failure = writer.writeFailure();
    if (failure !== undefined) throw failure;
    // The file (missing, unreadable), its gzip or its tar: a template to ignore.
    return false;
  }
  try {
    writer.finish();
  } catch (error) {
    writer.undo();
    throw error;
  }
  return true;
}

/** What the tar reader hands each entry to. */
interface EntrySink {
  begin(name: string, type: "file" | "dir"): void;
  data(piece: Uint8Array): void;
  close(): void;
  /** The archive's end block was read. */
  end(): void;
}

/** A ustar reader fed with pieces of any size (`push`), calling `sink` for each entry. */
function tarReader(sink: EntrySink): { push(piece: Uint8Array): void; end(): void } {
  const header = new Uint8Array(512);
  let filled = 0;
  /** Bytes of the current entry's data still to come, then of its padding. */
  let data = 0;
  let padding = 0;
  let done = false;
  return {
    push(piece: Uint8Array): void {
      let at = 0;
      while (at < piece.length && !done) {
        if (data > 0) {
          const n = Math.min(data, piece.length - at);
          sink.data(piece.subarray(at, at + n));
          data -= n;
          at += n;
          if (data === 0) sink.close();
        } else if (padding > 0) {
          const n = Math.min(padding, piece.length - at);
          padding -= n;
          at += n;
        } else {
          const n = Math.min(512 - filled, piece.length - at);
          header.set(piece.subarray(at, at + n), filled);
          filled += n;
          at += n;
          if (filled < 512) continue;
          filled = 0;
          const entry = parseTarHeader(header);
          if (entry === undefined) {
            done = true; // what follows the end block is zeros; the gzip is still read to its CRC
            break;
          }
          sink.begin(entry.name, entry.type);
          data = entry.size;
          padding = paddedSize(entry.size) - entry.size;
          if (data === 0) sink.close();
        }
      }
    },
    end(): void {
      if (!done) throw new Error("tar: truncated");
      sink.end();
    },
  };
}

/** Writes the entries into `root`, remembering what it made so that `undo()` can remove it. */
function clusterWriter(root: string): EntrySink & {
  finish(): void;
  undo(): void;
  /** The error of a write into the directory that failed, if one did. */
  writeFailure(): unknown;
} {
  /** Directories known to exist; those made here, in the order made. */
  const existing = new Set<string>();
  const madeDirs: string[] = [];
  const madeFiles: string[] = [];
  let fd: number | undefined;
  /** Where the current entry's data goes (`skip`: not the cluster's, or a directory). */
  let current: "file" | "marker" | "skip" = "skip";
  /** The marker file's bytes, written by `finish()` once the whole template has been checked. */
  let marker: Uint8Array[] | undefined;
  let writeError: unknown;

  const makeDir = (dir: string): void => {
    if (existing.has(dir)) return;
    if (!fs.existsSync(dir)) {
      makeDir(path.dirname(dir));
      fs.mkdirSync(dir);
      madeDirs.push(dir);
    }
    existing.add(dir);
  };
  /** Runs a write, remembering its error (a write failure is not a damaged template). */
  const writing = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      writeError = error;
      throw error;
    }
  };
  const closeFile = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    writing(() => fs.closeSync(open));
  };

  return {
    begin(name, type): void {
      current = "skip";
      if (name === "") return;
      const target = path.join(root, name);
      if (type === "dir") {
        writing(() => makeDir(target));
      } else if (name === MARKER) {
        current = "marker";
        marker = [];
      } else if (!NOT_CLUSTER.has(name)) {
        writing(() => {
          makeDir(path.dirname(target));
          madeFiles.push(target);
          fd = fs.openSync(target, "w");
        });
        current = "file";
      }
    },
    data(piece): void {
      if (current === "file") {
        const open = fd as number;
        writing(() => {
          for (let at = 0; at < piece.length;) {
            at += fs.writeSync(open, piece, at, piece.length - at);
          }
        });
      } else if (current === "marker") {
        marker?.push(piece.slice());
      }
    },
    close(): void {
      if (current === "file") closeFile();
      current = "skip";
    },
    end(): void {
      if (marker === undefined) throw new Error(`tar: the template holds no ${MARKER}`);
    },
    finish(): void {
      writing(() => fs.writeFileSync(path.join(root, MARKER), Buffer.concat(marker ?? [])));
    },
    undo(): void {
      try {
        if (fd !== undefined) fs.closeSync(fd);
      } catch {
        // Removed below all the same.
      }
      fd = undefined;
      for (const file of madeFiles) fs.rmSync(file, { force: true });
      // Innermost first; each held only what was made here.
      for (const dir of madeDirs.reverse()) {
        try {
          fs.rmdirSync(dir);
        } catch {
          // Not empty or gone: left as it is.
        }
      }
    },
    writeFailure(): unknown {
      return writeError;
    },
  };
}
