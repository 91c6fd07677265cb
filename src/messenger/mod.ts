/**
 * The messenger module: the inbound chat-messenger webhook. `POST <mount>/messenger/webhook`
 * checks the `X-Messenger-Bot-Api-Secret-Token` header in constant time, stores each update once
 * per `update_id` with its raw body verbatim, and processes it with your handlers as a durable
 * hook (retried with backoff; at-least-once).
 *
 * @example Receive updates
 * ```ts ignore
 * import { messenger, pgliteAdapter } from "@app/fragment-cli";
 *
 * export const bot = messenger({
 *   database: pgliteAdapter(".data/pglite"),
 *   webhookSecret: process.env.WEBHOOK_SECRET!,
 *   onMessage: ({ message }) => console.log("received", message?.text),
 * });
 * // fragment-cli serve app.ts → POST http://localhost:8080/api/messenger/messenger/webhook
 * ```
 *
 * @module
 */

export { messenger, type MessengerApi, type MessengerModule } from "./messenger.ts";
export type {
  MessageUpdateKind,
  MessengerEvent,
  MessengerEventOf,
  MessengerHandler,
  MessengerOptions,
  MessengerWorkerOptions,
} from "./options.ts";
export { messengerSchema, type MessengerTables } from "./schema.ts";
export {
  type KnownMessengerUpdateKind,
  MESSENGER_UPDATE_KINDS,
  type MessengerUpdateKind,
} from "./update_payload.ts";
export type {
  ListMessengerUpdatesOptions,
  MessengerUpdatePage,
  MessengerUpdateRecord,
} from "./update_store.ts";
export { MESSENGER_SECRET_HEADER } from "./webhook_secret.ts";
export type { MessengerWebhookRoute } from "./webhook_route.ts";
export {
  type TelegramOutbox,
  telegramOutbox,
  type TelegramOutboxOptions,
  type TelegramSendOptions,
} from "./telegram_outbox.ts";
export { telegramOutboxSchema, type TelegramOutboxTables } from "./telegram_outbox_schema.ts";
