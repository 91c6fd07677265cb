/**
 * A client of the auth module of a served system over real sockets: sign-up, and JSON calls with
 * a Bearer token, every password and token registered as a secret in the output log.
 *
 * @example
 * ```ts ignore
 * const client = new AuthClient(log);
 * const owner = await client.signUp(server.url);
 * const created = await client.call(server.url, "POST", "/organizations", owner.token, { name: "A", slug: "a" });
 * ```
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { type Outcome, send } from "./http_load.ts";
import type { OutputLog } from "./output_log.ts";
import { newPassword, VERIFICATION_MAILBOX } from "./system.ts";

/** A signed-up user. */
export interface SignedUp {
  token: string;
  email: string;
  password: string;
  user: { id: string; email: string; role: string };
}

/** Calls `/api/auth/…` of any server of the system. */
export class AuthClient {
  readonly #log: OutputLog;

  constructor(log: OutputLog) {
    this.#log = log;
  }

  /** Signs a fresh user up on `server`. */
  async signUp(server: string, label = "user"): Promise<SignedUp> {
    const email = `${label}-${crypto.randomUUID()}@example.com`;
    const password = newPassword(this.#log);
    const result = await send(`${server}/api/auth/sign-up`, { json: { email, password } });
    assert.equal(result.status, 200, result.text);
    return { token: this.token(result.body.token), email, password, user: result.body.user };
  }

  /**
   * Verifies a user's address through `POST /verify-email` on `server`, with the token of their
   * latest mail in the system's mailbox file (invitations reach verified addresses only).
   */
  async verify(server: string, user: SignedUp): Promise<void> {
    const lines = (await readFile(VERIFICATION_MAILBOX, "utf8")).split("\n").filter(Boolean);
    const mails = lines.map((line) => JSON.parse(line) as { userId: string; token: string });
    const mail = mails.findLast((m) => m.userId === user.user.id);
    assert.ok(mail, `no verification mail for ${user.user.id} in ${VERIFICATION_MAILBOX}`);
    const token = this.#log.secret(mail.token, "verification token");
    const result = await send(`${server}/api/auth/verify-email`, { json: { token } });
    assert.equal(result.status, 200, result.text);
  }

  /** Signs in again: a new, independent credential. */
  async signIn(server: string, user: SignedUp): Promise<string> {
    const result = await send(`${server}/api/auth/sign-in`, {
      json: { email: user.email, password: user.password },
    });
    assert.equal(result.status, 200, result.text);
    return this.token(result.body.token);
  }

  /** Registers a token as a secret; returns it. */
  token(value: string): string {
    return this.#log.secret(value, "session token");
  }

  /** One JSON request to `/api/auth<path>` with a Bearer token. */
  call(
    server: string,
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<Outcome> {
    return send(`${server}/api/auth${path}`, {
      method,
      json: body,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      timeoutMs: 60_000,
    });
  }
}
