/**
 * The options of the messenger module and their validation at instantiation.
 *
 * @module
 */

import { ModuleConfigError } from "../core/mod.ts";
import { isOrigin } from "../core/origin.ts";
import { configuredSecret, processSecret } from "../runtime/secret.ts";
import type { DurableHooksOptions, HookContext } from "../hooks/mod.ts";
import { resolveNamespace } from "../migrate/migration_plan.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import type { KnownMessengerUpdateKind, MessengerUpdateKind } from "./update_payload.ts";
import { MESSENGER_SECRET_HEADER, webhookSecretProblem } from "./webhook_secret.ts";

/** The module name, also the default namespace. */
export const MESSENGER_MODULE_NAME = "messenger";

/**
 * The kinds whose object is a `Message`: a handler gets it as `event.message` too.
 *
 * @example Handle every update that carries a message alike
 * ```ts
 * import type { MessageUpdateKind, MessengerHandler } from "@app/fragment-cli/messenger";
 *
 * const onAnyMessage: MessengerHandler<MessageUpdateKind> = (event) => {
 *   console.log(event.kind, event.message.text);
 * };
 * ```
 */
export type MessageUpdateKind =
  | "message"
  | "edited_message"
  | "channel_post"
  | "edited_channel_post"
  | "business_message"
  | "edited_business_message"
  | "guest_message";

/**
 * What a handler receives for an update of kind `K`: {@link MessengerEvent} of one kind.
 *
 * @example A handler of button presses only
 * ```ts
 * import type { MessengerEventOf } from "@app/fragment-cli/messenger";
 *
 * function onButton(event: MessengerEventOf<"callback_query">): void {
 *   console.log(event.updateId, event.payload.data);
 * }
 * ```
 */
export interface MessengerEventOf<K extends MessengerUpdateKind> {
  /** `update_id` as its exact decimal digits. */
  readonly updateId: string;
  /** The field the update carries (`message`, `callback_query`, …), or `other`. */
  readonly kind: K;
  /**
   * The update, parsed. Integers beyond 2^53 are rounded here by JavaScript; `raw` has them
   * exactly. Its full type is the Bot API's `Update` (e.g. `Update` of `@grammyjs/types`).
   */
  readonly update: Record<string, unknown>;
  /**
   * The object of its kind, `update[kind]` (a `CallbackQuery` for `callback_query`, a
   * `ChatMemberUpdated` for `chat_member`, …); `undefined` for `other`.
   */
  readonly payload: K extends KnownMessengerUpdateKind ? Record<string, unknown> : undefined;
  /**
   * The `Message` object of the update for the kinds that carry one ({@link MessageUpdateKind}:
   * `message`, `edited_message`, `channel_post`, …); `undefined` for the others.
   */
  readonly message: K extends MessageUpdateKind ? Record<string, unknown> : undefined;
  /** The request body exactly as received. */
  readonly raw: string;
  /** The durable hook occurrence processing this update: its id and attempt number. */
  readonly occurrence: HookContext;
}

/**
 * What a messenger handler receives: one stored update. Without a type argument, the union over
 * every kind, so `switch (event.kind)` narrows `payload` and `message`.
 *
 * @example
 * ```ts
 * import type { MessengerEvent } from "@app/fragment-cli";
 *
 * function describe(event: MessengerEvent): string {
 *   if (event.kind === "callback_query") return `button ${String(event.payload.data)}`;
 *   if (event.kind === "message") return `text ${String(event.message.text)}`;
 *   return event.kind;
 * }
 * ```
 */
export type MessengerEvent<K extends MessengerUpdateKind = MessengerUpdateKind> = {
  [P in K]: MessengerEventOf<P>;
}[K];

/**
 * Processes an update, outside the webhook request, as a durable hook: throwing retries it later
 * with backoff. At-least-once: the same update may be handled again after a failure or a crash,
 * so make the work idempotent (e.g. keyed by `event.updateId`).
 *
 * @example A handler written apart, then given to `messenger()`
 * ```ts
 * import type { MessengerHandler } from "@app/fragment-cli";
 *
 * const seen = new Set<string>();
 * const onMessage: MessengerHandler<"message"> = ({ updateId, message }) => {
 *   if (seen.has(updateId)) return; // at-least-once: skip a repeat
 *   seen.add(updateId);
 *   console.log(message.text);
 * };
 * ```
 */
export type MessengerHandler<K extends MessengerUpdateKind = MessengerUpdateKind> = (
  event: MessengerEvent<K>,
) => void | Promise<void>;

/**
 * The worker settings of `messenger()`: `maxAttempts`, `retryDelayMs`, `maxRetryDelayMs`,
 * `leaseMs`, `pollIntervalMs`, `concurrency`, `onError` and `retention` of `durableHooks()`, with
 * their documentation and defaults. For the messenger, an occurrence is
 * the processing of one update: `maxAttempts` bounds an update's attempts, `concurrency` the
 * updates one worker processes at once, `onError` receives the handlers' failures, and
 * `retention` purges the processing hooks, never the stored updates (an update whose occurrence
 * was purged reads as `done`).
 *
 * @example Four workers' worth of updates at once, kept a week
 * ```ts
 * import type { MessengerWorkerOptions } from "@app/fragment-cli/messenger";
 *
 * const worker: MessengerWorkerOptions = { concurrency: 4, retention: { done: "7d" } };
 * ```
 */
export type MessengerWorkerOptions = Pick<
  DurableHooksOptions,
  | "maxAttempts"
  | "retryDelayMs"
  | "maxRetryDelayMs"
  | "leaseMs"
  | "pollIntervalMs"
  | "concurrency"
  | "onError"
  | "retention"
>;

/**
 * Internal: the names of {@link MessengerWorkerOptions}, passed as they are to `durableHooks()`.
 * The record type makes the compiler refuse a name missing here or not an option there.
 */
const WORKER_OPTION_NAMES: Record<keyof MessengerWorkerOptions, true> = {
  maxAttempts: true,
  retryDelayMs: true,
  maxRetryDelayMs: true,
  leaseMs: true,
  pollIntervalMs: true,
  concurrency: true,
  onError: true,
  retention: true,
};
export const MESSENGER_WORKER_OPTIONS = Object.keys(WORKER_OPTION_NAMES) as readonly (
  keyof MessengerWorkerOptions
)[];

/**
 * Options of `messenger()`: its own, and the hook worker's ({@link MessengerWorkerOptions}).
 *
 * @example
 * ```ts ignore
 * import { messenger, pgliteAdapter } from "@app/fragment-cli";
 *
 * messenger({
 *   database: pgliteAdapter(),
 *   webhookSecret: process.env.WEBHOOK_SECRET!,
 *   onMessage: ({ message }) => console.log("new message", message?.text),
 * });
 * ```
 */
export interface MessengerOptions extends MessengerWorkerOptions {
  /** The database the updates and their hooks are stored in. */
  database: SqlAdapter;
  /**
   * The secret the messenger sends in `X-Messenger-Bot-Api-Secret-Token` (the `secret_token` of
   * `setWebhook`): 1 to 256 characters of `A-Z a-z 0-9 _ -`. Required.
   */
  webhookSecret: string;
  /**
   * The request header carrying the secret. Set `"X-Telegram-Bot-Api-Secret-Token"` to take
   * Telegram's deliveries directly.
   * @default "X-Messenger-Bot-Api-Secret-Token"
   */
  secretHeader?: string;
  /** The Postgres schema holding the module's tables. @default "messenger" */
  namespace?: string;
  /**
   * Where the module is mounted; the webhook is `<mountRoute>/messenger/webhook` (e.g.
   * `"/api/telegram"` → `/api/telegram/messenger/webhook`).
   * @default "/api/messenger"
   */
  mountRoute?: string;
  /**
   * The origin the messenger reaches the deployment at, e.g. `https://bot.example.com` (behind a
   * TLS proxy or a tunnel): `fragment-cli serve` prints the webhook URL to give `setWebhook` on
   * it. Only that printed URL uses it.
   * @default undefined (serve prints the address it listens on)
   */
  publicOrigin?: string;
  /** Largest accepted request body in bytes; larger ones get 413. @default 1048576 */
  bodyLimit?: number;
  /** Runs for each update carrying a `message`. */
  onMessage?: MessengerHandler<"message">;
  /** Runs for each update carrying an `edited_message`. */
  onEditedMessage?: MessengerHandler<"edited_message">;
  /** Runs for each update carrying a `channel_post`. */
  onChannelPost?: MessengerHandler<"channel_post">;
  /**
   * Runs for every update of every kind, after the kind's own handler above if any: the handler
   * of `callback_query`, `inline_query`, `chat_member`, … updates. Its event is a union that
   * `event.kind` narrows.
   */
  onUpdate?: MessengerHandler;
  /**
   * Process the updates of one chat one at a time, in the order they were received (a bot's
   * replies in a chat keep their order): each update's hook gets its chat id as ordering key.
   * Different chats, and updates without a chat (inline queries, polls, payments), run in
   * parallel. An update waiting for a retry holds its chat's later updates back until it
   * succeeds, fails for good or is cancelled. `false`: every update runs as soon as a worker is
   * free. Applies to updates received from then on.
   * @default true
   */
  orderByChat?: boolean;
  /**
   * Start the worker processing the updates with the module's first request; `false` leaves it
   * to `background.start()`, `serve()` or `background.drain()`. @default true
   */
  autoStart?: boolean;
  /**
   * The deployment's secret: the key of the cursors `api.listUpdates()` issues. Falls back to the
   * `FRAGMENT_SECRET` environment variable; at least 32 characters. Without either, a random key
   * of the process signs them (no route hands them to clients, so nothing is printed), and they
   * are refused by other processes and after a restart.
   * @default process.env.FRAGMENT_SECRET, else a random key of the process
   */
  secret?: string;
}

const HANDLERS = ["onMessage", "onEditedMessage", "onChannelPost", "onUpdate", "onError"] as const;

/** The options that have defaults, resolved. */
export interface ResolvedMessengerOptions {
  namespace: string;
  secretHeader: string;
  publicOrigin: string | undefined;
  /** The key of the list cursors. */
  cursorSecret: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks the options and resolves the defaults, failing at instantiation with the option named.
 *
 * @param options The options given to `messenger()`.
 * @returns The namespace, secret header, public origin and cursor key to use.
 */
export function checkMessengerOptions(options: MessengerOptions): ResolvedMessengerOptions {
  const fail = (details: string): never => {
    throw new ModuleConfigError(MESSENGER_MODULE_NAME, details);
  };
  if (typeof options !== "object" || options === null) fail("options are required");
  const problem = webhookSecretProblem(options.webhookSecret);
  if (problem !== null) fail(`webhookSecret: ${problem}`);
  const db = options.database as Partial<SqlAdapter> | undefined;
  if (typeof db?.query !== "function" || typeof db.transaction !== "function") {
    fail("database: an SQL adapter is required (pgliteAdapter(), postgresAdapter(url), …)");
  }
  for (const name of HANDLERS) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      fail(`${name}: must be a function`);
    }
  }
  const secretHeader = options.secretHeader ?? MESSENGER_SECRET_HEADER;
  if (typeof secretHeader !== "string" || !HEADER_NAME.test(secretHeader)) {
    fail(`secretHeader: ${JSON.stringify(secretHeader)} is not a valid header name`);
  }
  if (options.publicOrigin !== undefined && !isOrigin(options.publicOrigin)) {
    fail(
      `publicOrigin: ${JSON.stringify(options.publicOrigin)} is not an origin like ` +
        `"https://bot.example.com"`,
    );
  }
  if (options.autoStart !== undefined && typeof options.autoStart !== "boolean") {
    fail(`autoStart: expected a boolean, got ${String(options.autoStart)}`);
  }
  if (options.orderByChat !== undefined && typeof options.orderByChat !== "boolean") {
    fail(`orderByChat: expected a boolean, got ${String(options.orderByChat)}`);
  }
  let secret: string | null = null;
  try {
    secret = configuredSecret(options.secret);
  } catch (error) {
    fail(`secret: ${(error as Error).message}`);
  }
  try {
    const namespace = resolveNamespace({ name: MESSENGER_MODULE_NAME }, options.namespace);
    return {
      namespace,
      secretHeader,
      publicOrigin: options.publicOrigin,
      cursorSecret: secret ?? processSecret(),
    };
  } catch (error) {
    return fail((error as Error).message);
  }
}
