/**
 * The pace of Bot API calls in one process: at most `perChat` calls a second to one chat and
 * `global` a second in all (Telegram's documented limits: about one message a second per chat,
 * about 30 a second in all).
 *
 * - Per chat, the next call waits `1/perChat` s after the previous call's answer arrived (not
 *   after it was sent): Telegram cannot have received the two closer together than that, whatever
 *   the network's delays. The outbox runs one call per chat at a time (its ordering key).
 * - In all, a call starts at least `1/global` s after the previous one started, measured when it
 *   actually starts: waiters check again when their timer fires (a late timer never lets two
 *   calls through together).
 * - A 429 pushes the chat's (or, for a call to no chat, every call's) next start past its
 *   `retry_after`.
 *
 * @module
 */

/** Paces the calls of one outbox. */
export class BotApiPace {
  readonly #chatGapMs: number;
  readonly #globalGapMs: number;
  /** When each chat may be called next (`Infinity` while a call to it runs). */
  readonly #chatNext = new Map<string, number>();
  #globalNext = 0;

  /**
   * @param perChat Calls a second to one chat.
   * @param global Calls a second in all.
   */
  constructor(perChat: number, global: number) {
    this.#chatGapMs = 1000 / perChat;
    this.#globalGapMs = 1000 / global;
  }

  /** Waits until a call to `chat` (`null`: to no chat) may start, and starts it. */
  async take(chat: string | null): Promise<void> {
    for (;;) {
      const now = performance.now();
      const chatNext = chat === null ? 0 : this.#chatNext.get(chat) ?? 0;
      const at = Math.max(chatNext, this.#globalNext);
      if (at <= now) {
        this.#globalNext = now + this.#globalGapMs;
        if (chat !== null) {
          if (this.#chatNext.size > 10_000) this.#sweep(now);
          this.#chatNext.set(chat, Infinity);
        }
        return;
      }
      // A chat whose call runs has no time yet: look again after a global gap.
      const wait = Number.isFinite(at) ? at - now : this.#globalGapMs;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait)));
    }
  }

  /** The call to `chat` was answered (or failed): the chat's next call waits its gap. */
  done(chat: string | null): void {
    if (chat === null) return;
    const next = performance.now() + this.#chatGapMs;
    const held = this.#chatNext.get(chat);
    // A 429's hold-off, set while the call ran, stays when it ends later.
    this.#chatNext.set(
      chat,
      held !== undefined && Number.isFinite(held) ? Math.max(held, next) : next,
    );
  }

  /** Telegram answered 429: nothing more to `chat` (or to anyone) for `ms`. */
  holdOff(chat: string | null, ms: number): void {
    const until = performance.now() + ms;
    if (chat === null) this.#globalNext = Math.max(this.#globalNext, until);
    else this.#chatNext.set(chat, until);
  }

  /** Forgets the chats whose next call may start now (they start afresh). */
  #sweep(now: number): void {
    for (const [chat, next] of this.#chatNext) if (next <= now) this.#chatNext.delete(chat);
  }
}
