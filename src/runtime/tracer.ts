/**
 * The OpenTelemetry spans of the package (hook runs, webhook requests), through
 * `@opentelemetry/api`, which does nothing until the application registers an OpenTelemetry SDK:
 * then the spans go wherever that SDK exports them.
 *
 * The API is imported only once something has been registered with it. Its CommonJS build (65
 * files) took about 35 ms of every start on Deno, `db info` and `serve` included, for spans that
 * are no-ops without an SDK. Every registration (an SDK's `register()`,
 * `trace.setGlobalTracerProvider()`, Deno's `OTEL_DENO=true`) goes through one global that all
 * copies of the API share, `Symbol.for("opentelemetry.js.api.1")`; it is looked at when a span
 * starts, and until it exists a span is a no-op, which is what the API itself gives without one.
 *
 * @module
 */

import type * as OtelApi from "@opentelemetry/api";
import type { Span, SpanContext, SpanKind, SpanOptions, SpanStatusCode } from "@opentelemetry/api";
import { VERSION } from "../version.ts";

/** The instrumentation scope name of every span the package starts. */
export const TRACER_NAME = "fragment-cli";

/** The span kinds the package uses (values of OpenTelemetry's `SpanKind`, fixed by its spec). */
export const SPAN_KIND = {
  INTERNAL: 0 as SpanKind.INTERNAL,
  SERVER: 1 as SpanKind.SERVER,
  CONSUMER: 4 as SpanKind.CONSUMER,
} as const;

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
export const SPAN_STATUS_ERROR = 2 as SpanStatusCode.ERROR;

/** Where the API keeps what is registered with it (API 1.x, every copy of it). */
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

let api: typeof OtelApi | undefined;
let loading: Promise<typeof OtelApi> | undefined;
/** The API's tracer: a proxy that follows the provider registered at the time of each span. */
let tracer: OtelApi.Tracer | undefined;

/** The API once loaded; a promise of it when something is registered; else `undefined`. */
function loadedApi(): typeof OtelApi | Promise<typeof OtelApi> | undefined {
  if (api !== undefined) return api;
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
  loading ??= import("@opentelemetry/api").then((module) => (api = module));
  return loading;
}

const INVALID_CONTEXT: SpanContext = Object.freeze({
  traceId: "00000000000000000000000000000000",
  spanId: "0000000000000000",
  traceFlags: 0,
});

/** The span of a run while nothing is registered: records nothing, like the API's own. */
const NOOP_SPAN: Span = Object.freeze({
  spanContext: () => INVALID_CONTEXT,
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
});

/**
 * Runs `fn` in a new active span of the package's tracer (so the spans `fn` starts are its
 * children), or with a no-op span while nothing is registered with the API. `fn` ends the span.
 *
 * @param name The span's name, or a function giving it (called only when a span is recorded).
 * @param options Its options, given the API (e.g. to look at the active span).
 * @param fn The work, given the span.
 * @returns What `fn` returns.
 */
export function inSpan<T>(
  name: string | (() => string),
  options: (otel: typeof OtelApi) => SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const found = loadedApi();
  if (found === undefined) return fn(NOOP_SPAN);
  const start = (otel: typeof OtelApi): Promise<T> => {
    tracer ??= otel.trace.getTracer(TRACER_NAME, VERSION);
    return tracer.startActiveSpan(typeof name === "string" ? name : name(), options(otel), fn);
  };
  return found instanceof Promise ? found.then(start) : start(found);
}
