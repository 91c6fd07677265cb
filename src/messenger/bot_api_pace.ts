/**
 * The pace of Bot API calls in one process: at most `perChat` calls a second to one chat and
 * `global` a second in all (Telegram's documented limits: about one message a second per chat,
 * about 30 a second in all). Each call reserves its slot synchronously (the later of the chat's
 * and the global next free time), so concurrent calls never share one; a 429 pushes the chat's
 * (or, for a call without a chat, every call's) next slot to after its `retry_after`.
 *
 * @module
 */

/** Reserves sending slots. */
export class BotApiPace {
  readonly #chatGapMs: number;
  readonly #globalGapMs: number;
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

  /** Waits for the next free slot of `chat` (`null`: a call to no chat) and takes it. */
  async take(chat: string | null): Promise<void> {
    const now = performance.now();
    const chatNext = chat === null ? 0 : this.#chatNext.get(chat) ?? 0;
    const at = Math.max(now, chatNext, this.#globalNext);
    this.#globalNext = at + this.#globalGapMs;
    if (chat !== null) {
      if (this.#chatNext.size > 10_000) this.#sweep(now);
      this.#chatNext.set(chat, at + this.#chatGapMs);
    }
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  /** Telegram answered 429: nothing more to `chat` (or to anyone) for `ms`. */
  holdOff(chat: string | null, ms: number): void {
    const until = performance.now() + ms;
    if (chat === null) this.#globalNext = Math.max(this.#globalNext, until);
    else this.#chatNext.set(chat, Math.max(this.#chatNext.get(chat) ?? 0, until));
  }

  /** Forgets the chats whose next slot has passed (they start afresh). */
  #sweep(now: number): void {
    for (const [chat, next] of this.#chatNext) if (next <= now) this.#chatNext.delete(chat);
  }
}
