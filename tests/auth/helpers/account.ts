// deno-lint-ignore-file no-explicit-any
/**
 * Fixtures for the account lifecycle tests: a module whose reset and email change mails and
 * account events are kept in an outbox, and a request helper that can name the client address
 * (the per-address rate limits) and the Origin (CSRF).
 *
 * @module
 */

import assert from "node:assert/strict";
import type {
  AccountEventName,
  AuthModule,
  AuthOptions,
  EmailChangeEmail,
  PasswordResetEmail,
} from "../../../src/auth/mod.ts";
import { ACCOUNT_EVENT_NAMES } from "../../../src/auth/mod.ts";
import type { SqlAdapter } from "../../../src/sql/mod.ts";
import type { CallResult } from "./http.ts";
import { organizationsModule } from "./organizations.ts";

/** What a module mailed and recorded. */
export interface Outbox {
  resets: PasswordResetEmail[];
  changes: EmailChangeEmail[];
  /** Delivered account events (after `module.api.hooks.drain()`). */
  events: { name: AccountEventName; payload: any }[];
}

/** A module (cheap hasher, verification mailbox) whose other mails and events go to `outbox`. */
export async function accountModule(
  db: SqlAdapter,
  options: Partial<AuthOptions> = {},
): Promise<{ module: AuthModule; outbox: Outbox }> {
  const outbox: Outbox = { resets: [], changes: [], events: [] };
  const hooks = Object.fromEntries(
    ACCOUNT_EVENT_NAMES.map((name) => [name, (payload: any) => {
      outbox.events.push({ name, payload });
    }]),
  );
  const module = await organizationsModule(db, {
    publicOrigin: "https://app.example.com",
    sendPasswordResetEmail: (mail) => void outbox.resets.push(mail),
    sendEmailChangeEmail: (mail) => void outbox.changes.push(mail),
    account: { hooks },
    ...options,
  });
  return { module, outbox };
}

/** Options of {@link send}. */
export interface SendOptions {
  token?: string;
  transport?: "cookie" | "bearer";
  body?: unknown;
  origin?: string;
  /** The socket's peer address (fetch's second argument), for per-address limits. */
  remoteAddress?: string;
  headers?: Record<string, string>;
}

/** One request through `module.fetch`, with an optional client address and Origin. */
export async function send(
  module: AuthModule,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<CallResult> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) {
    if (options.transport === "cookie") headers.set("cookie", `service_auth=${options.token}`);
    else headers.set("authorization", `Bearer ${options.token}`);
  }
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.origin !== undefined) headers.set("origin", options.origin);
  const response = await module.fetch(
    new Request(`https://app.example.com${module.mountRoute}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: "manual",
    }),
    options.remoteAddress === undefined ? undefined : { remoteAddress: options.remoteAddress },
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** The token of a mailed link (`…?token=…`, in the query or the fragment's query). */
export function tokenOf(url: string): string {
  const match = url.match(/[?&]token=([A-Za-z0-9_-]+)/);
  assert.ok(match, `no token in ${url}`);
  return match[1];
}

/** Ages every account token of a user past its expiry. */
export async function expireAccountTokens(
  db: SqlAdapter,
  userId: string,
  namespace = "auth",
): Promise<void> {
  await db.query(
    `UPDATE "${namespace}".account_tokens SET expires_at = now() - interval '1 minute',
       created_at = now() - interval '2 hours'
     WHERE user_id = $1`,
    [userId],
  );
}

/**
 * Waits until `mails` holds `count` mails and returns the last: the reset mail of
 * `POST /password/forgot` is stored and sent after the answer.
 */
export async function waitForMail<Mail>(mails: Mail[], count: number): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  while (mails.length < count) {
    if (Date.now() > deadline) assert.fail(`expected ${count} mails, got ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return mails[count - 1];
}
