/**
 * `messenger()`: the inbound messenger webhook module factory.
 *
 * @module
 */

import {
  createModule,
  type ModuleBackgroundControl,
  type ModuleEndpoint,
  type ModuleInstance,
} from "../core/mod.ts";
import { DEFAULT_BODY_LIMIT } from "../core/read_body.ts";
import {
  type DrainOptions,
  type DrainResult,
  type DurableHooks,
  durableHooks,
  type HookContext,
} from "../hooks/mod.ts";
import type { JsonValue } from "../schema/mod.ts";
import {
  checkMessengerOptions,
  type MessageUpdateKind,
  MESSENGER_MODULE_NAME,
  MESSENGER_WORKER_OPTIONS,
  type MessengerEvent,
  type MessengerHandler,
  type MessengerOptions,
  type MessengerWorkerOptions,
} from "./options.ts";
import { messengerSchema } from "./schema.ts";
import { type MessengerUpdateKind, updateKindOf } from "./update_payload.ts";
import {
  type ListMessengerUpdatesOptions,
  type MessengerUpdatePage,
  type MessengerUpdateRecord,
  PROCESS_UPDATE_HOOK,
  UpdateStore,
} from "./update_store.ts";
import {
  type MessengerWebhookRoute,
  WEBHOOK_PATH,
  WEBHOOK_SECURITY_SCHEME,
  webhookRoute,
} from "./webhook_route.ts";

/**
 * Server-side operations on the stored updates: `bot.api`.
 *
 * @example Requeue what failed, then process it now
 * ```ts
 * import type { MessengerApi } from "@app/fragment-cli/messenger";
 *
 * async function retryNow(api: MessengerApi): Promise<void> {
 *   const requeued = await api.retryFailed();
 *   if (requeued > 0) await api.drain();
 * }
 * ```
 */
export interface MessengerApi {
  /** One stored update with its processing status, or `null` when that `update_id` is unknown. */
  getUpdate(updateId: string | number | bigint): Promise<MessengerUpdateRecord | null>;
  /** Stored updates by `update_id`, with cursor pagination and kind/status filters. */
  listUpdates(options?: ListMessengerUpdatesOptions): Promise<MessengerUpdatePage>;
  /** Processes due updates now, in the foreground (tests, scripts, serverless embedding). */
  drain(options?: DrainOptions): Promise<DrainResult>;
  /** Puts updates whose processing failed back in the queue; returns how many. */
  retryFailed(updateIds?: readonly string[]): Promise<number>;
}

/**
 * An instantiated messenger module: a mountable module (its `background` is the durable hook
 * worker processing the updates, started by its first request) plus its server-side API and its
 * hooks. Its route is typed ({@link MessengerWebhookRoute}): `createModuleClient<MessengerModule>`
 * of `@app/fragment-cli/client` calls the webhook with the update's and the answer's types.
 *
 * @example Embed it: the first update starts the worker, `close()` stops it
 * ```ts ignore
 * import { messenger, pgliteAdapter } from "@app/fragment-cli";
 *
 * const bot = messenger({ database: pgliteAdapter(), webhookSecret: "s3cret", onMessage: console.log });
 * const server = Deno.serve(bot.fetch);
 * // on shutdown:
 * await server.shutdown();
 * await bot.close();
 * ```
 */
export interface MessengerModule extends ModuleInstance<readonly MessengerWebhookRoute[]> {
  /** Server-side operations. */
  readonly api: MessengerApi;
  /** The durable hooks processing the updates (list, retry, retryFailed, start, stop, drain). */
  readonly hooks: DurableHooks;
  /** The hook worker: started by the first request (unless `autoStart: false`) or `serve()`. */
  readonly background: ModuleBackgroundControl;
}

/** The kinds with a handler option of their own (the specification's three). */
const HANDLER_OF: Partial<Record<MessengerUpdateKind, keyof MessengerOptions>> = {
  message: "onMessage",
  edited_message: "onEditedMessage",
  channel_post: "onChannelPost",
};

/** The kinds whose object is a `Message`, given to handlers as `event.message` too. */
const MESSAGE_KINDS: ReadonlySet<MessengerUpdateKind> = new Set<MessageUpdateKind>([
  "message",
  "edited_message",
  "channel_post",
  "edited_channel_post",
  "business_message",
  "edited_business_message",
  "guest_message",
]);

/**
 * Instantiates the messenger module: `POST <mountRoute>/messenger/webhook` authenticates the
 * `X-Messenger-Bot-Api-Secret-Token` header (constant-time), stores each update once per
 * `update_id` with its raw body verbatim, and processes it with the handlers as a durable hook
 * (retried with backoff, at-least-once). Its schema ({@link messengerSchema}) must have been
 * migrated (`fragment-cli serve` and `fragment-cli db migrate` do it).
 *
 * @param options The database, the secret, the handlers and the retry settings.
 * @returns The module, mounted at `/api/messenger` unless `mountRoute` says otherwise.
 * @throws {ModuleConfigError} For a missing, empty or invalid `webhookSecret`, a missing
 * database, a handler that is not a function, or an invalid namespace.
 *
 * @example Serve it on the embedded database
 * ```ts ignore
 * import { messenger, pgliteAdapter, serve } from "@app/fragment-cli";
 *
 * export const bot = messenger({
 *   database: pgliteAdapter(".data/pglite"),
 *   webhookSecret: process.env.WEBHOOK_SECRET!,
 *   onMessage: ({ updateId, message }) => console.log(updateId, message?.text),
 * });
 * // POST /api/messenger/messenger/webhook with the secret header
 * ```
 */
export function messenger(options: MessengerOptions): MessengerModule {
  const { namespace, secretHeader, publicOrigin, cursorSecret } = checkMessengerOptions(options);
  const db = options.database;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  async function processUpdate(_payload: JsonValue, occurrence: HookContext): Promise<void> {
    const updateId = occurrence.key!;
    const stored = await store.raw(updateId);
    // The update row was deleted by the application: nothing left to process.
    if (stored === null) return;
    const update = JSON.parse(stored.raw) as Record<string, unknown>;
    // A row stored as `other` by a version that knew fewer kinds gets its kind now.
    const kind = stored.kind === "other" ? updateKindOf(update) : stored.kind;
    const payload = kind === "other" ? undefined : update[kind] as Record<string, unknown>;
    const event = Object.freeze({
      updateId,
      kind,
      update,
      payload,
      message: MESSAGE_KINDS.has(kind) ? payload : undefined,
      raw: stored.raw,
      occurrence,
    }) as MessengerEvent;
    const own = HANDLER_OF[kind];
    if (own !== undefined) await (options[own] as MessengerHandler | undefined)?.(event);
    await options.onUpdate?.(event);
  }

  const hooks = durableHooks({
    adapter: db,
    namespace,
    hooks: {
      [PROCESS_UPDATE_HOOK]: {
        handler: processUpdate,
        // For operators (`fragment-cli hooks show`): the stored update the occurrence processes.
        describe: async (occurrence) => {
          const stored = occurrence.key === null ? null : await store.get(occurrence.key);
          return stored === null ? null : {
            update: {
              updateId: stored.updateId,
              kind: stored.kind,
              receivedAt: stored.receivedAt.toISOString(),
              raw: stored.raw,
            },
          };
        },
      },
    },
    ...workerOptions(options),
  });
  // Declared after the hooks it enqueues into; processUpdate() reads it only once running.
  const orderByChat = options.orderByChat ?? true;
  const store = new UpdateStore(db, namespace, hooks, cursorSecret, orderByChat);

  const instance = createModule({
    name: MESSENGER_MODULE_NAME,
    routes: [
      webhookRoute({
        secret: options.webhookSecret,
        secretHeader,
        bodyLimit,
        namespace,
        store,
        hooks,
        orderByChat,
      }),
    ],
    mountRoute: options.mountRoute,
    bodyLimit,
    securitySchemes: {
      [WEBHOOK_SECURITY_SCHEME]: {
        type: "apiKey",
        in: "header",
        name: secretHeader,
        description: "The webhook secret the messenger sends with every delivery",
      },
    },
    database: { schema: messengerSchema, namespace, adapter: db },
    background: hooks,
    autoStart: options.autoStart,
  });

  const api: MessengerApi = Object.freeze({
    getUpdate(updateId: string | number | bigint): Promise<MessengerUpdateRecord | null> {
      const digits = normalizeUpdateId(updateId);
      return digits === null ? Promise.resolve(null) : store.get(digits);
    },
    listUpdates(listOptions: ListMessengerUpdatesOptions = {}): Promise<MessengerUpdatePage> {
      return store.list(listOptions);
    },
    drain(drainOptions?: DrainOptions): Promise<DrainResult> {
      return hooks.drain(drainOptions);
    },
    async retryFailed(updateIds?: readonly string[]): Promise<number> {
      if (updateIds === undefined) {
        return (await hooks.retryFailed({ name: PROCESS_UPDATE_HOOK })).length;
      }
      const ids: string[] = [];
      for (const updateId of updateIds) {
        const occurrence = await hooks.find(PROCESS_UPDATE_HOOK, String(updateId));
        if (occurrence) ids.push(occurrence.id);
      }
      return ids.length === 0 ? 0 : (await hooks.retryFailed({ ids })).length;
    },
  });
  // What `serve` prints for setWebhook: the URL and the header's name, never the secret.
  const webhook: ModuleEndpoint = Object.freeze({
    label: "Webhook URL (for setWebhook)",
    path: `${instance.mountRoute}${WEBHOOK_PATH}`,
    origin: publicOrigin,
    notes: Object.freeze([`Secret header: ${secretHeader} (its value: webhookSecret)`]),
  });
  return Object.freeze({
    ...instance,
    api,
    hooks,
    background: instance.background!,
    endpoints: Object.freeze([webhook]),
  });
}

/** The worker settings among the messenger's options, for `durableHooks()`. */
function workerOptions(options: MessengerOptions): MessengerWorkerOptions {
  const picked: Record<string, unknown> = {};
  for (const name of MESSENGER_WORKER_OPTIONS) picked[name] = options[name];
  return picked as MessengerWorkerOptions;
}

/** The canonical digits of an update id, or `null` when it cannot be one. */
function normalizeUpdateId(updateId: string | number | bigint): string | null {
  const text = typeof updateId === "number"
    ? (Number.isSafeInteger(updateId) ? String(updateId) : "")
    : String(updateId);
  if (!/^[0-9]{1,19}$/.test(text)) return null;
  const value = BigInt(text);
  return value > 9223372036854775807n ? null : value.toString();
}
