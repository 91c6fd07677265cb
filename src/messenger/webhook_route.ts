/**
 * `POST /messenger/webhook`: authenticate, validate, store once per `update_id`, acknowledge.
 *
 * @module
 */

import type { Span } from "@opentelemetry/api";
import { z } from "zod";
import { HttpError, readBodyText, type Route, route, type ZodSchema } from "../core/mod.ts";
import { inSpan, SPAN_KIND, SPAN_STATUS_ERROR } from "../runtime/tracer.ts";
import type { DurableHooks } from "../hooks/mod.ts";
import { SqlError } from "../sql/mod.ts";
import { chatIdOf, InvalidUpdateError, parseUpdate } from "./update_payload.ts";
import type { UpdateStore } from "./update_store.ts";
import { secretMatcher } from "./webhook_secret.ts";

/** The webhook path inside the module's mount. */
export const WEBHOOK_PATH = "/messenger/webhook";

/** The name of the webhook's security scheme in the module's OpenAPI document. */
export const WEBHOOK_SECURITY_SCHEME = "webhookSecret";

/** A webhook update: any JSON object with an integer `update_id`. */
type WebhookUpdate = { update_id: number; [key: string]: unknown };

/** The webhook's answer: `duplicate` when the update id was stored before. */
type WebhookAnswer = { ok: true; duplicate?: true };

/**
 * A webhook update as the route accepts it (checked from the raw text by `parseUpdate`, which
 * keeps every digit of ids beyond 2^53): any JSON object with an integer `update_id`.
 */
export const webhookUpdateSchema: z.ZodType<WebhookUpdate, WebhookUpdate> = z
  .looseObject({
    update_id: z.int().min(0).describe("At most 2^63 - 1; stored once per id"),
    message: z.looseObject({}).optional(),
    edited_message: z.looseObject({}).optional(),
    channel_post: z.looseObject({}).optional(),
  }) as unknown as z.ZodType<WebhookUpdate, WebhookUpdate>;

/** The webhook's answer: `duplicate` when the update id was stored before. */
export const webhookResponseSchema: z.ZodType<WebhookAnswer, WebhookAnswer> = z.object({
  ok: z.literal(true),
  duplicate: z.literal(true).optional(),
});

/**
 * The messenger module's webhook route with its declared types (what a typed client reads, see
 * `createModuleClient` of `@app/fragment-cli/client`): `POST /messenger/webhook` takes an update
 * (a JSON object with an integer `update_id`) and answers `{ ok: true, duplicate?: true }`, or
 * one of its error codes.
 *
 * @example A typed client of the webhook, as a test or a relay would call it
 * ```ts
 * import { createModuleClient } from "@app/fragment-cli/client";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * const webhook = createModuleClient<MessengerModule>({
 *   baseUrl: "http://localhost:8080/api/messenger",
 *   headers: { "x-messenger-bot-api-secret-token": "s3cret" },
 * });
 * const { data, error } = await webhook.request("POST /messenger/webhook", {
 *   body: { update_id: 1, message: { text: "hi" } },
 * });
 * if (error?.code === "UNAUTHORIZED") console.log("wrong secret");
 * else if (data) console.log(data.duplicate ? "seen before" : "stored");
 * ```
 */
export type MessengerWebhookRoute = Route<{
  method: "POST";
  path: "/messenger/webhook";
  params: unknown;
  query: unknown;
  body: { update_id: number; [key: string]: unknown };
  responses: { 200: ZodSchema<{ ok: true; duplicate?: true }, { ok: true; duplicate?: true }> };
  errors: {
    readonly 400: readonly ["INVALID_JSON", "INVALID_UPDATE", "INVALID_BODY"];
    readonly 401: readonly ["UNAUTHORIZED"];
    readonly 503: readonly ["SERVICE_UNAVAILABLE", "DATABASE_NOT_MIGRATED"];
  };
}>;

/** What the webhook route needs. */
export interface WebhookRouteDeps {
  secret: string;
  secretHeader: string;
  bodyLimit: number;
  namespace: string;
  store: UpdateStore;
  hooks: DurableHooks;
  /** Whether each update's processing is ordered by its chat. */
  orderByChat: boolean;
}

/**
 * The webhook route. Answers 401 (missing or wrong secret, nothing read or stored), 413, 400
 * (`INVALID_JSON`, `INVALID_UPDATE`), 503 (database unavailable or not migrated: the messenger
 * retries), or 200 `{"ok": true}` / `{"ok": true, "duplicate": true}`.
 *
 * @param deps The secret, body limit, namespace and update store.
 * @returns The route.
 */
export function webhookRoute(deps: WebhookRouteDeps): MessengerWebhookRoute {
  const secretMatches = secretMatcher(deps.secret);
  return route({
    method: "POST",
    path: WEBHOOK_PATH,
    summary: "Receive an update: stored once per update_id, then processed durably",
    name: "receiveUpdate",
    body: webhookUpdateSchema,
    // The handler reads the raw text itself (exact update ids, byte order mark kept).
    input: "raw",
    responses: { 200: webhookResponseSchema },
    errors: {
      400: ["INVALID_JSON", "INVALID_UPDATE", "INVALID_BODY"],
      401: ["UNAUTHORIZED"],
      503: ["SERVICE_UNAVAILABLE", "DATABASE_NOT_MIGRATED"],
    },
    security: [WEBHOOK_SECURITY_SCHEME],
    handler: ({ request }) => {
      // The path is parsed only when a span is recorded (an SDK is registered).
      let path: string | undefined;
      const pathOf = (): string => (path ??= new URL(request.url).pathname);
      return inSpan(
        () => `POST ${pathOf()}`,
        (otel) => ({
          // A SERVER span of its own, unless the application's HTTP instrumentation already
          // started one for the request: then an INTERNAL span inside it.
          kind: otel.trace.getActiveSpan() ? SPAN_KIND.INTERNAL : SPAN_KIND.SERVER,
          attributes: { "http.request.method": "POST", "http.route": pathOf() },
        }),
        (span) => traced(span, () => receive(request, span)),
      );
    },
  });

  /** Authenticates, parses and stores one update; the span learns its id, kind and outcome. */
  async function receive(request: Request, span: Span): Promise<{ ok: true; duplicate?: true }> {
    if (!secretMatches(request.headers.get(deps.secretHeader))) {
      throw new HttpError(401, "UNAUTHORIZED", `Missing or invalid ${deps.secretHeader} header`);
    }
    const raw = await readBodyText(request, deps.bodyLimit, { keepByteOrderMark: true });
    let parsed;
    try {
      parsed = parseUpdate(raw);
    } catch (error) {
      if (error instanceof InvalidUpdateError) {
        throw new HttpError(400, error.code, error.message);
      }
      throw error;
    }
    span.setAttribute("fragment.messenger.update_id", parsed.updateId);
    span.setAttribute("fragment.messenger.update_kind", parsed.kind);
    let duplicate: boolean;
    try {
      const chat = deps.orderByChat ? chatIdOf(parsed.update, parsed.kind) : null;
      duplicate = await deps.store.save(parsed.updateId, parsed.kind, raw, chat);
    } catch (error) {
      throw databaseHttpError(error, deps.namespace);
    }
    span.setAttribute("fragment.messenger.outcome", duplicate ? "duplicate" : "stored");
    if (duplicate) return { ok: true, duplicate: true };
    // Committed: wake this process's worker now and the other processes' with a coalesced
    // NOTIFY sent outside the statement (one that notifies would serialize commits).
    deps.hooks.wake();
    return { ok: true };
  }
}

/**
 * Runs the route's work in its span and ends it with the answer's status: 200, a refusal (4xx,
 * outcome `rejected`, the span's status left unset as OpenTelemetry's HTTP conventions ask of a
 * server) or a failure (5xx or an unexpected error: outcome `error`, status ERROR). Neither the
 * secret nor the payload is ever recorded.
 */
async function traced<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    span.setAttribute("http.response.status_code", 200);
    return result;
  } catch (error) {
    // Errors other than HttpError are answered by the module layer (503 for an unreachable
    // database, else 500): their status is not known here.
    const http = error instanceof HttpError ? error : null;
    if (http) span.setAttribute("http.response.status_code", http.status);
    if (http && http.status < 500) {
      span.setAttribute("fragment.messenger.outcome", "rejected");
      span.setAttribute("error.type", http.code);
    } else {
      span.setAttribute("fragment.messenger.outcome", "error");
      span.setAttribute("error.type", http?.code ?? (error as Error)?.name ?? "Error");
      if (error instanceof Error) span.recordException(error);
      span.setStatus({ code: SPAN_STATUS_ERROR, message: (error as Error)?.message });
    }
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Maps a never-migrated schema to 503 so the messenger delivers the update again once it is;
 * other errors pass through (an unreachable database is answered 503 `SERVICE_UNAVAILABLE` by the
 * module layer, anything else 500).
 */
function databaseHttpError(error: unknown, namespace: string): unknown {
  // undefined_table / invalid_schema_name: the schema was never migrated; undefined_column: not
  // to the version the module needs (the hooks' ordering keys).
  if (
    error instanceof SqlError &&
    (error.code === "42P01" || error.code === "3F000" || error.code === "42703")
  ) {
    return new HttpError(
      503,
      "DATABASE_NOT_MIGRATED",
      `The messenger tables in namespace "${namespace}" do not exist; run fragment-cli db migrate`,
      { cause: error },
    );
  }
  return error;
}
