/**
 * A private PostgreSQL cluster for one test file: `initdb` in a temporary directory, its own port
 * on 127.0.0.1, started, stopped (`pg_ctl stop -m immediate`, as a crash or a pulled plug would)
 * and started again by the test, so a test can take the database away from running servers
 * without touching the shared server on port 5432.
 *
 * The `postgres` role has a random password (scram-sha-256 authentication), so the connection
 * URL carries a secret the tests can search the servers' output for.
 *
 * As root, the server binaries run as the `postgres` OS user (PostgreSQL refuses to run as root)
 * through `runuser`, and the directory is handed to that user.
 *
 * @example
 * ```ts ignore
 * import { startPrivateCluster } from "./private_cluster.ts";
 *
 * const cluster = await startPrivateCluster();
 * console.log(cluster.url); // postgres://postgres@127.0.0.1:<port>/postgres
 * await cluster.stop();
 * await cluster.start();
 * await cluster.destroy();
 * ```
 *
 * @module
 */
import { execFile } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { closedPort } from "../../helpers/local_server.ts";

/** A PostgreSQL cluster owned by the test. */
export interface PrivateCluster {
  /** The port it listens on (127.0.0.1 only). */
  port: number;
  /** A connection URL to its `postgres` database, with the password. */
  url: string;
  /** The password of the `postgres` role. */
  password: string;
  /** Starts the server (waits until it accepts connections). */
  start(): Promise<void>;
  /** Stops the server at once, without a checkpoint: clients see their connections cut. */
  stop(): Promise<void>;
  /** Whether the server is running. */
  readonly running: boolean;
  /** Stops it if running and removes its directory. */
  destroy(): Promise<void>;
  /** The server's own log so far (for failure messages). */
  log(): string;
}

/** Where the PostgreSQL binaries are (`pg_config --bindir`, else the newest Debian install). */
export function postgresBinDir(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0], "bin") : null;
}

/** Whether this machine can run a private cluster (the binaries exist). */
export function canRunPrivateCluster(): boolean {
  return postgresBinDir() !== null;
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

function run(bin: string, args: readonly string[]): Promise<string> {
  const [command, argv] = isRoot
    ? ["runuser", ["-u", "postgres", "--", bin, ...args]]
    : [bin, [...args]];
  return new Promise((resolve, reject) => {
    execFile(command, argv, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${bin} ${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  return new Promise((resolve, reject) => {
    execFile("id", ["postgres"], (error, stdout) => {
      if (error) return reject(error);
      const uid = Number(/uid=(\d+)/.exec(stdout)?.[1]);
      const gid = Number(/gid=(\d+)/.exec(stdout)?.[1]);
      resolve({ uid, gid });
    });
  });
}

/** Creates the cluster with `initdb` (password authentication, fsync off) and starts it. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql");
  const root = mkdtempSync(join(tmpdir(), "fragment-cli-pgcluster-"));
  if (isRoot) {
    const { uid, gid } = await postgresUserIds();
    chownSync(root, uid, gid);
  }
  const data = join(root, "data");
  const logFile = join(root, "server.log");
  const password = Array.from(
    crypto.getRandomValues(new Uint8Array(24)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  const passwordFile = join(root, "password");
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 });
  await run(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "-A",
    "scram-sha-256",
    `--pwfile=${passwordFile}`,
    "--no-sync",
  ]);
  rmSync(passwordFile);
  const port = await closedPort();
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c max_connections=60",
  ].join(" ");
  let running = false;
  const cluster: PrivateCluster = {
    port,
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    password,
    get running() {
      return running;
    },
    async start() {
      await run(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", logFile, "-w", "start"]);
      running = true;
    },
    async stop() {
      await run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      running = false;
    },
    async destroy() {
      try {
        if (running) await cluster.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    log() {
      try {
        return existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      } catch {
        return "";
      }
    },
  };
  await cluster.start();
  return cluster;
}
