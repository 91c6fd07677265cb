/**
 * The deliveries of the webhook scenario: chat-messenger updates with realistic bodies (unknown
 * fields included) of which a fixed share repeats an earlier `update_id`, as a messenger retrying
 * a delivery does. Seeded, so every side and every run gets the same sequence.
 *
 * @module
 */
import type { PlannedRequest } from "./load_spec.ts";

/** The secret both webhook servers are configured with. */
export const WEBHOOK_SECRET = "bench-webhook-secret-0123456789";
/** The header the messenger sends the secret in. */
export const WEBHOOK_SECRET_HEADER = "x-messenger-bot-api-secret-token";

/** `count` deliveries to `path`, `repeatShare` of them repeats of an earlier update. */
export function webhookDeliveries(
  path: string,
  count: number,
  options: { repeatShare?: number; firstUpdateId?: number; seed?: number } = {},
): PlannedRequest[] {
  const random = seededRandom(options.seed ?? 42);
  const repeatShare = options.repeatShare ?? 0.1;
  const sent: string[] = [];
  const deliveries: PlannedRequest[] = [];
  let nextId = options.firstUpdateId ?? 100_000_000;
  for (let i = 0; i < count; i++) {
    let body: string;
    if (sent.length > 0 && random() < repeatShare) {
      body = sent[Math.floor(random() * sent.length)];
    } else {
      body = JSON.stringify(update(nextId++, i));
      sent.push(body);
    }
    deliveries.push({ method: "POST", path, body });
  }
  return deliveries;
}

function update(updateId: number, i: number): Record<string, unknown> {
  const userId = 700_000 + (i % 997);
  return {
    update_id: updateId,
    message: {
      message_id: 10_000 + i,
      from: {
        id: userId,
        is_bot: false,
        first_name: "Ada",
        username: `user${userId}`,
        language_code: "en",
      },
      chat: { id: userId, first_name: "Ada", username: `user${userId}`, type: "private" },
      date: 1_763_700_000 + i,
      text: `Message number ${i}: the quick brown fox jumps over the lazy dog`,
      entities: [{ offset: 0, length: 7, type: "bold" }],
    },
    // A field no client interprets: it must survive in the stored payload.
    bench_trace: { delivery: i },
  };
}

/** mulberry32: a small deterministic PRNG. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
