/**
 * The SQL of stored updates: insert once per `update_id` (with its hook, in one statement),
 * read one, list with cursors. The processing status comes from the update's hook occurrence.
 *
 * @module
 */

import type { DurableHooks, HookStatus, HookStatusColumns, StatusJoinSql } from "../hooks/mod.ts";
import { keysetList, namedPage, type PageOf } from "../pagination/mod.ts";
import { quoteQualified, type SqlAdapter, SqlError } from "../sql/mod.ts";
import { batchWhileBusy } from "../sql/batch_while_busy.ts";
import type { MessengerUpdateKind } from "./update_payload.ts";

/** The hook that processes every stored update, keyed by its `update_id`. */
export const PROCESS_UPDATE_HOOK = "process_update";

/**
 * One stored update with the status of its processing, as `bot.api.getUpdate()` and
 * `listUpdates()` give it.
 *
 * @example Report an update that failed
 * ```ts
 * import type { MessengerUpdateRecord } from "@app/fragment-cli/messenger";
 *
 * function report(record: MessengerUpdateRecord): string {
 *   return record.status === "failed"
 *     ? `${record.updateId} failed after ${record.attempts} attempts: ${record.lastError}`
 *     : `${record.updateId}: ${record.status}`;
 * }
 * ```
 */
export interface MessengerUpdateRecord {
  /** `update_id` as its exact decimal digits. */
  updateId: string;
  /** The field the update carries (`message`, `callback_query`, …), or `other`. */
  kind: MessengerUpdateKind;
  /** The request body exactly as received. */
  raw: string;
  /** When it was stored. */
  receivedAt: Date;
  /** Where its processing stands (its durable hook's status). */
  status: HookStatus;
  /** Processing attempts started so far. */
  attempts: number;
  /** The error of the latest failed attempt, if any. */
  lastError: string | null;
  /** When processing finished (`done` or `failed`), else `null`. */
  processedAt: Date | null;
}

/**
 * Options of `bot.api.listUpdates()`.
 *
 * @example The newest failed updates
 * ```ts
 * import type { ListMessengerUpdatesOptions } from "@app/fragment-cli/messenger";
 *
 * const options: ListMessengerUpdatesOptions = { status: "failed", order: "desc", pageSize: 50 };
 * ```
 */
export interface ListMessengerUpdatesOptions {
  /** Only updates of this kind. */
  kind?: MessengerUpdateKind;
  /** Only updates whose processing is in this status. */
  status?: HookStatus;
  /** Newest first (`desc`) or oldest first. @default "asc" */
  order?: "asc" | "desc";
  /** Page size (query-string text accepted). @default 20, at most 100 */
  pageSize?: number | string | null;
  /** The cursor of the previous page. */
  cursor?: string | null;
}

/**
 * A page of stored updates, ordered by `update_id`, as `bot.api.listUpdates()` gives it.
 *
 * @example Walk every page
 * ```ts
 * import type { MessengerModule, MessengerUpdateRecord } from "@app/fragment-cli/messenger";
 *
 * async function allUpdates(bot: MessengerModule): Promise<MessengerUpdateRecord[]> {
 *   const all: MessengerUpdateRecord[] = [];
 *   let cursor: string | null = null;
 *   do {
 *     const page = await bot.api.listUpdates({ cursor });
 *     all.push(...page.updates);
 *     cursor = page.cursor;
 *   } while (cursor !== null);
 *   return all;
 * }
 * ```
 */
export type MessengerUpdatePage = PageOf<"updates", MessengerUpdateRecord>;

/** One webhook delivery to store. */
interface Delivery {
  updateId: string;
  kind: MessengerUpdateKind;
  raw: string;
  /** The ordering key of its processing (the chat id), or `null` for none. */
  chat: string | null;
}

/** What storing one delivery came to: stored, a duplicate, or the error of its own statement. */
type SaveOutcome = { duplicate: boolean } | { error: unknown };

/**
 * Whether a group's failure may come from one delivery's data (a value a column, or an
 * application's trigger or constraint, refuses), so that storing each delivery alone is worth it.
 * A lost connection, a missing schema or a server out of resources fails them alike: SQLSTATE
 * classes 08, 3F, 42, 53, 57 and 58 are passed on as they are.
 */
function mayComeFromOneDelivery(error: unknown): boolean {
  return error instanceof SqlError && !/^(08|3F|42|53|57|58)/.test(error.code);
}

/**
 * The characters of stored bodies kept in memory for the local worker (see `UpdateStore.raw()`):
 * 2 MiB of one-byte text, about 5,000 typical updates.
 */
const RECENT_BODIES_CHARS = 2 * 1024 * 1024;

/**
 * Separates the bodies of a group in the one text parameter that carries them all (see
 * {@link joinBodies}): the control character RS, which a JSON text never holds unescaped.
 */
const BODY_SEPARATOR = "\x1e";

/** The group's bodies back as a `text[]`, split from their one parameter ($3). */
const SPLIT_BODIES = "string_to_array($3::text, chr(30))";

/**
 * The bodies of a group joined in one text. As a `text[]` parameter, postgres.js escaped every
 * quote of every body into an array literal (a copy of each body, and about 45 % of the
 * request path's serialization time in a profile of the webhook's load) that PostgreSQL then
 * parsed back character by character; one text is sent as it is and split by one scan.
 */
function joinBodies(deliveries: readonly Delivery[]): string {
  return deliveries.map((d) => d.raw).join(BODY_SEPARATOR);
}

/** What the hook of an update reads back. */
interface StoredRaw {
  raw: string;
  kind: MessengerUpdateKind;
}

interface Row extends HookStatusColumns {
  update_id: string;
  kind: MessengerUpdateKind;
  raw: string;
  received_at: Date;
}

function toRecord(row: Row): MessengerUpdateRecord {
  return {
    updateId: row.update_id,
    kind: row.kind,
    raw: row.raw,
    receivedAt: row.received_at,
    // No occurrence: it was purged once done (hook retention); the update itself is never purged.
    status: row.hook_status ?? "done",
    attempts: row.hook_attempts ?? 0,
    lastError: row.hook_last_error,
    processedAt: row.hook_finished_at,
  };
}

/** Reads and writes the updates of one namespace. */
export class UpdateStore {
  readonly #db: SqlAdapter;
  readonly #namespace: string;
  readonly #updates: string;
  /** Each update's processing occurrence, joined by the hooks' own SQL (first parameter: $1). */
  readonly #status: StatusJoinSql;
  readonly #columns: string;
  readonly #from: string;
  readonly #readRaw: (updateId: string) => Promise<StoredRaw | null>;
  readonly #saveSql: string;
  readonly #hookParams: unknown[];
  readonly #orderByChat: boolean;
  readonly #saveGrouped: (delivery: Delivery) => Promise<SaveOutcome>;
  readonly #cursorSecret: string;
  /**
   * The bodies this process stored and its worker has not read yet, oldest first, at most
   * {@link RECENT_BODIES_CHARS} characters in all: the local worker takes an update's body from
   * here instead of reading it back (one statement per few updates less). Entries of updates
   * another process runs age out.
   */
  readonly #recent = new Map<string, StoredRaw>();
  #recentChars = 0;

  /**
   * Under load, webhook deliveries are stored in groups: those that arrive while a group's
   * statement is in flight go together in the next one (`batchWhileBusy`). One statement and one
   * commit (one WAL flush) then serve many deliveries, each answered only once its row is
   * committed. When a group's statement fails on one delivery's data, each delivery of the group
   * is stored alone, so only that one fails.
   */
  constructor(
    db: SqlAdapter,
    namespace: string,
    hooks: DurableHooks,
    cursorSecret: string,
    orderByChat: boolean,
  ) {
    this.#db = db;
    this.#cursorSecret = cursorSecret;
    this.#orderByChat = orderByChat;
    this.#namespace = namespace;
    this.#updates = quoteQualified(namespace, "updates");
    this.#status = hooks.statusJoinSql({
      name: PROCESS_UPDATE_HOOK,
      keySql: "u.update_id::text",
      alias: "h",
    });
    this.#columns =
      `u.update_id::text AS update_id, u.kind, u.raw, u.received_at, ${this.#status.columns}`;
    this.#from = `${this.#updates} AS u ${this.#status.join}`;
    if (orderByChat) {
      // Each update's hook is keyed by its chat, so one chat's updates run in order. Within a
      // group, the hooks are inserted in the order of their keys' lock ids, then of update_id:
      // the order in which any writer of several keys takes their locks (no deadlock), and each
      // chat's updates in update order.
      const hook = hooks.enqueueSql({ name: PROCESS_UPDATE_HOOK }, {
        from: "queued",
        firstParam: 5,
        keySql: "queued.update_id::text",
        payloadSql: "jsonb_build_object('kind', queued.kind)",
        orderKeySql: "queued.chat",
        // One call per group (withHookHandOff, messenger v11): each chat's lock once, and the
        // updates that wait for their chat stored blocked, without the per-row trigger.
        inOneCall: true,
      });
      this.#hookParams = hook.params;
      this.#saveSql = `WITH input AS (
         SELECT * FROM unnest($1::int8[], $2::text[], ${SPLIT_BODIES}, $4::text[])
           AS d(update_id, kind, raw, chat)
       ), inserted AS (
         INSERT INTO ${this.#updates} (update_id, kind, raw)
         SELECT update_id, kind, raw FROM input
         ON CONFLICT (update_id) DO NOTHING RETURNING update_id, kind
       ), queued AS (
         SELECT inserted.update_id, inserted.kind, input.chat
         FROM inserted JOIN input ON input.update_id = inserted.update_id
         ORDER BY hashtext(input.chat), inserted.update_id
       ), hook AS (${hook.sql})
       SELECT inserted.update_id::text AS update_id FROM inserted, hook`;
    } else {
      const hook = hooks.enqueueSql({ name: PROCESS_UPDATE_HOOK }, {
        from: "inserted",
        firstParam: 4,
        keySql: "inserted.update_id::text",
        payloadSql: "jsonb_build_object('kind', inserted.kind)",
      });
      this.#hookParams = hook.params;
      this.#saveSql = `WITH inserted AS (
         INSERT INTO ${this.#updates} (update_id, kind, raw)
         SELECT * FROM unnest($1::int8[], $2::text[], ${SPLIT_BODIES})
         ON CONFLICT (update_id) DO NOTHING RETURNING update_id, kind
       ), hook AS (${hook.sql})
       SELECT update_id::text AS update_id FROM inserted`;
    }
    this.#saveGrouped = batchWhileBusy(async (deliveries: Delivery[]) => {
      try {
        return await this.#saveMany(deliveries);
      } catch (error) {
        if (deliveries.length === 1 || !mayComeFromOneDelivery(error)) throw error;
        // Each alone: only the delivery at fault fails.
        return await Promise.all(
          deliveries.map((delivery) =>
            this.#saveMany([delivery]).then(([outcome]) => outcome, (error) => ({ error }))
          ),
        );
      }
    });
    // The worker's handlers start together after a claim: one SELECT serves them all.
    this.#readRaw = batchWhileBusy(async (updateIds: string[]) => {
      const rows = await this.#db.query<StoredRaw & { update_id: string }>(
        `SELECT update_id::text AS update_id, raw, kind FROM ${this.#updates}
         WHERE update_id = ANY($1::int8[])`,
        [updateIds],
      );
      const byId = new Map(rows.map((row) => [row.update_id, row]));
      return updateIds.map((id) => {
        const row = byId.get(id);
        return row ? { raw: row.raw, kind: row.kind } : null;
      });
    });
  }

  /**
   * Stores the update and enqueues its hook in one statement (both or neither); `true` when the
   * `update_id` was already stored (nothing is written then). Deliveries that arrive together
   * share the statement (see {@link UpdateStore.constructor}); a second delivery of an id, in the
   * same group or a later one, sees the first. No notification is sent in it: the caller wakes the
   * workers (`hooks.wake()`) once it returns, outside the statement.
   */
  async save(
    updateId: string,
    kind: MessengerUpdateKind,
    raw: string,
    chat: string | null,
  ): Promise<boolean> {
    // The route stores only bodies that parsed as JSON; checked here, so that a caller breaking
    // that fails alone instead of splitting its group's bodies wrong.
    if (raw.includes(BODY_SEPARATOR)) {
      throw new TypeError("An update body must be JSON text (it holds the character U+001E)");
    }
    const outcome = await this.#saveGrouped({ updateId, kind, raw, chat });
    if ("error" in outcome) throw outcome.error;
    return outcome.duplicate;
  }

  /** Stores a group of deliveries in one statement; one outcome per delivery, in order. */
  async #saveMany(deliveries: readonly Delivery[]): Promise<SaveOutcome[]> {
    // A repeated id within the group is sent once; its later deliveries are duplicates.
    const firstOf = new Map<string, Delivery>();
    for (const delivery of deliveries) {
      if (!firstOf.has(delivery.updateId)) firstOf.set(delivery.updateId, delivery);
    }
    const unique = [...firstOf.values()];
    const rows = await this.#db.query<{ update_id: string }>(this.#saveSql, [
      unique.map((d) => d.updateId),
      unique.map((d) => d.kind),
      joinBodies(unique),
      ...(this.#orderByChat ? [unique.map((d) => d.chat)] : []),
      ...this.#hookParams,
    ]);
    const stored = new Set(rows.map((row) => row.update_id));
    for (const delivery of unique) {
      if (stored.has(delivery.updateId)) this.#remember(delivery);
    }
    return deliveries.map((delivery) => ({
      duplicate: firstOf.get(delivery.updateId) !== delivery || !stored.has(delivery.updateId),
    }));
  }

  /**
   * The raw body and kind of a stored update, for its hook: handed over in memory when this
   * process stored it (once: a retry reads the row), else read from the table.
   */
  raw(updateId: string): Promise<StoredRaw | null> {
    const recent = this.#recent.get(updateId);
    if (recent === undefined) return this.#readRaw(updateId);
    this.#recent.delete(updateId);
    this.#recentChars -= recent.raw.length;
    return Promise.resolve(recent);
  }

  /** Keeps a committed delivery's body for the local worker, dropping the oldest beyond the cap. */
  #remember(delivery: Delivery): void {
    if (delivery.raw.length > RECENT_BODIES_CHARS) return;
    this.#recent.set(delivery.updateId, { raw: delivery.raw, kind: delivery.kind });
    this.#recentChars += delivery.raw.length;
    while (this.#recentChars > RECENT_BODIES_CHARS) {
      const [oldest, body] = this.#recent.entries().next().value!;
      this.#recent.delete(oldest);
      this.#recentChars -= body.raw.length;
    }
  }

  async get(updateId: string): Promise<MessengerUpdateRecord | null> {
    const params = [...this.#status.params, updateId];
    const rows = await this.#db.query<Row>(
      `SELECT ${this.#columns} FROM ${this.#from} WHERE u.update_id = $${params.length}::int8`,
      params,
    );
    return rows.length > 0 ? toRecord(rows[0]) : null;
  }

  async list(options: ListMessengerUpdatesOptions): Promise<MessengerUpdatePage> {
    const filters: string[] = [];
    const params: unknown[] = [...this.#status.params];
    if (options.kind !== undefined) {
      params.push(options.kind);
      filters.push(`u.kind = $${params.length}`);
    }
    if (options.status !== undefined) {
      params.push(options.status);
      filters.push(`COALESCE(${this.#status.status}, 'done') = $${params.length}`);
    }
    const page = await keysetList(this.#db, {
      listId: `messenger:${this.#namespace}:${options.kind ?? "*"}:${options.status ?? "*"}`,
      columns: [{ name: "update_id", type: "int8" }],
      secret: this.#cursorSecret,
      table: "u",
      direction: options.order ?? "asc",
      pageSize: options.pageSize,
      cursor: options.cursor,
      select: this.#columns,
      from: this.#from,
      where: filters,
      params,
      map: toRecord,
    });
    return namedPage("updates", page);
  }
}
