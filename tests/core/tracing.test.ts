// Issue 23, point 4: OpenTelemetry spans, recorded by the SDK's in-memory exporter registered as the
// global tracer provider (as an application would register its SDK), on PGlite: one span per hook
// run (namespace, name, attempt, outcome, the error of a failed attempt) and one per webhook
// request (update id, kind, outcome; never the secret or the payload).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { durableHooks, withHookTable } from "../../src/hooks/mod.ts";
import { migrate, planMigration } from "../../src/migrate/mod.ts";
import { pgliteAdapter } from "../../src/sql/mod.ts";
import { messenger, messengerSchema } from "../../src/messenger/mod.ts";
import { VERSION } from "../../src/version.ts";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const db = pgliteAdapter();

const schema = defineSchema(
  "tracing_test",
  (s) => withHookTable(s.createTable("items", { id: column.integer().primaryKey() })),
);

/** The finished spans named `name`, oldest first. */
function spansNamed(name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

before(async () => {
  assert.ok(trace.setGlobalTracerProvider(provider), "no other provider registered first");
  const plan = planMigration(schema, { from: 0, namespace: "traced" });
  await db.transaction(async (tx) => {
    for (const step of plan.steps) {
      for (const statement of step.statements) await tx.query(statement);
    }
  });
});

after(async () => {
  await provider.shutdown();
  trace.disable();
  await db.close();
});

describe("OpenTelemetry spans", () => {
  it("a hook run is a CONSUMER span `process <hook>` with namespace, name, attempt, outcome", async () => {
    let attempts = 0;
    const hooks = durableHooks({
      adapter: db,
      namespace: "traced",
      retryDelayMs: 1,
      maxRetryDelayMs: 2,
      onError: () => {},
      hooks: {
        greet: () => {},
        flaky: () => {
          if (++attempts === 1) throw new Error("upstream down");
        },
      },
    });
    await db.transaction(async (tx) => {
      await hooks.enqueue(tx, { name: "greet", key: "g1", payload: { to: "ada" } });
      await hooks.enqueue(tx, { name: "flaky", key: "f1", payload: { n: 1 } });
    });
    const result = await hooks.drain({ waitForScheduled: true });
    assert.deepEqual(result, { done: 2, retried: 1, failed: 0 });

    const [greet, ...moreGreets] = spansNamed("process greet");
    assert.equal(moreGreets.length, 0);
    assert.equal(greet.kind, SpanKind.CONSUMER);
    assert.equal(greet.instrumentationScope.name, "fragment-cli");
    assert.equal(greet.instrumentationScope.version, VERSION);
    assert.equal(greet.attributes["messaging.system"], "fragment-cli");
    assert.equal(greet.attributes["messaging.operation.type"], "process");
    assert.equal(greet.attributes["fragment.hook.namespace"], "traced");
    assert.equal(greet.attributes["fragment.hook.name"], "greet");
    assert.equal(greet.attributes["fragment.hook.attempt"], 1);
    assert.equal(greet.attributes["fragment.hook.outcome"], "done");
    assert.equal(greet.status.code, SpanStatusCode.UNSET);
    assert.equal(greet.events.length, 0);
    const occurrence = await hooks.find("greet", "g1");
    assert.equal(greet.attributes["messaging.message.id"], occurrence?.id);

    const flaky = spansNamed("process flaky");
    assert.deepEqual(
      flaky.map((
        span,
      ) => [span.attributes["fragment.hook.attempt"], span.attributes["fragment.hook.outcome"]]),
      [[1, "retry"], [2, "done"]],
    );
    assert.equal(flaky[0].status.code, SpanStatusCode.ERROR);
    assert.equal(flaky[0].status.message, "upstream down");
    const [exception] = flaky[0].events;
    assert.equal(exception.name, "exception");
    assert.equal(exception.attributes?.["exception.message"], "upstream down");
    assert.equal(flaky[1].status.code, SpanStatusCode.UNSET);
  });

  it("a hook whose last attempt fails ends its span with outcome failed", async () => {
    const hooks = durableHooks({
      adapter: db,
      namespace: "traced",
      maxAttempts: 1,
      onError: () => {},
      hooks: { doomed: () => Promise.reject(new TypeError("bad payload")) },
    });
    await db.transaction((tx) => hooks.enqueue(tx, { name: "doomed", payload: null }));
    assert.deepEqual(await hooks.drain(), { done: 0, retried: 0, failed: 1 });
    const [span] = spansNamed("process doomed");
    assert.equal(span.attributes["fragment.hook.outcome"], "failed");
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.events[0].attributes?.["exception.type"], "TypeError");
  });

  it("a webhook request is a span with update id, kind and outcome, never the secret or payload", async () => {
    const secret = "tracing_secret-0123456789";
    await migrate(db, messengerSchema, { namespace: "traced_bot" });
    const bot = messenger({
      database: db,
      webhookSecret: secret,
      namespace: "traced_bot",
      mountRoute: "/bot",
      onMessage: () => {},
      onError: () => {},
      autoStart: false,
    });
    const post = (body: string, key = secret): Promise<Response> =>
      bot.fetch(
        new Request("http://localhost/bot/messenger/webhook", {
          method: "POST",
          body,
          headers: {
            "content-type": "application/json",
            "X-Messenger-Bot-Api-Secret-Token": key,
          },
        }),
      );
    const body = '{"update_id": 9007199254740993, "message": {"text": "top-secret-text"}}';
    assert.equal((await post(body)).status, 200);
    assert.deepEqual(await (await post(body)).json(), { ok: true, duplicate: true });
    assert.equal((await post(body, "wrong")).status, 401);
    assert.equal((await post("{not json")).status, 400);

    const spans = spansNamed("POST /bot/messenger/webhook");
    assert.deepEqual(
      spans.map((span) => [
        span.attributes["fragment.messenger.outcome"],
        span.attributes["http.response.status_code"],
        span.attributes["fragment.messenger.update_id"],
        span.attributes["fragment.messenger.update_kind"],
      ]),
      [
        ["stored", 200, "9007199254740993", "message"],
        ["duplicate", 200, "9007199254740993", "message"],
        ["rejected", 401, undefined, undefined],
        ["rejected", 400, undefined, undefined],
      ],
    );
    for (const span of spans) {
      assert.equal(span.kind, SpanKind.SERVER);
      assert.equal(span.attributes["http.request.method"], "POST");
      assert.equal(span.attributes["http.route"], "/bot/messenger/webhook");
      assert.equal(span.status.code, SpanStatusCode.UNSET); // 4xx is the client's error
      const recorded = JSON.stringify([span.attributes, span.events]);
      assert.ok(!recorded.includes(secret) && !recorded.includes("top-secret-text"), recorded);
    }
    assert.equal(spans[2].attributes["error.type"], "UNAUTHORIZED");

    // The stored update's hook run is traced too, in the messenger's namespace.
    await bot.api.drain();
    const run = exporter.getFinishedSpans().find((span) =>
      span.attributes["fragment.hook.namespace"] === "traced_bot"
    );
    assert.equal(run?.attributes["fragment.hook.outcome"], "done");
    await bot.close();
  });
});
