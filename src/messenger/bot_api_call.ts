/**
 * One Bot API call and what its answer means for the outbox: done; a 429 to wait out (its
 * `retry_after`); a failure worth a retry (5xx, network); or a refusal no retry fixes (another
 * 4xx, with Telegram's `description`). The bot token is in the URL only: every message this file
 * makes names the method, never the URL, and a network error's text has the token masked.
 *
 * @module
 */

/** What a call came to. */
export type BotApiOutcome =
  | { kind: "done" }
  | { kind: "wait"; retryAfterSeconds: number; description: string }
  | { kind: "retry"; message: string }
  | { kind: "refused"; message: string };

/** The parts of a Bot API answer the outbox reads. */
interface BotApiAnswer {
  ok?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

const MAX_DESCRIPTION = 500;

/** `text` with every occurrence of the token replaced. */
export function masked(text: string, botToken: string): string {
  return text.replaceAll(botToken, "<bot token>");
}

/** Calls `method` with JSON `params` on `apiOrigin` for the bot. */
export async function callBotApi(
  fetcher: typeof fetch,
  apiOrigin: string,
  botToken: string,
  method: string,
  params: unknown,
): Promise<BotApiOutcome> {
  let response: Response;
  try {
    response = await fetcher(`${apiOrigin}/bot${botToken}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "retry", message: `${method}: network error: ${masked(reason, botToken)}` };
  }
  const text = await response.text().catch(() => "");
  let answer: BotApiAnswer = {};
  try {
    const parsed = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object") answer = parsed;
  } catch {
    // Not JSON (a proxy's error page): the status decides.
  }
  const description = masked(
    typeof answer.description === "string"
      ? answer.description.slice(0, MAX_DESCRIPTION)
      : `HTTP ${response.status}`,
    botToken,
  );
  if (response.ok && answer.ok === true) return { kind: "done" };
  if (response.status === 429) {
    const after = Number(answer.parameters?.retry_after ?? response.headers.get("retry-after"));
    return {
      kind: "wait",
      retryAfterSeconds: Number.isFinite(after) && after >= 0 ? after : 1,
      description,
    };
  }
  const message = `${method} failed: ${response.status} ${description}`;
  if (response.status >= 400 && response.status < 500) return { kind: "refused", message };
  return { kind: "retry", message };
}
