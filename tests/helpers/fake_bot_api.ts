/**
 * A fake Telegram Bot API on 127.0.0.1: records every call (the token in its path, the method, the
 * JSON parameters, the time it arrived on the server's clock) and answers what the test scripts
 * (by default `{ ok: true, result: true }`).
 *
 * @example
 * ```ts
 * import { fakeBotApi } from "./fake_bot_api.ts";
 *
 * const api = await fakeBotApi((call) => call.index === 0 ? { status: 429, retryAfter: 1 } : null);
 * // telegramOutbox({ …, apiOrigin: api.url }) …
 * await api.close();
 * ```
 */
import { listenLocal } from "./local_server.ts";

/** One call the fake received. */
export interface BotApiCall {
  /** Its rank among every call (0 first). */
  index: number;
  /** The token of the `/bot<token>/<method>` path. */
  token: string;
  method: string;
  // deno-lint-ignore no-explicit-any
  params: any;
  /** `performance.now()` of this process when the request arrived. */
  at: number;
}

/** A scripted answer: a status with Telegram's description, or a 429 with `retry_after`. */
export type BotApiAnswer =
  | { status: number; description?: string; retryAfter?: number }
  | null;

/** A running fake. */
export interface FakeBotApi {
  /** `http://127.0.0.1:<port>`: the `apiOrigin`. */
  url: string;
  /** Every call, in arrival order (429s and failures included). */
  calls: BotApiCall[];
  /** The calls that were answered `ok: true`. */
  delivered: BotApiCall[];
  /** Resolves once `count` calls were delivered. */
  waitForDelivered(count: number, timeoutMs?: number): Promise<BotApiCall[]>;
  close(): Promise<void>;
}

/** Starts a fake; `script` answers a call (null: success). */
export async function fakeBotApi(
  script: (call: BotApiCall) => BotApiAnswer = () => null,
): Promise<FakeBotApi> {
  const calls: BotApiCall[] = [];
  const delivered: BotApiCall[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = await listenLocal(async (request) => {
    const at = performance.now();
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(request.url).pathname);
    if (!match) {
      return Response.json({ ok: false, error_code: 404, description: "Not Found" }, {
        status: 404,
      });
    }
    const call: BotApiCall = {
      index: calls.length,
      token: decodeURIComponent(match[1]),
      method: match[2],
      params: await request.json().catch(() => null),
      at,
    };
    calls.push(call);
    const answer = script(call);
    if (answer === null) {
      delivered.push(call);
      for (const waiter of [...waiters]) {
        if (delivered.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      return Response.json({ ok: true, result: { message_id: delivered.length } });
    }
    return Response.json({
      ok: false,
      error_code: answer.status,
      description: answer.description ??
        (answer.status === 429
          ? `Too Many Requests: retry after ${answer.retryAfter}`
          : "Internal Server Error"),
      ...(answer.retryAfter === undefined
        ? {}
        : { parameters: { retry_after: answer.retryAfter } }),
    }, { status: answer.status });
  });
  return {
    url: server.url,
    calls,
    delivered,
    waitForDelivered(count, timeoutMs = 20_000) {
      if (delivered.length >= count) return Promise.resolve(delivered);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${delivered.length} of ${count} calls delivered`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(delivered);
          },
        });
      });
    },
    close: () => server.close(),
  };
}
