/**
 * `telegramOutbox()`: Bot API calls sent through durable hooks, in the caller's transaction,
 * one chat's calls in order, within Telegram's rate limits.
 *
 * @module
 */

import {
  createModule,
  type ModuleBackgroundControl,
  ModuleConfigError,
  type ModuleInstance,
} from "../core/mod.ts";
import {
  type DurableHooks,
  durableHooks,
  type DurableHooksOptions,
  type EnqueueResult,
  type HookQuerier,
  PermanentHookError,
} from "../hooks/mod.ts";
import type { JsonValue } from "../schema/mod.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import { resolveNamespace } from "../migrate/migration_plan.ts";
import { BotApiPace } from "./bot_api_pace.ts";
import { type BotApiOutcome, callBotApi } from "./bot_api_call.ts";
import { telegramOutboxSchema } from "./telegram_outbox_schema.ts";

/** The hook carrying one Bot API call. */
const CALL_HOOK = "bot_api_call";
/** The longest `retry_after` waited inside an attempt; a longer one ends the attempt. */
const MAX_INLINE_WAIT_SECONDS = 60;

/**
 * Options of {@link telegramOutbox}.
 *
 * @example Slower than the defaults, for a bot that writes to groups
 * ```ts
 * import { databaseFromEnv } from "@app/fragment-cli";
 * import type { TelegramOutboxOptions } from "@app/fragment-cli/messenger";
 *
 * const options: TelegramOutboxOptions = {
 *   database: databaseFromEnv(),
 *   botToken: process.env.TELEGRAM_BOT_TOKEN!,
 *   perChat: 20 / 60, // groups: 20 messages a minute
 * };
 * ```
 */
export interface TelegramOutboxOptions extends
  Pick<
    DurableHooksOptions,
    "maxAttempts" | "retryDelayMs" | "maxRetryDelayMs" | "concurrency" | "onError" | "retention"
  > {
  /** The database holding the outbox's hook table (migrated like any module's). */
  database: SqlAdapter;
  /** The bot's token: in memory only, never stored, logged or put in an error. */
  botToken: string;
  /**
   * Where the Bot API is: Telegram's, a local Bot API server, or a fake one in tests.
   * @default "https://api.telegram.org"
   */
  apiOrigin?: string;
  /**
   * Calls a second to one chat (`params.chat_id`), per process.
   * @default 1
   */
  perChat?: number;
  /**
   * Calls a second in all, per process.
   * @default 30
   */
  global?: number;
  /** The namespace of its hook table. @default "telegram_outbox" */
  namespace?: string;
  /** Start the worker with `serve()`'s first request (see `background`). @default true */
  autoStart?: boolean;
  /** The `fetch` the calls go through (tests). @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * Options of {@link TelegramOutbox.send}.
 *
 * @example
 * ```ts
 * import type { TelegramSendOptions } from "@app/fragment-cli/messenger";
 *
 * const once: TelegramSendOptions = { key: "update:1001:reply:1" };
 * ```
 */
export interface TelegramSendOptions {
  /**
   * Makes the send idempotent: a second send with the same key enqueues nothing (one delivery
   * per key), e.g. `update:<update_id>:reply:1` in a messenger handler that may be retried.
   */
  key?: string;
}

/**
 * An instantiated outbox: a module with a schema and a worker but no routes (export it from the
 * app file so that `serve` migrates it and runs its worker, and `fragment-cli hooks` shows its
 * calls).
 *
 * @example Reply in the transaction that records the answer
 * ```ts ignore
 * await database.transaction(async (tx) => {
 *   await tx.query("INSERT INTO answers (update_id) VALUES ($1)", [updateId]);
 *   await outbox.send(tx, "sendMessage", { chat_id: chatId, text: "Saved" }, {
 *     key: `update:${updateId}:reply:1`,
 *   });
 * });
 * ```
 */
export interface TelegramOutbox extends ModuleInstance {
  /**
   * Enqueues the call `method(params)` (JSON parameters: file ids or URLs, no uploads) as a
   * durable hook in `tx` (it exists if and only if `tx` commits), or alone with `tx` null. One
   * chat's calls (`params.chat_id`) are delivered in order; a 429 waits its `retry_after` (not
   * counted as a failed attempt up to 60 s), 5xx and network errors retry with backoff, another
   * 4xx fails at once with Telegram's description (`fragment-cli hooks … show`).
   */
  send(
    tx: HookQuerier | null,
    method: string,
    params: { [name: string]: JsonValue | undefined },
    options?: TelegramSendOptions,
  ): Promise<EnqueueResult>;
  /** The durable hooks carrying the calls (list, retry, drain). */
  readonly hooks: DurableHooks;
  /** The worker: started by `serve()` (unless `autoStart: false`), stopped by `close()`. */
  readonly background: ModuleBackgroundControl;
}

const METHOD = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
const KEY = /^[\x21-\x7e]{1,200}$/;

function fail(details: string): never {
  throw new ModuleConfigError("telegram-outbox", details);
}

function rate(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (typeof result !== "number" || !Number.isFinite(result) || result <= 0 || result > 1000) {
    fail(`${name}: expected calls a second, greater than 0 and at most 1000`);
  }
  return result;
}

/** The chat a call goes to, for its order and its pace; `null` when it names none. */
function chatOf(params: { [name: string]: unknown }): string | null {
  const chat = params.chat_id;
  return typeof chat === "number" || typeof chat === "string" ? String(chat) : null;
}

/**
 * Instantiates the outbox: Bot API calls as durable hooks in its own namespace (default
 * `telegram_outbox`, schema {@link telegramOutboxSchema}), delivered in order per chat and within
 * the rate limits (`perChat`, `global`; Telegram's documented defaults).
 *
 * @param options The database, the bot token, the API's origin and the limits.
 * @returns The outbox module.
 * @throws {ModuleConfigError} For a missing database or token, a bad origin or limit.
 *
 * @example Reply to a message, once per update
 * ```ts ignore
 * import { databaseFromEnv, messenger, telegramOutbox } from "@app/fragment-cli";
 *
 * const database = databaseFromEnv();
 * export const outbox = telegramOutbox({ database, botToken: process.env.TELEGRAM_BOT_TOKEN! });
 * export const bot = messenger({
 *   database,
 *   webhookSecret: process.env.WEBHOOK_SECRET!,
 *   onMessage: async ({ updateId, message }) => {
 *     const chat = (message.chat as { id: number }).id;
 *     await outbox.send(null, "sendMessage", { chat_id: chat, text: "Hello" }, {
 *       key: `update:${updateId}:reply:1`,
 *     });
 *   },
 * });
 * ```
 */
export function telegramOutbox(options: TelegramOutboxOptions): TelegramOutbox {
  const db = options?.database;
  if (!db || typeof db.query !== "function" || typeof db.transaction !== "function") {
    fail("database: expected a SQL adapter (pgliteAdapter(), postgresAdapter(url), …)");
  }
  const botToken = options.botToken;
  if (typeof botToken !== "string" || !/^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$/.test(botToken)) {
    fail('botToken: expected a bot token like "123456:ABC-…" (from @BotFather)');
  }
  const apiOrigin = options.apiOrigin ?? "https://api.telegram.org";
  let parsed: URL | null = null;
  try {
    parsed = new URL(apiOrigin);
  } catch {
    // reported below
  }
  if (parsed === null || !/^https?:$/.test(parsed.protocol) || parsed.origin !== apiOrigin) {
    fail(`apiOrigin: "${apiOrigin}" is not an origin like "https://api.telegram.org"`);
  }
  let namespace: string;
  try {
    namespace = resolveNamespace(telegramOutboxSchema, options.namespace);
  } catch (error) {
    fail(`namespace: ${(error as Error).message}`);
  }
  const pace = new BotApiPace(
    rate(options.perChat, 1, "perChat"),
    rate(options.global, 30, "global"),
  );
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function deliver(payload: JsonValue): Promise<void> {
    const { method, params } = payload as { method: string; params: { [name: string]: unknown } };
    const chat = chatOf(params);
    for (;;) {
      await pace.take(chat);
      let outcome: BotApiOutcome;
      try {
        outcome = await callBotApi(fetcher, apiOrigin, botToken, method, params);
      } finally {
        pace.done(chat);
      }
      if (outcome.kind === "done") return;
      if (outcome.kind === "refused") throw new PermanentHookError(outcome.message);
      if (outcome.kind === "retry") throw new Error(outcome.message);
      // 429: wait it out within the attempt (not a failed attempt), unless it is too long.
      pace.holdOff(chat, outcome.retryAfterSeconds * 1000);
      if (outcome.retryAfterSeconds > MAX_INLINE_WAIT_SECONDS) {
        throw new Error(
          `${method}: 429 ${outcome.description} (retry_after ${outcome.retryAfterSeconds} s)`,
        );
      }
    }
  }

  const hooks = durableHooks({
    adapter: db,
    namespace,
    hooks: {
      [CALL_HOOK]: {
        handler: deliver,
        describe: (occurrence) => {
          const { method, params } = occurrence.payload as {
            method: string;
            params: { [name: string]: unknown };
          };
          return Promise.resolve({ method, chat: chatOf(params) });
        },
      },
    },
    maxAttempts: options.maxAttempts,
    retryDelayMs: options.retryDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs,
    concurrency: options.concurrency,
    onError: options.onError,
    retention: options.retention,
  });

  const instance = createModule({
    name: "telegram-outbox",
    routes: [],
    database: { schema: telegramOutboxSchema, namespace, adapter: db },
    background: hooks,
    autoStart: options.autoStart,
  });

  return Object.freeze({
    ...instance,
    hooks,
    background: instance.background!,
    async send(
      tx: HookQuerier | null,
      method: string,
      params: { [name: string]: JsonValue | undefined },
      sendOptions: TelegramSendOptions = {},
    ): Promise<EnqueueResult> {
      if (typeof method !== "string" || !METHOD.test(method)) {
        throw new TypeError(`send(): "${method}" is not a Bot API method name`);
      }
      if (params === null || typeof params !== "object" || Array.isArray(params)) {
        throw new TypeError("send(): params must be an object of JSON values");
      }
      const key = sendOptions.key;
      if (key !== undefined && (typeof key !== "string" || !KEY.test(key))) {
        throw new TypeError("send(): key must be 1 to 200 printable ASCII characters");
      }
      // Round-trip: what is stored is exactly what will be sent (undefined fields dropped).
      const json = JSON.parse(JSON.stringify(params)) as { [name: string]: JsonValue };
      const chat = chatOf(json);
      return await hooks.enqueue(tx ?? db, {
        name: CALL_HOOK,
        payload: { method, params: json },
        ...(key === undefined ? {} : { key }),
        ...(chat === null ? {} : { orderKey: `chat:${chat}` }),
      });
    },
  });
}
