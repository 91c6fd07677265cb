/**
 * The target of the attack suite (`attacks.test.ts`): the auth module served over real HTTP by
 * `serve()` on one PGlite per test file, each target in a namespace of its own so that one
 * attack's users, organizations and rate-limit counters never meet another's.
 *
 * @example
 * ```ts ignore
 * import { after, before, it } from "node:test";
 * import { serveAuth, type AuthTarget } from "./harness.ts";
 *
 * let target: AuthTarget;
 * before(async () => (target = await serveAuth({ trustedOrigins: ["https://app.example.com"] })));
 * after(() => target.close());
 * it("refuses …", async () => {
 *   const response = await fetch(`${target.url}/sign-in`, { method: "POST", body: "…" });
 * });
 * ```
 *
 * @module
 */

import { auth, type AuthModule, type AuthOptions, authSchema } from "../../src/auth/mod.ts";
import { scryptPasswordHasher } from "../../src/auth/mod.ts";
import { serve } from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";

let shared: Promise<SqlAdapter> | undefined;
let namespaces = 0;

/** The file's one PGlite (started on first use; its cold start is about 2 s). */
export function sharedDatabase(): Promise<SqlAdapter> {
  return shared ??= (async () => {
    const db = pgliteAdapter();
    await db.query("SELECT 1");
    return db;
  })();
}

/** A served auth module. */
export interface AuthTarget {
  /** The module's base URL over HTTP, e.g. `http://127.0.0.1:41234/api/auth` (no trailing /). */
  url: string;
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** The instance (for `api` calls and direct `fetch`). */
  module: AuthModule;
  /** Its database and namespace, for checks in SQL. */
  db: SqlAdapter;
  namespace: string;
  /** Stops the server (the shared database stays open). */
  close(): Promise<void>;
}

/**
 * Migrates a fresh namespace, instantiates `auth()` with `options` over it (a cheap scrypt cost
 * and a roomy hashing queue unless `passwordHasher` is given) and serves it on 127.0.0.1 at a free port.
 */
export async function serveAuth(options: Partial<AuthOptions> = {}): Promise<AuthTarget> {
  const db = await sharedDatabase();
  const namespace = `security_${++namespaces}`;
  await migrate(db, authSchema, { namespace });
  const module = auth({
    // Cheap hashes, and room for the concurrent sign-ups of the race attacks (the queue's bound
    // has its own attacks, which pass their own hasher).
    passwordHasher: scryptPasswordHasher({ params: { ln: 4 }, maxQueued: 64 }),
    ...options,
    database: db,
    namespace,
  });
  const server = await serve([module], { port: 0, hostname: "127.0.0.1", handleSignals: false });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    url: `${origin}${module.mountRoute}`,
    origin,
    module,
    db,
    namespace,
    close: () => server.shutdown(),
  };
}

/** Closes the shared database; call it from the test file's last `after`. */
export async function closeSharedDatabase(): Promise<void> {
  if (!shared) return;
  const db = await shared;
  shared = undefined;
  await db.close();
}

/** An answer of {@link request}: its status, headers, text and parsed JSON (`null` when empty). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * Sends one JSON request to a target as a same-origin browser page or a Bearer client would:
 * `Origin` is the target's own, `token` goes in `Authorization: Bearer`, `body` as JSON.
 */
export async function request(
  target: AuthTarget,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { origin: target.origin, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? JSON.parse(text) : null,
  };
}
